import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserProvider, resolveChromiumPath, type BrowserProvider } from '../../../../src/audit/session/browser-provider.ts';
import { axeEngine } from '../../../../src/audit/engines/axe/axe.engine.ts';
import type { ScanEngine } from '../../../../src/audit/engines/index.ts';
import { scanUrl, type ScanUrlResult } from '../../../../src/audit/scan-url.ts';
import { createTabPool, TabCrashedError, type TabPool } from '../../../../src/audit/session/tab-pool.ts';
import { createTargetPolicy, type TargetPolicy } from '../../../../src/security/target-policy.ts';
import { html, startStaticServer, type StaticServer } from '../../../support/static-server.ts';
import { fixtureFile } from '../../../helpers/fixture-pages.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../../../helpers/test-env.ts';
import { commandLine, processTree } from '../../../support/process-tree.ts';

const ENDED = ['completed', 'completed_partial', 'cancelled', 'failed'];

/** A page that leaves everything a page can leave behind: cookies, storage, a database, a cache, a service worker. */
const LITTERING = `<!doctype html><html lang="en"><title>Litter</title><main><h1>Litter</h1></main>
<script>
  document.cookie = 'script_cookie=1; path=/; max-age=3600';
  localStorage.setItem('local', '1');
  sessionStorage.setItem('session', '1');
  const open = indexedDB.open('litter', 1);
  open.onupgradeneeded = () => open.result.createObjectStore('things');
  window.__sw = navigator.serviceWorker ? navigator.serviceWorker.register('/sw.js').then(() => 'registered', (e) => 'refused: ' + e.message) : Promise.resolve('none');
  window.__cache = caches.open('litter').then((c) => c.put('/cached', new Response('x'))).then(() => 'cached', () => 'no cache');
</script></html>`;

/** What the current document of `page` can see that an earlier page could have left. */
async function leftovers(page: import('playwright').Page) {
  return page.evaluate(async () => ({
    cookie: document.cookie,
    local: localStorage.length,
    session: sessionStorage.length,
    databases: (await indexedDB.databases()).map((d) => d.name),
    caches: await caches.keys(),
    workers: navigator.serviceWorker ? (await navigator.serviceWorker.getRegistrations()).length : 0,
  }));
}
/** Kills the page's renderer (DevTools' Page.crash never answers: the crash event says it is done), then touches the page. */
async function crashRenderer(page: import('playwright').Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  void cdp.send('Page.crash').catch(() => {});
  await page.waitForEvent('crash', { timeout: 10_000 });
  await page.evaluate(() => 1);
}
/**
 * The highest renderer id among this process's live Chromium renderers: Chromium numbers every
 * renderer it starts (`--renderer-client-id`), so the difference between two readings counts the
 * renderers started in between, short-lived ones included.
 */
function lastRendererId(): number {
  let last = 0;
  for (const pid of processTree(process.pid)) {
    const id = /--renderer-client-id=(\d+)/.exec(commandLine(pid))?.[1];
    if (id) last = Math.max(last, Number(id));
  }
  return last;
}
const NOTHING = { cookie: '', local: 0, session: 0, databases: [], caches: [], workers: 0 };

