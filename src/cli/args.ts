import { parseArgs } from 'node:util';
import type { FailOn } from './gate.ts';

export const DEFAULT_API = 'http://127.0.0.1:3000';
export const DEFAULT_TIMEOUT_SECONDS = 1800;
export const FAIL_ON_VALUES: readonly FailOn[] = ['new', 'critical', 'serious', 'moderate', 'minor', 'any'];

export type Command = 'scan' | 'crawl';

export interface RunOptions {
  command: Command;
  url: string;
  /** The API's base URL without a trailing slash. */
  api: string;
  key: string | undefined;
  maxPages: number | undefined;
  failOn: FailOn[];
  maxIssues: number | undefined;
  includeNeedsReview: boolean;
  sarif: string | undefined;
  junit: string | undefined;
  json: string | undefined;
  timeoutSeconds: number;
  quiet: boolean;
}

export type ParsedArgs = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; options: RunOptions } | { kind: 'usage_error'; message: string };

export const USAGE = `Usage:
  a11y-audit scan <url> [options]         audit one page
  a11y-audit crawl <site-url> [options]   crawl a site and audit its pages
  a11y-audit --help | --version

Options:
  --api <url>              API base URL (default: $A11Y_AUDIT_API, else ${DEFAULT_API})
  --key <key>              API key, sent as "Authorization: Bearer <key>" (default: $A11Y_AUDIT_KEY;
                           prefer the variable: arguments are visible to other processes)
  --max-pages <n>          page cap of the crawl (crawl only)
  --fail-on <list>         fail the build on issues; repeatable or comma-separated:
                             critical|serious|moderate|minor  any issue of that severity or worse
                             any                              any issue
                             new                              count only issues new in this run
                                                              (crawl: compared with the site's previous
                                                              crawl; scan: every issue is new). Alone,
                                                              fails on any new issue unless --max-issues
                                                              is given; with a severity, on new issues of
                                                              that severity or worse
  --max-issues <n>         fail when more than n issues count (only new ones if --fail-on has new)
  --include-needs-review   let needs_review issues count toward the gates (by default only confirmed
                           issues do; needs_review ones are reported but never fail the build)
  --sarif <file>           write a SARIF 2.1.0 report
  --junit <file>           write a JUnit XML report
  --json <file>            write the raw result: the scan or crawl, its issues and the gate decision
  --timeout <seconds>      give up after this long, the whole run (default ${DEFAULT_TIMEOUT_SECONDS})
  --quiet                  no progress lines
  -h, --help               this help

Exit codes: 0 gates passed, 1 a gate failed, 2 usage error, 3 the audit could not run or did not finish.
`;

const OPTIONS = {
  api: { type: 'string' },
  key: { type: 'string' },
  'max-pages': { type: 'string' },
  'fail-on': { type: 'string', multiple: true },
  'max-issues': { type: 'string' },
  'include-needs-review': { type: 'boolean' },
  sarif: { type: 'string' },
  junit: { type: 'string' },
  json: { type: 'string' },
  timeout: { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

class UsageError extends Error {}

/** Parses the command line; pure: the environment comes in as an argument. */
export function parseCliArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    // node:util's messages name the option and say what is wrong with it; the hint about `--`
    // it appends for arguments that look like options does not apply to this command line.
    return { kind: 'usage_error', message: (err as Error).message.replace(/\. To specify a positional argument.*$/s, '') };
  }
  const { values, positionals } = parsed;
  if (values.help || positionals[0] === 'help') return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  try {
    return { kind: 'run', options: runOptions(values, positionals, env) };
  } catch (err) {
    if (err instanceof UsageError) return { kind: 'usage_error', message: err.message };
    throw err;
  }
}

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>['values'];

function runOptions(values: Values, positionals: string[], env: Readonly<Record<string, string | undefined>>): RunOptions {
  const [command, url, ...extra] = positionals;
  if (command === undefined) throw new UsageError('a command is required: scan or crawl');
  if (command !== 'scan' && command !== 'crawl') throw new UsageError(`unknown command "${command}": use scan or crawl`);
  if (url === undefined) throw new UsageError(`${command} needs a URL: a11y-audit ${command} <${command === 'scan' ? 'url' : 'site-url'}>`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}": ${command} takes one URL`);
  if (values['max-pages'] !== undefined && command !== 'crawl') throw new UsageError('--max-pages applies to crawl only');
  return {
    command,
    url: httpUrl(url, command === 'scan' ? 'the URL' : 'the site URL'),
    api: httpUrl(values.api ?? nonEmpty(env.A11Y_AUDIT_API) ?? DEFAULT_API, values.api !== undefined ? '--api' : 'A11Y_AUDIT_API').replace(/\/+$/, ''),
    key: nonEmpty(values.key) ?? nonEmpty(env.A11Y_AUDIT_KEY),
    maxPages: values['max-pages'] === undefined ? undefined : integer(values['max-pages'], '--max-pages', 1),
    failOn: failOnList(values['fail-on'] ?? []),
    maxIssues: values['max-issues'] === undefined ? undefined : integer(values['max-issues'], '--max-issues', 0),
    includeNeedsReview: values['include-needs-review'] ?? false,
    sarif: path(values.sarif, '--sarif'),
    junit: path(values.junit, '--junit'),
    json: path(values.json, '--json'),
    timeoutSeconds: values.timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : seconds(values.timeout),
    quiet: values.quiet ?? false,
  };
}

const nonEmpty = (s: string | undefined) => (s === undefined || s.trim() === '' ? undefined : s.trim());

function httpUrl(value: string, what: string): string {
  // `localhost:3000` parses, as a URL of scheme "localhost:": both cases get the same advice.
  const u = URL.parse(value);
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
    throw new UsageError(`${what} must be an absolute http(s) URL such as https://example.org/, got "${value}"`);
  }
  return u.href;
}

function integer(value: string, name: string, min: number): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`${name} must be an integer of ${min} or more, got "${value}"`);
  return n;
}

function seconds(value: string): number {
  const n = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!(n > 0) || !Number.isFinite(n)) throw new UsageError(`--timeout must be a number of seconds above 0, got "${value}"`);
  return n;
}

function path(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError(`${name} needs a file name`);
  return value;
}

function failOnList(raw: readonly string[]): FailOn[] {
  const out: FailOn[] = [];
  for (const part of raw.flatMap((r) => r.split(','))) {
    const v = part.trim();
    if (v === '') throw new UsageError('--fail-on has an empty value');
    if (!(FAIL_ON_VALUES as readonly string[]).includes(v)) throw new UsageError(`--fail-on: unknown value "${v}"; use ${FAIL_ON_VALUES.join(', ')}`);
    if (!out.includes(v as FailOn)) out.push(v as FailOn);
  }
  return out;
}
