import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeEngine } from '../../../src/audit/engines/axe/axe.engine.ts';
import { ownFinding } from '../../../src/audit/engines/engine.ts';
import type { ScanEngine } from '../../../src/audit/engines/index.ts';
import { html, startStaticServer, type StaticServer } from '../../support/static-server.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../../helpers/test-env.ts';

// A crawl page where an engine runs out of time is stored with the other engines' findings and
// marked incomplete, and the next crawl's diff does not call that engine's issues fixed.

let hang = false;
/** Finds the page's title generic; on the second crawl it never finishes (stopped at the engines' share of the deadline). */
const slowCheck: ScanEngine = {
  id: 'slow-check',
  stage: 'CustomChecks',
  run: ({ signal }) =>
    hang
      ? new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('stopped')), { once: true }))
      : Promise.resolve({
          findings: [
            ownFinding({ ruleId: 'title-generic', type: 'confirmed', severity: 'serious', criterion: '2.4.2', selector: 'title', html: '<title>', help: 'h', description: 'd', failureSummary: 's' }),
          ],
        }),
};

describe('a crawl page that runs out of time', () => {
  let env: TestEnv;
  let site: StaticServer;
  beforeAll(async () => {
    site = await startStaticServer(
      { '/': html('<!doctype html><html lang="en"><head><title>Home</title></head><body><main><h1>Home</h1><img src="data:," width="10" height="10"></main></body></html>') },
      { host: '127.0.0.9' },
    );
    // The shortest deadline the configuration allows (25 s): the engines' share ends 5 s before it.
    env = await createTestEnv({ env: { SCAN_DEADLINE_MS: '10000', PAGE_LOAD_TIMEOUT_MS: '5000' }, scanEngines: [axeEngine, slowCheck] });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  async function crawl(siteId: string, body?: unknown) {
    const { crawlId } = await (await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST', ...(body ? { json: body } : {}) })).json();
    return pollUntil(
      async () => (await env.request(`/api/sites/${siteId}/crawls/${crawlId}`)).json(),
      (x) => !['queued', 'running'].includes(x.status),
      { timeoutMs: 120_000 },
    );
  }

  it('keeps the finished engines\' findings, says which engine did not finish, and keeps its issues open', { timeout: 240_000 }, async () => {
    const s = await (await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } })).json();
    const first = await crawl(s.id);
    expect(first).toMatchObject({ scannedPages: 1, failedPages: 0, newIssues: 2 });

    hang = true;
    // The page did not change: audited afresh all the same (reused, it would keep the first audit).
    const second = await crawl(s.id, { reuse: false });
    expect(second).toMatchObject({ scannedPages: 1, failedPages: 0, fixedIssues: 0 });
    const issues = (await (await env.request(`/api/sites/${s.id}/issues?limit=100`)).json()).data;
    expect(issues.map((i: any) => [i.axeRuleId, i.status]).sort()).toEqual([
      ['image-alt', 'open'],
      ['title-generic', 'open'],
    ]);
    const pages = (await (await env.request(`/api/sites/${s.id}/pages`)).json()).data;
    const page = await (await env.request(`/api/sites/${s.id}/pages/${pages[0].id}`)).json();
    const [latest, earlier] = page.scans;
    expect(latest.incomplete).toEqual({ engines: [{ engine: 'slow-check', reason: 'out_of_time' }] });
    expect(latest.issueCounts.total).toBe(1);
    expect(earlier.incomplete).toBeNull();
  });
});
