import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const workflowsPath = path.join(srcDir, 'workflows', 'index.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const p = path.join(dir, name);
      return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
    })
    .sort();
}

/** Hash of everything a workflow bundle can contain, so a cached bundle is never stale. */
function sourceHash(): string {
  const h = createHash('sha256');
  for (const f of [...sourceFiles(path.join(srcDir, 'workflows')), ...sourceFiles(path.join(srcDir, 'shared'))]) {
    h.update(path.relative(srcDir, f)).update(readFileSync(f));
  }
  const pkg = JSON.parse(readFileSync(path.join(srcDir, '..', 'node_modules', '@temporalio', 'workflow', 'package.json'), 'utf8'));
  return h.update(String(pkg.version)).digest('hex').slice(0, 16);
}

/**
 * Returns the path of a prebuilt workflow bundle, building it once per source version.
 * Workers then start without running webpack (`npm run build:workflows` builds it ahead).
 */
export async function ensureWorkflowBundle(cacheDir: string): Promise<string> {
  const file = path.resolve(cacheDir, `workflows-${sourceHash()}.js`);
  if (existsSync(file)) return file;
  mkdirSync(path.dirname(file), { recursive: true });
  const { code } = await bundleWorkflowCode({ workflowsPath, logger: quietLogger });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, code);
  renameSync(tmp, file);
  return file;
}

const noop = () => {};
const quietLogger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, log: noop };
