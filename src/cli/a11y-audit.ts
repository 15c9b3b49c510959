#!/usr/bin/env node
/**
 * a11y-audit: drives the service's API from a CI job and fails the build on thresholds.
 * `a11y-audit --help` lists the commands, options and exit codes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseCliArgs, USAGE } from './args.ts';
import { EXIT, runAudit } from './run.ts';
import { VERSION } from './version.ts';

const parsed = parseCliArgs(process.argv.slice(2), process.env);
const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

switch (parsed.kind) {
  case 'help':
    process.stdout.write(USAGE);
    process.exitCode = EXIT.passed;
    break;
  case 'version':
    out(VERSION);
    process.exitCode = EXIT.passed;
    break;
  case 'usage_error':
    err(`a11y-audit: ${parsed.message}\n`);
    process.stderr.write(USAGE);
    process.exitCode = EXIT.usage;
    break;
  case 'run':
    process.exitCode = await runAudit(parsed.options, {
      fetch: globalThis.fetch,
      stdout: out,
      stderr: err,
      writeFile: async (path, text) => {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, text, 'utf8');
      },
      now: () => new Date(),
      version: VERSION,
    });
    break;
}
