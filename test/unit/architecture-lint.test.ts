import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The lint rules that keep the architecture's directions (eslint.config.js), checked on snippets so
// a rule that silently stops matching fails here rather than letting a violation in.
const eslint = new ESLint();

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('architecture lint', () => {
  it('keeps activity code out of the API, type imports aside', async () => {
    expect(await problems('src/api/routes/x.ts', "import { siteHostname } from '../../discovery/urls.ts';\nexport const f = siteHostname;\n")).toEqual([
      expect.stringContaining('The API only accepts requests'),
    ]);
    expect(await problems('src/api/routes/x.ts', "import type { Enricher } from '../../enrichment/enricher.ts';\nexport type E = Enricher;\n")).toEqual([]);
    expect(await problems('src/api/routes/x.ts', "import { siteHostname } from '../../shared/urls.ts';\nexport const f = siteHostname;\n")).toEqual([]);
  });

  it('keeps SQL in the repositories', async () => {
    expect(await problems('src/api/middleware.ts', "import { sql } from 'kysely';\nexport const q = sql`select 1`;\n")).toEqual([expect.stringContaining('SQL lives in src/db/repositories')]);
    expect(await problems('src/activities/x.ts', "export const q = (db: any) => db.selectFrom('pages').selectAll().execute();\n")).toEqual([
      expect.stringContaining('SQL lives in src/db/repositories'),
    ]);
    expect(await problems('src/activities/x.ts', "export const t = (db: any) => db.transaction().execute(async () => {});\n")).toEqual([
      expect.stringContaining('SQL lives in src/db/repositories'),
    ]);
    expect(await problems('src/db/repositories/x.ts', "import { sql } from 'kysely';\nexport const q = (db: any) => db.selectFrom('pages').where(sql`true`);\n")).toEqual([]);
  });

  it('keeps I/O out of workflow code', async () => {
    expect(await problems('src/workflows/x.ts', "import { readFile } from 'node:fs';\nexport const f = readFile;\n")).toEqual([expect.stringContaining('Node APIs are not deterministic')]);
    expect(await problems('src/workflows/x.ts', "import { Kysely } from 'kysely';\nexport const k = Kysely;\n")).toEqual([expect.stringContaining('Workflows do no I/O')]);
    expect(await problems('src/workflows/x.ts', "import { createPageScanActivities } from '../activities/page-scan/index.ts';\nexport const f = createPageScanActivities;\n")).toEqual([
      expect.stringContaining('proxyActivities'),
    ]);
    expect(await problems('src/workflows/x.ts', "import { proxyActivities } from '@temporalio/workflow';\nimport type { PageScanActivities } from '../activities/page-scan/index.ts';\nexport const f = proxyActivities<PageScanActivities>;\n")).toEqual([]);
  });

  it('keeps src/shared free of the processes and the database', async () => {
    expect(await problems('src/shared/x.ts', "import { findSite } from '../db/repositories/site.repository.ts';\nexport const f = findSite;\n")).toEqual([expect.stringContaining('src/shared is pure')]);
  });

  it('keeps the database layer under everything but src/shared, type imports included', async () => {
    expect(await problems('src/db/repositories/x.ts', "import type { Enricher } from '../../enrichment/enricher.ts';\nexport type E = Enricher;\n")).toEqual([
      expect.stringContaining('src/db imports nothing above it'),
    ]);
    expect(await problems('src/db/repositories/x.ts', "import type { FindingDraft } from '../../shared/findings.ts';\nexport type F = FindingDraft;\n")).toEqual([]);
  });

  it('keeps reports, which the API loads, off the worker side', async () => {
    expect(await problems('src/reports/x.ts', "import { DEFAULT_ENGINES } from '../audit/engines/index.ts';\nexport const e = DEFAULT_ENGINES;\n")).toEqual([
      expect.stringContaining('src/reports is loaded by the API'),
    ]);
    expect(await problems('src/reports/x.ts', "import { FIX_GUIDES } from '../shared/rules/index.ts';\nexport const g = FIX_GUIDES;\n")).toEqual([]);
  });

  it('keeps the audit engine, discovery and enrichment from reaching back up to the activities', async () => {
    expect(await problems('src/audit/x.ts', "import type { PageScanActivities } from '../activities/page-scan/index.ts';\nexport type A = PageScanActivities;\n")).toEqual([
      expect.stringContaining('never import them'),
    ]);
  });

  it('keeps the API off every part of the worker side', async () => {
    for (const part of ['audit/scan-url.ts', 'enrichment/enricher.ts', 'discovery/urls.ts', 'workers/worker.ts']) {
      expect(await problems('src/api/routes/x.ts', `import * as m from '../../${part}';\nexport const f = m;\n`), part).toHaveLength(1);
    }
  });
});