describe('one tab per slot and crawl, navigated from page to page', () => {
  let server: StaticServer;
  let browser: BrowserProvider;
  let policy: TargetPolicy;
  const cookiesSeen: Array<string | undefined> = [];
  const pools: TabPool[] = [];
  const pool = (slots: number, extra: Partial<Parameters<typeof createTabPool>[0]> = {}) => {
    const p = createTabPool({ browser, policy, pageLoadTimeoutMs: 15_000, slots, ...extra });
    pools.push(p);
    return p;
  };

  beforeAll(async () => {
    server = await startStaticServer({
      '/litter': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'header_cookie=1; Path=/; Max-Age=3600' });
        res.end(LITTERING);
      },
      '/sw.js': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end('self.addEventListener("fetch", () => {});');
      },
      '/look': (req, res) => {
        cookiesSeen.push(req.headers.cookie);
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><html lang="en"><title>Look</title><main><h1>Look</h1></main></html>');
      },
    });
    browser = createBrowserProvider({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH) });
    // The egress proxy stays in the path (as for public targets); only the fixture server is let through.
    policy = createTargetPolicy({ allowPrivate: false, allowHosts: [server.host] });
  });
  afterAll(async () => {
    for (const p of pools) await p.close();
    await browser?.close();
    await server?.close();
  });

  async function litterThenLook(tabs: TabPool, first: string, second: string) {
    const left = await tabs.use(first, async (tab) => {
      const r = await tab.load(`${server.origin}/litter`);
      if (r.kind !== 'loaded') throw new Error(JSON.stringify(r));
      const sw = await r.page.evaluate(() => (window as any).__sw);
      const cache = await r.page.evaluate(() => (window as any).__cache);
      return { sw, cache, seen: await leftovers(r.page) };
    });
    // The littering page did leave things behind in its own document.
    expect(left.seen.cookie).toContain('script_cookie=1');
    expect(left.seen.cookie).toContain('header_cookie=1');
    expect(left.seen.local).toBe(1);
    expect(left.cache).toBe('cached');
    // Scan contexts block service workers: register() answers, but no worker stays to serve the next page.
    expect(left.sw).toBe('registered');
    expect(left.seen.workers).toBe(0);
    cookiesSeen.length = 0;
    const seen = await tabs.use(second, async (tab) => {
      const r = await tab.load(`${server.origin}/look`);
      if (r.kind !== 'loaded') throw new Error(JSON.stringify(r));
      return leftovers(r.page);
    });
    return { seen, cookieHeader: cookiesSeen[0] };
  }

  it('gives a page of another crawl in the same slot a tab that has seen nothing of the first', async () => {
    const tabs = pool(1);
    const { seen, cookieHeader } = await litterThenLook(tabs, 'crawl:a', 'crawl:b');
    expect(seen).toEqual(NOTHING);
    expect(cookieHeader).toBeUndefined();
    // One slot: crawl a's idle tab made way for crawl b's own.
    expect(tabs.stats()).toMatchObject({ opened: 2, reused: 0, open: 1 });
  });

  it('a warmed pool hands its spare tab to the next new owner, one owner each, and never to a site with a set-up', async () => {
    const tabs = pool(2);
    tabs.warm();
    expect(tabs.stats()).toMatchObject({ opened: 0, open: 0, spares: 0 });
    // The first owner gets the spare: it has never loaded a page, so its first load is its first page.
    const first = await tabs.use('crawl:warm-a', async (tab) => ({ pages: tab.pages, tab }));
    expect(first.pages).toBe(0);
    expect(tabs.stats()).toMatchObject({ opened: 1, spares: 1 });
    // A replacement spare is opened in the background; the next owner gets that one, not A's tab.
    const second = await tabs.use('crawl:warm-b', async (tab) => tab);
    expect(second).not.toBe(first.tab);
    expect(tabs.stats()).toMatchObject({ opened: 2, spares: 2 });
    // A site with a set-up (headers, cookies, a login) never gets the spare: its context carries the set-up.
    const withSetup = await tabs.use('crawl:warm-c', async (tab) => tab, {
      auth: async () => ({ kind: 'auth', auth: { origin: server.origin, setup: { headers: { 'x-audit': '1' } } } }),
    });
    expect(withSetup).not.toBe(first.tab);
    expect(withSetup).not.toBe(second);
    expect(tabs.stats().spares).toBe(2);
    const litter = await litterThenLook(tabs, 'crawl:warm-d', 'crawl:warm-e');
    expect(litter.seen).toEqual(NOTHING);
  });

  it('reuses the tab within a crawl, and the next page still starts as a first visit', async () => {
    const tabs = pool(2);
    const { seen, cookieHeader } = await litterThenLook(tabs, 'crawl:c', 'crawl:c');
    expect(seen).toEqual(NOTHING);
    expect(cookieHeader).toBeUndefined();
    expect(tabs.stats()).toMatchObject({ opened: 1, reused: 1 });
  });

  it('never hands a single-page scan\'s tab to anyone: it closes when the scan is done', async () => {
    const tabs = pool(2);
    await tabs.use('scan:1', (tab) => tab.load(`${server.origin}/look`), { keep: false });
    expect(tabs.stats()).toMatchObject({ open: 0, opened: 1 });
  });

  it('replaces a tab after its page budget, and Chromium after its own, without failing a page', async () => {
    const tabs = pool(1, { maxPagesPerTab: 2, maxPagesPerBrowser: 3 });
    const first = await browser.get();
    for (let i = 0; i < 5; i++) {
      const r = await tabs.use('crawl:d', (tab) => tab.load(`${server.origin}/look`));
      expect(r.kind).toBe('loaded');
    }
    const s = tabs.stats();
    expect(s.opened).toBe(3); // pages 1-2 in the first tab, 3-4 in a second (Chromium's budget ran out meanwhile), 5 in a new Chromium
    expect(s.browsersRetired).toBe(1);
    expect(first.isConnected()).toBe(false);
    expect((await browser.get()).isConnected()).toBe(true);
  });

  it('starts renderers per tab, not per page, while the slots of three crawls navigate in turn', async () => {
    const tabs = pool(3);
    await browser.get();
    const before = lastRendererId();
    await Promise.all(
      ['crawl:r1', 'crawl:r2', 'crawl:r3'].map(async (owner) => {
        for (let i = 0; i < 5; i++) {
          const r = await tabs.use(owner, (tab) => tab.load(`${server.origin}/look?${i}`));
          expect(r.kind).toBe('loaded');
        }
      }),
    );
    expect(tabs.stats()).toMatchObject({ opened: 3, reused: 12 });
    // The tabs' own renderers (10 here: two or three per context in headless Chromium), not a spare
    // warmed for one context and thrown away by the next one's navigation (43 for these 15 pages).
    // At least the three tabs' own: a count of none means the renderers were not found at all.
    const started = lastRendererId() - before;
    expect(started).toBeGreaterThanOrEqual(3);
    expect(started).toBeLessThanOrEqual(12);
  });

  it('reports a renderer crash as TabCrashedError and gives the owner a new tab that works', async () => {
    const tabs = pool(1);
    const crasher: ScanEngine = {
      id: 'crasher',
      stage: 'CustomChecks',
      async run({ page }) {
        await crashRenderer(page);
        return { findings: [] };
      },
    };
    const scan = (engines: readonly ScanEngine[]) => tabs.use('crawl:e', (tab) => scanUrl(`${server.origin}/look`, { tab, policy, pageLoadTimeoutMs: 15_000, engines }));
    await expect(scan([axeEngine, crasher])).rejects.toBeInstanceOf(TabCrashedError);
    expect(tabs.stats()).toMatchObject({ open: 0 });
    const again = await scan([axeEngine]);
    expect(again.kind).toBe('scanned');
    expect(tabs.stats()).toMatchObject({ opened: 2, open: 1 });
  });

  it('finds the same problems on the same elements with a reused tab as with a fresh one per page', async () => {
    for (const name of ['barriers.html', 'clean.html', 'offline-fixes.html']) server.route(`/fixture/${name}`, fixtureFile(`pages/${name}`));
    const urls = ['barriers.html', 'clean.html', 'offline-fixes.html', 'barriers.html'].map((n) => `${server.origin}/fixture/${n}`);
    const key = (r: ScanUrlResult) => {
      if (r.kind !== 'scanned') throw new Error(JSON.stringify(r));
      return {
        findings: r.findings.map((f) => `${f.ruleId} ${f.wcagCriterion} ${f.type} ${f.elementSelector}`).sort(),
        passes: r.passes.map((p) => `${p.ruleId} ${p.elements}`).sort(),
      };
    };
    const fresh = [];
    for (const url of urls) fresh.push(key(await scanUrl(url, { browser: await browser.get(), policy, pageLoadTimeoutMs: 15_000 })));
    const tabs = pool(1);
    const reused = [];
    for (const url of urls) reused.push(key(await tabs.use('crawl:f', (tab) => scanUrl(url, { tab, policy, pageLoadTimeoutMs: 15_000 }))));
    expect(tabs.stats().reused).toBe(urls.length - 1);
    expect(fresh[0]!.findings.length).toBeGreaterThan(3);
    expect(reused).toEqual(fresh);
  }, 120_000);
});

