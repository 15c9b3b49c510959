import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../../temporal-dev/dev-server.ts';
import { html, startStaticServer, type StaticServer } from '../../support/static-server.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../../helpers/test-env.ts';
import { startWorkerProcess, type WorkerProcess } from '../../helpers/worker-process.ts';

const ENDED = ['completed', 'completed_partial', 'cancelled', 'failed'];
const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

/**
 * A site of `n` pages on its own loopback address (sites are told apart by host name), each page
 * with one barrier; `slowMs` delays an image so that a page takes that long to load.
 */
async function manyPageSite(host: string, n: number, slowMs = 0): Promise<StaticServer> {
  const server = await startStaticServer({}, { host });
  const links = Array.from({ length: n }, (_, i) => `<a href="/p/${i + 1}">article number ${i + 1}</a>`).join(', ');
  server.route('/', html(`<!doctype html><html lang="en"><title>Index</title><main><h1>Index</h1><p>Read ${links}.</p></main></html>`));
  server.route('/slow.gif', async (_req, res) => {
    await new Promise((r) => setTimeout(r, slowMs));
    res.writeHead(200, { 'content-type': 'image/gif' });
    res.end(Buffer.from(GIF.split(',')[1]!, 'base64'));
  });
  for (let i = 1; i <= n; i++) {
    server.route(
      `/p/${i}`,
      html(`<!doctype html><html lang="en"><title>Article ${i}</title><main><h1>Article ${i}</h1>
        <img id="photo-${i}" src="${slowMs ? '/slow.gif' : GIF}" width="30" height="30"><p>Text of article ${i}.</p></main></html>`),
    );
  }
  return server;
}

