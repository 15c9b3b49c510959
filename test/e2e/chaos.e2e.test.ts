import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityTimeouts, crawlInvariants } from '../support/crawl-invariants.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process.ts';

// The test-suite version of `bench/chaos.bench.ts`: a 40-page crawl whose worker process is
// SIGKILLed (Chromium with it) three times and restarted, then checked row by row.

const PAGES = 40;
const GIF = 'R0lGODlhAQABAAAAACw=';

describe('a crawl whose worker is killed three times', () => {
  let env: TestEnv;
  let site: StaticServer;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    site = await startStaticServer();
    const links = Array.from({ length: PAGES - 1 }, (_, i) => `<li><a href="/p/${i + 1}">Article number ${i + 1}</a></li>`).join('');
    site.route('/', html(`<!doctype html><html lang="en"><title>Chaos index</title><main><h1>Index</h1><ul>${links}</ul></main></html>`));
    // Each page waits on a slow image, so kills land mid-scan.
    site.route('/slow.gif', async (_req, res) => {
      await new Promise((r) => setTimeout(r, 400));
      res.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from(GIF, 'base64'));
    });
    for (let i = 1; i < PAGES; i++) {
      site.route(
        `/p/${i}`,
        html(`<!doctype html><html lang="en"><title>Article ${i}</title><main><h1>Article ${i}</h1><img src="/slow.gif" width="20" height="20"><p>Text ${i}.</p></main></html>`),
      );
    }
    env = await createTestEnv({ workers: false, discoveryOptions: { fetchTimeoutMs: 3000 } });
    worker = await startWorkerProcess(env);
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.close();
    await site?.close();
  });

  it('ends completed with every page scanned once, no duplicate issue and counters that match the rows', async () => {
    const siteId = (await (await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } })).json()).id;
    const crawlId = (await (await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST' })).json()).crawlId;
    const crawlOf = async () => (await env.request(`/api/sites/${siteId}/crawls/${crawlId}`)).json();

    for (const atScanned of [4, 14, 24]) {
      await pollUntil(crawlOf, (c) => c.scannedPages >= atScanned || !['queued', 'running'].includes(c.status), { timeoutMs: 240_000, everyMs: 100 });
      await worker!.kill();
      worker = await startWorkerProcess(env);
    }
    const done = await pollUntil(crawlOf, (c) => !['queued', 'running'].includes(c.status), { timeoutMs: 400_000, everyMs: 250 });
    expect(done).toMatchObject({ status: 'completed', totalPages: PAGES, scannedPages: PAGES, enrichedPages: PAGES, failedPages: 0 });

    const inv = await crawlInvariants(env.db, crawlId);
    expect(inv.problems).toEqual([]);
    expect(inv.rows).toMatchObject({ pages: PAGES, scans: PAGES, pagesWithoutScan: 0, pagesWithSeveralScans: 0 });
    // Killed workers are noticed by heartbeat timeouts; no scan or enrichment ran past its
    // start-to-close limit (they heartbeat, so only a hung one could reach it).
    const timeouts = await activityTimeouts(env.temporal, crawlId);
    expect(timeouts.workflows).toBeGreaterThanOrEqual(2);
    expect(timeouts.byType.HEARTBEAT ?? 0).toBeGreaterThan(0);
    for (const a of ['scanCrawlPage', 'enrichCrawlPage', 'discoverPages']) expect(timeouts.byActivity[`${a}:START_TO_CLOSE`], a).toBeUndefined();
  }, 900_000);
});