describe('a crawl whose pages crash their tab', () => {
  let env: TestEnv;
  let site: StaticServer;
  const crashes = new Map<string, number>();

  beforeAll(async () => {
    // Crashes the renderer on /once the first time, and on /always every time.
    const crasher: ScanEngine = {
      id: 'crasher',
      stage: 'CustomChecks',
      async run({ page }) {
        const path = new URL(page.url()).pathname;
        const n = (crashes.get(path) ?? 0) + 1;
        crashes.set(path, n);
        if (path === '/always' || (path === '/once' && n === 1)) {
          await crashRenderer(page);
        }
        return { findings: [] };
      },
    };
    env = await createTestEnv({ scanEngines: [axeEngine, crasher] });
    site = await startStaticServer({
      '/': html('<!doctype html><html lang="en"><title>Home</title><main><h1>Home</h1><a href="/once">Once</a> <a href="/always">Always</a> <a href="/fine">Fine</a></main></html>'),
      '/once': html('<!doctype html><html lang="en"><title>Once</title><main><h1>Once</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" id="no-alt"></main></html>'),
      '/always': html('<!doctype html><html lang="en"><title>Always</title><main><h1>Always</h1></main></html>'),
      '/fine': html('<!doctype html><html lang="en"><title>Fine</title><main><h1>Fine</h1></main></html>'),
    });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  it('scans a page again once in a new tab after a crash, and records a page that crashes twice as a browser error', async () => {
    const created = await (await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } })).json();
    const started = await (await env.request(`/api/sites/${created.id}/crawl`, { method: 'POST' })).json();
    const crawl = await pollUntil(
      async () => (await env.request(`/api/sites/${created.id}/crawls/${started.crawlId}`)).json(),
      (c) => ENDED.includes(c.status),
      { timeoutMs: 120_000, everyMs: 200 },
    );
    expect(crawl).toMatchObject({ status: 'completed_partial', totalPages: 4, scannedPages: 3, failedPages: 1 });
    expect(crashes.get('/once')).toBe(2);
    expect(crashes.get('/always')).toBe(2);
    expect(crashes.get('/fine')).toBe(1);
    const pages = (await (await env.request(`/api/sites/${created.id}/pages?limit=100`)).json()).data as any[];
    const byPath = Object.fromEntries(pages.map((p) => [p.path, p]));
    expect(byPath['/once'].issueCounts.total).toBeGreaterThan(0);
    const always = await (await env.request(`/api/sites/${created.id}/pages/${byPath['/always'].id}`)).json();
    expect(always.scans[0]).toMatchObject({ status: 'failed', error: { code: 'browser_error' } });
    expect(always.scans[0].error.message).toMatch(/crashed the browser tab twice/);
  }, 150_000);
});