describe('crawls that roll over, get cancelled, or lose their worker', () => {
  let temporal: DevServer;
  let env: TestEnv;
  let worker: WorkerProcess;
  const sites: StaticServer[] = [];

  beforeAll(async () => {
    // A server that suggests continue-as-new after 200 history events, so a small crawl must roll over.
    temporal = await startDevServer({ headless: true, dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 200 } });
    env = await createTestEnv({ temporalAddress: temporal.address, workers: false });
    worker = await startWorkerProcess(env);
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.close();
    await temporal?.stop();
    for (const s of sites) await s.close();
  });

  async function addSite(origin: string): Promise<string> {
    const res = await env.request('/api/sites', { method: 'POST', json: { url: `${origin}/` } });
    return (await res.json()).id;
  }
  async function startCrawl(siteId: string): Promise<string> {
    const res = await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST' });
    expect(res.status).toBe(202);
    return (await res.json()).crawlId;
  }
  const crawlOf = async (siteId: string, crawlId: string) => (await env.request(`/api/sites/${siteId}/crawls/${crawlId}`)).json();
  const waitEnded = (siteId: string, crawlId: string) => pollUntil(() => crawlOf(siteId, crawlId), (c) => ENDED.includes(c.status), { timeoutMs: 240_000, everyMs: 250 });

  async function issueKeys(siteId: string): Promise<string[]> {
    const body = await (await env.request(`/api/sites/${siteId}/issues?limit=100`)).json();
    return body.data.map((i: any) => `${new URL(i.pageUrl).pathname} ${i.axeRuleId} ${i.elementSelector} ${i.severity}`).sort();
  }

  it('continues as new during a long crawl and still ends with correct counts', async () => {
    const n = 40;
    const site = await manyPageSite('127.0.0.2', n);
    sites.push(site);
    const siteId = await addSite(site.origin);
    const crawlId = await startCrawl(siteId);
    const c = await waitEnded(siteId, crawlId);
    expect(c).toMatchObject({ status: 'completed', totalPages: n + 1, scannedPages: n + 1, enrichedPages: n + 1, failedPages: 0, newIssues: n });
    expect(await issueKeys(siteId)).toHaveLength(n);

    const runs = await pollUntil(
      async () => {
        const out: string[] = [];
        for await (const wf of env.temporal.workflow.list({ query: `WorkflowId = "crawl-${crawlId}"` })) out.push(wf.status.name);
        return out;
      },
      (s) => s.includes('COMPLETED'),
    );
    expect(runs.filter((s) => s === 'CONTINUED_AS_NEW').length).toBeGreaterThanOrEqual(1);
    // Operators find every workflow of the crawl by its search attribute.
    const byAttr: string[] = [];
    for await (const wf of env.temporal.workflow.list({ query: `crawlId = "${crawlId}"` })) byAttr.push(wf.workflowId);
    expect(new Set(byAttr)).toEqual(new Set([`crawl-${crawlId}`, `discover-${crawlId}`]));
  });

  it('cancels a running crawl, keeps what was scanned, and refuses a second cancel', async () => {
    const site = await manyPageSite('127.0.0.3', 12, 1500);
    sites.push(site);
    const siteId = await addSite(site.origin);
    const crawlId = await startCrawl(siteId);
    await pollUntil(() => crawlOf(siteId, crawlId), (c) => c.scannedPages >= 2, { timeoutMs: 60_000 });
    const res = await env.request(`/api/sites/${siteId}/crawls/${crawlId}/cancel`, { method: 'POST' });
    expect(res.status).toBe(202);
    expect((await res.json()).id).toBe(crawlId);
    const c = await waitEnded(siteId, crawlId);
    expect(c.status).toBe('cancelled');
    expect(c.scannedPages).toBeGreaterThanOrEqual(2);
    expect(c.scannedPages).toBeLessThan(13);
    expect(c.completedAt).not.toBeNull();
    expect(c.overallScore).not.toBeNull();
    // Pages scanned before the cancel keep their scores and issues.
    const scannedIssues = await issueKeys(siteId);
    expect(scannedIssues.length).toBeGreaterThanOrEqual(c.scannedPages - 1);
    const again = await env.request(`/api/sites/${siteId}/crawls/${crawlId}/cancel`, { method: 'POST' });
    expect(again.status).toBe(409);
    // The row says cancelled once finalized; the workflow closes as Cancelled right after.
    const wf = await pollUntil(() => env.temporal.workflow.getHandle(`crawl-${crawlId}`).describe(), (d) => d.status.name !== 'RUNNING');
    expect(wf.status.name).toBe('CANCELLED');
    // The counters agree with the pages' own states: nothing was counted twice or lost.
    const states = await env.db.selectFrom('crawl_pages').select(['state']).where('crawl_id', '=', crawlId).execute();
    expect(states.filter((s) => ['scanned', 'enriched', 'enrich_failed'].includes(s.state)).length).toBe(c.scannedPages);
    expect(states.filter((s) => s.state === 'pending' || s.state === 'dispatched').length).toBeGreaterThan(0);
  });

  it('survives a worker killed mid-crawl: every page once, the same issues as an undisturbed crawl', async () => {
    const n = 15;
    const site = await manyPageSite('127.0.0.4', n, 800);
    sites.push(site);
    const disturbed = await addSite(site.origin);
    const crawlId = await startCrawl(disturbed);
    await pollUntil(() => crawlOf(disturbed, crawlId), (c) => c.scannedPages >= 3, { timeoutMs: 60_000 });
    await worker.kill();
    const during = await crawlOf(disturbed, crawlId);
    expect(during.status).toBe('running');
    worker = await startWorkerProcess(env);
    const c = await waitEnded(disturbed, crawlId);
    expect(c).toMatchObject({ status: 'completed', totalPages: n + 1, scannedPages: n + 1, enrichedPages: n + 1, failedPages: 0, newIssues: n });

    const perPage = await env.db
      .selectFrom('page_scans')
      .select(['page_id', sql<number>`count(*)::int`.as('n')])
      .where('crawl_id', '=', crawlId)
      .groupBy('page_id')
      .execute();
    expect(perPage).toHaveLength(n + 1);
    expect(perPage.every((p) => p.n === 1)).toBe(true);
    const pages = await env.db.selectFrom('pages').select(['url']).where('site_id', '=', disturbed).execute();
    expect(new Set(pages.map((p) => p.url)).size).toBe(n + 1);
    const findings = await env.db
      .selectFrom('findings')
      .innerJoin('page_scans', 'page_scans.id', 'findings.page_scan_id')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('page_scans.crawl_id', '=', crawlId)
      .executeTakeFirstOrThrow();
    expect(findings.n).toBe(n);

    // The same site under another host name, crawled without interruption.
    const twin = await manyPageSite('127.0.0.5', n, 800);
    sites.push(twin);
    const calm = await addSite(twin.origin);
    const calmCrawl = await startCrawl(calm);
    expect((await waitEnded(calm, calmCrawl)).status).toBe('completed');
    expect(await issueKeys(disturbed)).toEqual(await issueKeys(calm));
  }, 180_000); // Temporal notices a SIGKILLed worker only when its activities' heartbeat timeouts (up to 60 s) expire.
});
