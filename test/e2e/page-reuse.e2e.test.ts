import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeEngine } from '../../src/audit/engines/axe/axe.engine.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';

// Re-crawls at the cost of what changed: a page whose document and every resource it loaded answer
// the same bytes reuses its last audit without a browser loading it; a page whose document or
// stylesheet changed is audited afresh, and what changed is found.

const ENDED = ['completed', 'completed_partial', 'cancelled', 'failed'];
// A 1x1 transparent PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const LAST_MODIFIED = 'Tue, 01 Sep 2026 10:00:00 GMT';

const page = (title: string, body: string, css = '/site.css') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="${css}"></head>` +
  `<body><main><h1>${title}</h1>${body}<p><a href="/">Home</a> <a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a> <a href="/d">D</a></p></main></body></html>`;

describe('page reuse: re-crawls at the cost of what changed', () => {
  let env: TestEnv;
  let site: StaticServer;
  let siteId: string;
  /** The site as it is now: path -> type and bytes. */
  const files = new Map<string, { type: string; body: string | Buffer }>();
  /** Every request the server answered: who asked (the browser or a plain GET) and whether it was conditional. */
  const requests: { path: string; browser: boolean; conditional: boolean }[] = [];

  function setSite(v: { bAlt: boolean; cImage: boolean; dFaint: boolean }) {
    files.set('/', { type: 'text/html', body: page('Home', '<p>Welcome.</p>') });
    files.set('/a', { type: 'text/html', body: page('A', '<p>Nothing to see.</p>') });
    files.set('/b', { type: 'text/html', body: page('B', `<img src="/logo.png"${v.bAlt ? ' alt="Logo"' : ''}>`) });
    files.set('/c', { type: 'text/html', body: page('C', v.cImage ? '<img src="/logo.png">' : '<p>No picture.</p>') });
    files.set('/d', { type: 'text/html', body: page('D', '<p class="faint">Some text.</p>', '/d.css') });
    files.set('/d.css', { type: 'text/css', body: v.dFaint ? '.faint { color: #c8c8c8; background: #fff; }' : '.faint { color: #222; background: #fff; }' });
    files.set('/site.css', { type: 'text/css', body: 'body { font-family: sans-serif; }' });
    files.set('/logo.png', { type: 'image/png', body: PNG });
  }

  /**
   * HTML answers with a strong ETag (304 to If-None-Match), the picture with Last-Modified (304 to
   * If-Modified-Since), the stylesheets with neither (revalidated by their bytes); site.css may be
   * cached by the browser for an hour, so later pages take it from the browser's cache.
   */
  function serve(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const conditional = req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;
    requests.push({ path, browser: /Chrome/.test(req.headers['user-agent'] ?? ''), conditional });
    const f = files.get(path);
    if (!f) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    const headers: Record<string, string> = { 'content-type': f.type };
    if (f.type === 'text/html') {
      const etag = `"${createHash('sha1').update(f.body).digest('hex')}"`;
      headers.etag = etag;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
    }
    if (f.type === 'image/png') {
      headers['last-modified'] = LAST_MODIFIED;
      if (req.headers['if-modified-since'] === LAST_MODIFIED) return void res.writeHead(304, { 'last-modified': LAST_MODIFIED }).end();
    }
    if (path === '/site.css') headers['cache-control'] = 'max-age=3600';
    res.writeHead(200, headers).end(f.body);
  }

  beforeAll(async () => {
    setSite({ bAlt: false, cImage: false, dFaint: false });
    site = await startStaticServer({}, { host: '127.0.0.7' });
    for (const path of ['/', '/a', '/b', '/c', '/d', '/d.css', '/site.css', '/logo.png', '/robots.txt', '/sitemap.xml']) site.route(path, serve);
    env = await createTestEnv({ scanEngines: [axeEngine] });
    siteId = (await (await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } })).json()).id;
  }, 120_000);
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  async function crawl(body: Record<string, unknown> = {}) {
    requests.length = 0;
    const res = await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST', json: { maxPages: 20, ...body } });
    expect(res.status).toBe(202);
    const { crawlId } = await res.json();
    const done = await pollUntil(async () => (await env.request(`/api/sites/${siteId}/crawls/${crawlId}`)).json(), (c: any) => ENDED.includes(c.status), { timeoutMs: 240_000, everyMs: 300 });
    return done;
  }

  /** Each page's scan in a crawl, by path: its id, and the scan it was reused from. */
  async function scans(crawlId: string) {
    const rows = await env.db
      .selectFrom('page_scans')
      .select(['id', 'url', 'reused_from_scan_id', 'resources', 'status'])
      .where('crawl_id', '=', crawlId)
      .execute();
    return new Map(rows.map((r) => [new URL(r.url).pathname, r]));
  }

  async function openIssues() {
    const list = (await (await env.request(`/api/sites/${siteId}/issues?status=open&limit=100`)).json()).data as any[];
    return list.map((i) => ({ id: i.id as string, path: new URL(i.pageUrl).pathname, criterion: i.wcagCriterion as string })).sort((x, y) => x.id.localeCompare(y.id));
  }

  const browserLoads = () => requests.filter((r) => r.browser).map((r) => r.path);

  let first: any;
  let firstScans: Awaited<ReturnType<typeof scans>>;
  let firstIssues: Awaited<ReturnType<typeof openIssues>>;

  it('records what each page loaded on the first crawl, the browser\'s cache included', async () => {
    first = await crawl();
    expect(first).toMatchObject({ status: 'completed', totalPages: 5, scannedPages: 5, pagesReused: 0, reuse: true });
    firstScans = await scans(first.id);
    expect([...firstScans.keys()].sort()).toEqual(['/', '/a', '/b', '/c', '/d']);
    for (const [path, s] of firstScans) {
      const manifest = s.resources as any;
      expect(manifest?.usable, `${path}: ${manifest?.reason}`).toBe(true);
      const urls = (manifest.entries as { url: string }[]).map((e) => new URL(e.url).pathname);
      expect(urls[0]).toBe(path);
      // Every page needs its stylesheet, whether the browser fetched it or took it from its cache.
      expect(urls).toContain(path === '/d' ? '/d.css' : '/site.css');
      if (path === '/b') expect(urls).toContain('/logo.png');
    }
    firstIssues = await openIssues();
    expect(firstIssues.filter((i) => i.criterion === '1.1.1').map((i) => i.path)).toEqual(['/b']);
  }, 300_000);

  it('reuses every page of an unchanged site: no browser loads, only revalidation GETs, 0 new, 0 fixed, the same issue ids', async () => {
    const second = await crawl();
    expect(second).toMatchObject({ status: 'completed', totalPages: 5, scannedPages: 5, pagesReused: 5, newIssues: 0, fixedIssues: 0 });
    expect(browserLoads()).toEqual([]);
    // The documents and the picture answered 304 to conditional GETs; the stylesheets, without validators, were fetched and hashed.
    const rechecks = requests.filter((r) => !r.browser && r.conditional).map((r) => r.path);
    expect(new Set(rechecks)).toEqual(new Set(['/', '/a', '/b', '/c', '/d', '/logo.png']));
    const now = await scans(second.id);
    for (const [path, s] of now) {
      expect(s.status, path).toBe('completed');
      expect(s.reused_from_scan_id, path).toBe(firstScans.get(path)!.id);
    }
    expect(await openIssues()).toEqual(firstIssues);
    // The page's API says so too.
    const pageId = (await env.db.selectFrom('pages').select('id').where('site_id', '=', siteId).where('url', 'like', '%/b').executeTakeFirstOrThrow()).id;
    const detail = await (await env.request(`/api/sites/${siteId}/pages/${pageId}`)).json();
    expect(detail.scans[0]).toMatchObject({ crawlId: second.id, reusedFrom: firstScans.get('/b')!.id, status: 'completed' });
  }, 300_000);

  it('audits afresh exactly the pages whose bytes changed (a document, a stylesheet) and finds what changed', async () => {
    // B's barrier removed, C's planted, D's stylesheet makes its text faint.
    setSite({ bAlt: true, cImage: true, dFaint: true });
    const third = await crawl();
    expect(third).toMatchObject({ status: 'completed', totalPages: 5, scannedPages: 5, pagesReused: 2 });
    const now = await scans(third.id);
    expect(new Set([...now].filter(([, s]) => s.reused_from_scan_id === null).map(([p]) => p))).toEqual(new Set(['/b', '/c', '/d']));
    expect(new Set(browserLoads().filter((p) => !p.includes('.')))).toEqual(new Set(['/b', '/c', '/d']));
    const issues = await openIssues();
    expect(issues.filter((i) => i.criterion === '1.1.1').map((i) => i.path)).toEqual(['/c']);
    expect(issues.some((i) => i.path === '/d' && i.criterion === '1.4.3')).toBe(true);
    expect(third.fixedIssues).toBe(1);
    expect(third.newIssues).toBe(2);
    // The pages that did not change keep their issues as they were.
    const kept = (list: typeof issues) => list.filter((i) => i.path === '/' || i.path === '/a');
    expect(kept(issues)).toEqual(kept(firstIssues));
  }, 300_000);

  it('audits every page afresh with {"reuse": false}', async () => {
    const fourth = await crawl({ reuse: false });
    expect(fourth).toMatchObject({ status: 'completed', totalPages: 5, scannedPages: 5, pagesReused: 0, reuse: false, newIssues: 0, fixedIssues: 0 });
    const now = await scans(fourth.id);
    expect([...now.values()].every((s) => s.reused_from_scan_id === null)).toBe(true);
    expect(new Set(browserLoads().filter((p) => !p.includes('.')))).toEqual(new Set(['/', '/a', '/b', '/c', '/d']));
  }, 300_000);
});
