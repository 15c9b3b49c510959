import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlDiscoveryActivities } from '../../src/activities/crawl-discovery/index.ts';
import { createLogger } from '../../src/logger.ts';
import { createTargetPolicy } from '../../src/security/target-policy.ts';
import { discoveryWorkflowId } from '../../src/shared/search-attributes.ts';
import { SPA_ROUTES, startSpaFixture, type SpaMode, type SpaServer } from '../helpers/spa-fixture.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';

const ENDED = ['completed', 'completed_partial', 'cancelled', 'failed'];

/**
 * Rendered discovery end to end: client-rendered apps whose routes exist only once their script
 * ran (no links in the served HTML, no sitemap) are crawled page by page, each route's barrier on
 * its own page; a route the app renders as "not found" is a broken link, an in-page anchor is no
 * page, robots.txt holds for rendered links, and fragments an app ignores make no pages.
 */
describe('rendered discovery', () => {
  let env: TestEnv;
  const servers: SpaServer[] = [];

  beforeAll(async () => {
    // Discovery hands its slot back after 200 ms of waiting for rendered links (30 s in production),
    // so these crawls go through the runs that resume where the last one stopped.
    let activities: ReturnType<typeof createCrawlDiscoveryActivities> | undefined;
    const discovery = () =>
      (activities ??= createCrawlDiscoveryActivities({ db: env.db, policy: createTargetPolicy({ allowPrivate: true }), logger: createLogger('test', 'silent'), renderedYieldMs: 200 }));
    env = await createTestEnv({
      discoveryOptions: { fetchTimeoutMs: 3000 },
      overrides: { discovery: { discoverPages: (input) => discovery().discoverPages(input) } },
    });
  }, 120_000);
  afterAll(async () => {
    await env?.close();
    for (const s of servers) await s.close();
  });

  const get = async (path: string) => {
    const res = await env.request(path);
    expect(res.status, path).toBe(200);
    return res.json();
  };

  async function crawlApp(mode: SpaMode, host: string) {
    const app = await startSpaFixture(mode, host);
    servers.push(app);
    const siteId = await addSite(app.origin);
    const res = await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST' });
    expect(res.status).toBe(202);
    const { crawlId } = await res.json();
    return { app, ...(await crawlResults(siteId, crawlId)) };
  }

  async function addSite(origin: string): Promise<string> {
    return (await (await env.request('/api/sites', { method: 'POST', json: { url: `${origin}/` } })).json()).id;
  }

  async function crawlResults(siteId: string, crawlId: string) {
    const crawl = await pollUntil(() => get(`/api/sites/${siteId}/crawls/${crawlId}`), (c) => ENDED.includes(c.status), { timeoutMs: 240_000, everyMs: 250 });
    const pages = (await get(`/api/sites/${siteId}/pages?limit=100`)).data as any[];
    const issues = (await get(`/api/sites/${siteId}/issues?limit=100`)).data as any[];
    // How often discovery ran: more than once when it handed its slot back while scans went on.
    let discoveryRuns = 0;
    let discoveryFailures = 0;
    for (const e of (await env.temporal.workflow.getHandle(discoveryWorkflowId(crawlId)).fetchHistory()).events ?? []) {
      if (e.activityTaskScheduledEventAttributes?.activityType?.name === 'discoverPages') discoveryRuns++;
      if (e.activityTaskFailedEventAttributes || e.activityTaskTimedOutEventAttributes) discoveryFailures++;
    }
    return { crawl, pages, issues, discoveryRuns, discoveryFailures };
  }

  /** Each route is a page found rendered, with its own barrier and no other route's. */
  function expectRoutes(r: Awaited<ReturnType<typeof crawlApp>>, pathOf: (route: string) => string) {
    const byPath = Object.fromEntries(r.pages.map((p) => [p.path, p]));
    expect(byPath['/']?.discoveredVia).toBe('root');
    for (const route of SPA_ROUTES) {
      const page = byPath[pathOf(route.route)];
      expect(page, route.route).toBeDefined();
      expect(page.discoveredVia, route.route).toBe('rendered');
      const here = r.issues.filter((i) => i.pageId === page.id);
      expect(
        here.some((i) => i.axeRuleId === route.rule && i.elementSelector === route.selector),
        `${route.route}: ${here.map((i) => `${i.axeRuleId} ${i.elementSelector}`).join(', ')}`,
      ).toBe(true);
      // A barrier is found on its own route only: each page's scan saw its route rendered.
      const elsewhere = r.issues.filter((i) => i.elementSelector === route.selector && i.pageId !== page.id);
      expect(elsewhere.map((i) => i.pageUrl), route.route).toEqual([]);
    }
  }

  it('crawls a history-routed app: every route a page with its barrier; "not found" is a broken link; robots.txt and #top hold', async () => {
    const r = await crawlApp('history', '127.0.0.21');
    expect(r.crawl).toMatchObject({ status: 'completed', totalPages: 6, scannedPages: 6, failedPages: 0, brokenLinks: 1 });
    expect(r.pages.map((p) => p.path).sort()).toEqual(['/', ...SPA_ROUTES.map((x) => x.route)].sort());
    expectRoutes(r, (route) => route);
    expect(r.discoveryRuns).toBeGreaterThan(1);
    expect(r.discoveryFailures).toBe(0);
    // The unknown route was fetched and rendered (that is how its "not found" view was seen), then left out.
    expect(r.app.hits).toContain('/old-offers');
    expect(r.pages.some((p) => p.path === '/old-offers')).toBe(false);
    // robots.txt disallows /private/: the rendered link to it is never requested.
    expect(r.app.hits.filter((h) => h.startsWith('/private/'))).toEqual([]);
  }, 300_000);

  it('crawls a hash-routed app: one page per #/route, none for #top or the unknown route', async () => {
    const r = await crawlApp('hash', '127.0.0.22');
    expect(r.crawl).toMatchObject({ status: 'completed', totalPages: 6, scannedPages: 6, failedPages: 0, brokenLinks: 1 });
    expect(r.pages.map((p) => p.path).sort()).toEqual(['/', ...SPA_ROUTES.map((x) => `/#${x.route}`)].sort());
    for (const p of r.pages) expect(p.url).toBe(`${r.app.origin}${p.path}`);
    expectRoutes(r, (route) => `/#${route}`);
    expect(r.app.hits.filter((h) => h.startsWith('/private/'))).toEqual([]);
  }, 300_000);

  it('makes no page of fragments an app ignores: the same view as the page that links them', async () => {
    const r = await crawlApp('static', '127.0.0.23');
    expect(r.crawl).toMatchObject({ status: 'completed', totalPages: 1, scannedPages: 1, brokenLinks: 0 });
    expect(r.pages.map((p) => p.path)).toEqual(['/']);
    expect(r.issues.map((i) => `${i.axeRuleId} ${i.elementSelector}`)).toContain('image-alt #brochure-photo');
  }, 300_000);

  it('stops rendered discovery when the crawl is cancelled mid-way', async () => {
    const app = await startSpaFixture('history', '127.0.0.24', { slowMs: 4000 });
    servers.push(app);
    const siteId = await addSite(app.origin);
    const { crawlId } = await (await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST' })).json();
    // The home page is scanned; its routes are still on their way.
    await pollUntil(() => get(`/api/sites/${siteId}/crawls/${crawlId}`), (c) => c.scannedPages >= 1, { timeoutMs: 120_000, everyMs: 100 });
    expect((await env.request(`/api/sites/${siteId}/crawls/${crawlId}/cancel`, { method: 'POST' })).status).toBe(202);
    const r = await crawlResults(siteId, crawlId);
    expect(r.crawl.status).toBe('cancelled');
    const discovery = await pollUntil(
      () => env.temporal.workflow.getHandle(discoveryWorkflowId(crawlId)).describe(),
      (d) => d.status.name !== 'RUNNING',
      { timeoutMs: 60_000, everyMs: 250 },
    );
    // Cancelled, or completed if its activity saw the cancellation between two steps and returned.
    expect(['CANCELLED', 'COMPLETED']).toContain(discovery.status.name);
  }, 300_000);
});
