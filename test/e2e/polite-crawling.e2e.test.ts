import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeEngine } from '../../src/audit/engines/axe/axe.engine.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';

// A careful guest on sites that push back: a site that answers 429 with Retry-After beyond a few
// requests a second (to documents and to what they need to render) and 503 now and then is crawled
// to the end, every page audited with its stylesheet; robots.txt's Crawl-delay spaces page fetches.

const ENDED = ['completed', 'completed_partial', 'cancelled', 'failed'];
const PAGES = 24;

const page = (i: number, links: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i}</title><link rel="stylesheet" href="/site.css"><script src="/site.js"></script></head>` +
  `<body><main><h1>Page ${i}</h1><p class="faint">Only the stylesheet makes this text faint.</p>${links}</main></body></html>`;

/** The site's pages: the home page links to every other one. */
function body(path: string): { type: string; text: string } | undefined {
  if (path === '/') return { type: 'text/html', text: page(0, Array.from({ length: PAGES - 1 }, (_, i) => `<a href="/p${i + 1}">Page ${i + 1}</a>`).join(' ')) };
  const m = /^\/p(\d+)$/.exec(path);
  if (m && Number(m[1]) >= 1 && Number(m[1]) < PAGES) return { type: 'text/html', text: page(Number(m[1]), '<a href="/">Home</a>') };
  if (path === '/site.css') return { type: 'text/css', text: '.faint { color: #bbb; background: #fff; }' };
  if (path === '/site.js') return { type: 'text/javascript', text: 'document.documentElement.dataset.ready = "1";' };
  return undefined;
}

describe('a careful guest on sites that push back', () => {
  let env: TestEnv;
  let limited: StaticServer;
  let slow: StaticServer;
  const answered = { ok: 0, limited: 0, unavailable: 0 };
  /** When each HTML page of the Crawl-delay site was fetched (discovery's GETs and the browser's alike). */
  const pageFetches: number[] = [];

  beforeAll(async () => {
    // At most 4 requests a second from everyone together; past that 429 with Retry-After: 1. One
    // request in 17 gets a 503 without Retry-After, as an overloaded server answers now and then.
    const recent: number[] = [];
    let n = 0;
    limited = await startStaticServer({}, { host: '127.0.0.5' });
    const limit = (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const now = Date.now();
      while (recent.length && now - recent[0]! > 1000) recent.shift();
      n++;
      if (recent.length >= 4) {
        answered.limited++;
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain' }).end('Too many requests');
        return;
      }
      recent.push(now);
      if (n % 17 === 0) {
        answered.unavailable++;
        res.writeHead(503, { 'content-type': 'text/plain' }).end('Busy');
        return;
      }
      const b = path === '/robots.txt' ? { type: 'text/plain', text: 'User-agent: *\nAllow: /\n' } : body(path);
      if (!b) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      answered.ok++;
      res.writeHead(200, { 'content-type': b.type }).end(b.text);
    };
    for (const path of ['/', '/robots.txt', '/site.css', '/site.js', '/sitemap.xml', ...Array.from({ length: PAGES - 1 }, (_, i) => `/p${i + 1}`)]) limited.route(path, limit);

    slow = await startStaticServer({}, { host: '127.0.0.6' });
    slow.route('/robots.txt', (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nCrawl-delay: 2\n'));
    for (let i = 0; i < 12; i++) {
      slow.route(i === 0 ? '/' : `/p${i}`, (req, res) => {
        if (req.method === 'GET') pageFetches.push(Date.now());
        const links = i === 0 ? Array.from({ length: 11 }, (_, k) => `<a href="/p${k + 1}">Page ${k + 1}</a>`).join(' ') : '';
        res.writeHead(200, { 'content-type': 'text/html' }).end(page(i, links).replace('<link rel="stylesheet" href="/site.css"><script src="/site.js"></script>', ''));
      });
    }
    env = await createTestEnv({ scanEngines: [axeEngine], discoveryOptions: { fetchTimeoutMs: 5000 } });
  });
  afterAll(async () => {
    await env?.close();
    await limited?.close();
    await slow?.close();
  });

  async function crawl(origin: string, maxPages: number) {
    const site = await (await env.request('/api/sites', { method: 'POST', json: { url: `${origin}/` } })).json();
    const res = await env.request(`/api/sites/${site.id}/crawl`, { method: 'POST', json: { maxPages } });
    expect(res.status).toBe(202);
    const { crawlId } = await res.json();
    const done = await pollUntil(async () => (await env.request(`/api/sites/${site.id}/crawls/${crawlId}`)).json(), (c: any) => ENDED.includes(c.status), { timeoutMs: 400_000, everyMs: 500 });
    return { siteId: site.id as string, crawl: done };
  }

  it('crawls a site that answers 429 with Retry-After and 503 now and then to the end: every page scanned, with its stylesheet, no broken link', async () => {
    const { siteId, crawl: c } = await crawl(limited.origin, 100);
    expect(answered.limited).toBeGreaterThan(0);
    if (c.failedPages) console.error(JSON.stringify(await env.db.selectFrom('crawl_pages').select(['error']).where('error', 'is not', null).execute()));
    expect(c).toMatchObject({ status: 'completed', totalPages: PAGES, scannedPages: PAGES, failedPages: 0, brokenLinks: 0 });
    expect(c.throttledMs).toBeGreaterThan(0);
    // Every page was audited with the stylesheet the server may first have refused: its faint text is reported on each.
    const issues = (await (await env.request(`/api/sites/${siteId}/issues?ruleId=color-contrast&limit=100`)).json()).data as any[];
    expect(new Set(issues.map((i) => new URL(i.pageUrl).pathname)).size).toBe(PAGES);
  }, 420_000);

  it("spaces page fetches by robots.txt's Crawl-delay, discovery's and the browser's alike", async () => {
    const { crawl: c } = await crawl(slow.origin, 12);
    expect(c).toMatchObject({ status: 'completed', totalPages: 12, scannedPages: 12 });
    // Each page is fetched by discovery and loaded by the browser: 24 fetches, 2 s apart at least.
    expect(pageFetches.length).toBeGreaterThanOrEqual(24);
    const gaps = pageFetches.slice(1).map((t, i) => t - pageFetches[i]!);
    // Counted from the answer to the fetch before, the site sees no two closer than it asked.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(2000);
    expect(c.throttledMs).toBeGreaterThan(0);
  }, 420_000);
});
