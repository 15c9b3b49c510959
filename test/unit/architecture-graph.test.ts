import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

// The import graph's rules (.dependency-cruiser.cjs, run by `npm run lint`) checked on small trees,
// so a rule that silently stops matching fails here; and the API process's real loads.
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function violations(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'graph-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const result = await cruise(['src'], { ...config.options, baseDir: dir, ruleSet: { forbidden: config.forbidden }, validate: true });
  if (typeof result.output === 'string') throw new Error('expected a graph');
  return result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

describe('import graph rules', () => {
  it('refuse a cycle made only of type imports', async () => {
    const found = await violations({
      'src/shared/a.ts': "import type { B } from './b.ts';\nexport type A = B | 1;\n",
      'src/shared/b.ts': "import type { A } from './a.ts';\nexport type B = A | 2;\n",
    });
    expect(found.some((v) => v.startsWith('no-cycle:'))).toBe(true);
  });

  it('refuse an API module that reaches audit code through another layer', async () => {
    const found = await violations({
      'src/api/routes/x.ts': "import { f } from '../../reports/r.ts';\nexport const g = f;\n",
      'src/reports/r.ts': "import { e } from '../audit/engines/e.ts';\nexport const f = e;\n",
      'src/audit/engines/e.ts': 'export const e = 1;\n',
    });
    expect(found).toContain('api-loads-no-worker-code: src/api/routes/x.ts -> src/audit/engines/e.ts');
  });

  it('accept the same tree without the offending import', async () => {
    expect(
      await violations({
        'src/api/routes/x.ts': "import { f } from '../../reports/r.ts';\nexport const g = f;\n",
        'src/reports/r.ts': 'export const f = 1;\n',
      }),
    ).toEqual([]);
  });
});

describe('the code as it is', () => {
  it('has no import cycle, and its API process loads no audit, activity or worker code and none of Playwright, axe-core or the model client', () => {
    const run = spawnSync(process.execPath, ['scripts/architecture.ts', '--json'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.cycles).toEqual([]);
    expect(report.api.activityFilesLoaded).toBe(0);
    expect(report.api.heavyPackagesLoaded).toEqual([]);
    expect(report.api.srcFiles.filter((f: string) => /^src\/(audit|activities|discovery|enrichment|workers)\//.test(f))).toEqual([]);
    expect(report.filesOver600).toEqual([]);
  }, 60_000);
});
