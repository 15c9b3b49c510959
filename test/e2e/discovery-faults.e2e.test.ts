import { gzipSync } from 'node:zlib';
import { ApplicationFailure } from '@temporalio/activity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlDiscoveryActivities } from '../../src/activities/crawl-discovery/index.ts';
import { findCrawl } from '../../src/db/repositories/crawl.repository.ts';
import { registerPage } from '../../src/db/repositories/crawl-page.repository.ts';
import { findSite } from '../../src/db/repositories/site.repository.ts';
import { createLogger } from '../../src/logger.ts';
import { createTargetPolicy } from '../../src/security/target-policy.ts';
import { html, startStaticServer, type StaticServer, type Handler } from '../support/static-server.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';

const ENDED = ['completed', 'completed_partial', 'cancelled', 'failed'];
const page = (title: string, links: string[] = []) =>
  html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>` +
      links.map((l) => `<p><a href="${l}">${title} link to ${l}</a></p>`).join('') +
      '</main></body></html>',
  );
const sitemap = (origin: string, paths: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`;
const raw =
  (type: string, body: Buffer | string): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  };

/** Sends the headers and part of the body, then drops the connection. */
const resetMidway: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.write('<!doctype html><html><head><title>Cut</title></head><body><a href="/never-seen">');
  setTimeout(() => res.socket?.destroy(), 50);
};
/** Sends the headers, then a byte now and then, for ever. */
const dripForever: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  const t = setInterval(() => res.write(' '), 300);
  res.on('close', () => clearInterval(t));
};
const redirect =
  (to: string, status = 301): Handler =>
  (_req, res) => {
    res.writeHead(status, { location: to });
    res.end();
  };

describe('discovery that survives the real web', () => {
  let env: TestEnv;
  let hostile: StaticServer;
  let shut: StaticServer;
  let moving: StaticServer;
  let failing: StaticServer;
  let broken: StaticServer;
  let mapped: StaticServer;
  /** Per request for mapped.test's sitemap: the crawl's pages registered by then. */
  const pagesWhenSitemapRead: string[][] = [];
  /** User agents of mapped.test's home page requests. */
  const homeAgents: string[] = [];
  let failDiscovery = false;
  const names: string[] = [];
  const origins = new Map<StaticServer, string>();
  /** The server's origin under a *.test host name. */
  function named(server: StaticServer, name: string): string {
    const origin = `http://${name}:${new URL(server.origin).port}`;
    names.push(`${name}:${new URL(server.origin).port}`);
    origins.set(server, origin);
    return origin;
  }

  beforeAll(async () => {
    // Each fixture under its own host name (sites are told apart by host name, not port); the
    // policy's resolver sends every *.test name to loopback.
    hostile = await startStaticServer();
    const o = named(hostile, 'hostile.test');
    // robots.txt over 500 KiB: its first rules count, the rest is ignored.
    const robots = `User-agent: *\nDisallow: /private\nSitemap: ${o}/bomb.xml.gz\nSitemap: ${o}/cut.xml.gz\nSitemap: ${o}/stall.xml\nSitemap: ${o}/good.xml\n${'# padding\n'.repeat(60_000)}Disallow: /a\n`;
    const goodGz = gzipSync(sitemap(o, ['/from-sitemap']));
    for (const [p, h] of Object.entries({
      '/robots.txt': raw('text/plain', robots),
      '/': page('Hostile home', ['/a', '/private', '/reset', '/drip']),
      '/a': page('Page A'),
      '/private': page('Private'),
      '/from-sitemap': page('From the sitemap'),
      '/reset': resetMidway,
      '/drip': dripForever,
      // 64 MiB of spaces in about 64 KiB of gzip.
      '/bomb.xml.gz': raw('application/gzip', gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20))),
      '/cut.xml.gz': raw('application/gzip', goodGz.subarray(0, goodGz.length - 10)),
      '/stall.xml': dripForever,
      '/good.xml': raw('application/xml', sitemap(o, ['/from-sitemap'])),
    })) hostile.route(p, h);

    shut = await startStaticServer();
    const so = named(shut, 'shut.test');
    shut.route('/robots.txt', raw('text/plain', `User-agent: *\nAllow: /open\nDisallow: /\nSitemap: ${so}/sitemap.xml\n`));
    shut.route('/sitemap.xml', raw('application/xml', sitemap(so, ['/open', '/closed'])));
    shut.route('/', page('Closed home', ['/open']));
    shut.route('/open', page('Open page'));
    shut.route('/closed', page('Closed page'));

    // Served under the names site.test and www.site.test (the policy's resolver maps them here).
    moving = await startStaticServer();
    const port = new URL(moving.origin).port;
    const www = `http://www.site.test:${port}`;
    const host = (req: { headers: { host?: string } }) => (req.headers.host ?? '').split(':')[0];
    moving.route('/', (req, res) => {
      if (host(req) === 'www.site.test') return page('Moved home', ['/about'])(req, res);
      if (host(req) === 'away.test') return redirect(`http://other.test:${port}/`, 302)(req, res);
      return redirect(`${www}/`)(req, res);
    });
    moving.route('/about', (req, res) => (host(req) === 'www.site.test' ? page('About')(req, res) : redirect(`${www}/about`)(req, res)));

    failing = await startStaticServer({
      '/': page('Fragile home'),
      // 2,500 images without alt text: more failing elements than a page keeps.
      '/many': html(`<!doctype html><html lang="en"><head><title>Many images</title></head><body><main><h1>Many</h1>${'<img src="/p.gif" width="1" height="1">'.repeat(2500)}</main></body></html>`),
    });
    named(failing, 'fragile.test');

    // Two pages and sixty broken links.
    broken = await startStaticServer({
      '/': page('Broken home', ['/real', ...Array.from({ length: 60 }, (_, i) => `/gone-${i}`)]),
      '/real': page('Real'),
    });
    named(broken, 'broken.test');

    // A site with a sitemap: the home page is a page of the crawl before the sitemap is read.
    mapped = await startStaticServer();
    const mo = named(mapped, 'mapped.test');
    mapped.route('/robots.txt', raw('text/plain', `User-agent: *\nAllow: /\nSitemap: ${mo}/sitemap.xml\n`));
    mapped.route('/sitemap.xml', async (req, res) => {
      const rows = await env.db.selectFrom('pages').select('url').where('url', 'like', `${mo}/%`).execute();
      pagesWhenSitemapRead.push(rows.map((r) => r.url));
      raw('application/xml', sitemap(mo, ['/only-in-sitemap']))(req, res);
    });
    mapped.route('/', (req, res) => {
      homeAgents.push(req.headers['user-agent'] ?? '');
      return page('Mapped home', ['/linked'])(req, res);
    });
    mapped.route('/linked', page('Linked'));
    mapped.route('/only-in-sitemap', page('Only in the sitemap'));

    const policy = createTargetPolicy({
      allowPrivate: false,
      allowHosts: [...names, ...['site.test', 'www.site.test', 'away.test', 'other.test'].map((h) => `${h}:${port}`)],
      resolver: async (h) => (h.endsWith('.test') ? ['127.0.0.1'] : []),
    });
    env = await createTestEnv({
      policy,
      discoveryOptions: { fetchTimeoutMs: 1500 },
      overrides: {
        discovery: {
          async discoverPages(input) {
            if (!failDiscovery) return createCrawlDiscoveryActivities({ db: env.db, policy, logger: createLogger('test', 'silent') }).discoverPages(input);
            // Finds the home page, then breaks for good.
            const crawl = (await findCrawl(env.db, input.crawlId))!;
            const site = (await findSite(env.db, crawl.siteId))!;
            await registerPage(env.db, { crawlId: crawl.id, siteId: site.id, url: site.baseUrl, path: '/', depth: 0, via: 'root', httpStatus: 200 });
            throw ApplicationFailure.nonRetryable('the frontier table is gone', 'DiscoveryBroken');
          },
        },
      },
    });
  });
  afterAll(async () => {
    await env?.close();
    for (const s of [hostile, shut, moving, failing, broken, mapped]) await s?.close();
  });

  async function crawlOf(url: string, body?: unknown) {
    const created = await env.request('/api/sites', { method: 'POST', json: { url } });
    expect(created.status, await created.clone().text()).toBe(201);
    const site = await created.json();
    const started = await (await env.request(`/api/sites/${site.id}/crawl`, { method: 'POST', ...(body ? { json: body } : {}) })).json();
    const crawl = await pollUntil(
      async () => (await env.request(`/api/sites/${site.id}/crawls/${started.crawlId}`)).json(),
      (c) => ENDED.includes(c.status),
      { timeoutMs: 150_000, everyMs: 200 },
    );
    const pages = (await (await env.request(`/api/sites/${site.id}/pages?limit=100`)).json()).data as any[];
    return { site, crawl, pages, paths: pages.map((p) => p.path).sort() };
  }

  it('skips bad sitemaps (a gzip bomb, a cut gzip, one that never ends), reads robots.txt to 500 KiB, and counts pages whose bodies break as failed', async () => {
    const { crawl, paths } = await crawlOf(`${origins.get(hostile)}/`);
    expect(paths).toEqual(['/', '/a', '/drip', '/from-sitemap', '/reset']);
    expect(crawl).toMatchObject({ status: 'completed_partial', totalPages: 5, scannedPages: 3, failedPages: 2, error: null });
    expect(hostile.hits).not.toContain('/private'); // disallowed in the first 500 KiB
    expect(hostile.hits).toContain('/a'); // disallowed only past 500 KiB
    expect(hostile.hits).not.toContain('/never-seen');
  }, 180_000);

  it('hands the start page to the scans before it reads the sitemaps, fetching it once', async () => {
    const mo = origins.get(mapped)!;
    const { crawl, paths } = await crawlOf(`${mo}/`);
    expect(crawl).toMatchObject({ status: 'completed', totalPages: 3, scannedPages: 3 });
    expect(paths).toEqual(['/', '/linked', '/only-in-sitemap']);
    expect(pagesWhenSitemapRead).toEqual([[`${mo}/`]]);
    // Discovery's one GET (its address resolved and its links read from the same answer), then the browser's.
    expect(homeAgents.filter((a) => a.includes('; discovery)'))).toHaveLength(1);
  }, 180_000);

  it('obeys robots.txt for the home page too, and crawls what it allows', async () => {
    const { crawl, paths } = await crawlOf(`${origins.get(shut)}/`);
    expect(paths).toEqual(['/open']);
    expect(crawl).toMatchObject({ status: 'completed', totalPages: 1, scannedPages: 1 });
    expect(shut.hits.filter((h) => h === '/' || h === '/closed')).toEqual([]);
  }, 180_000);

  it('follows the home page from host to www.host, records where the site lives and crawls it there', async () => {
    const port = new URL(moving.origin).port;
    const { site, crawl, pages } = await crawlOf(`http://site.test:${port}/`);
    expect(crawl).toMatchObject({ status: 'completed', totalPages: 2, scannedPages: 2 });
    expect(pages.map((p) => p.url).sort()).toEqual([`http://www.site.test:${port}/`, `http://www.site.test:${port}/about`]);
    const detail = await (await env.request(`/api/sites/${site.id}`)).json();
    expect(detail).toMatchObject({ hostname: 'site.test', baseUrl: `http://www.site.test:${port}/` });
  }, 180_000);

  it('fails the crawl, naming the target, when the home page redirects to another site', async () => {
    const port = new URL(moving.origin).port;
    const { crawl, pages } = await crawlOf(`http://away.test:${port}/`);
    expect(pages).toEqual([]);
    expect(crawl.status).toBe('failed');
    expect(crawl.error).toMatchObject({ code: 'off_site_redirect' });
    expect(crawl.error.message).toContain(`http://other.test:${port}/`);
  }, 180_000);

  it('stops discovery at its fetch budget (4 requests per page of maxPages), keeping what it found', async () => {
    const { crawl, paths } = await crawlOf(`${origins.get(broken)}/`, { maxPages: 5 });
    expect(paths).toEqual(['/', '/real']);
    expect(crawl).toMatchObject({ status: 'completed_partial', totalPages: 2, scannedPages: 2, failedPages: 0 });
    expect(crawl.error).toMatchObject({ code: 'fetch_budget_spent' });
    const fetched = broken.hits.filter((h) => h.startsWith('/gone-')).length;
    expect(fetched).toBeGreaterThan(0);
    expect(fetched).toBeLessThanOrEqual(5 * 4 + 10);
    expect(crawl.brokenLinks).toBe(fetched);
  }, 180_000);

  it('keeps at most 2,000 issues of a page and counts the rest per rule', async () => {
    const created = await env.request('/api/scans', { method: 'POST', json: { url: `${origins.get(failing)}/many` } });
    expect(created.status).toBe(202);
    const { id } = await created.json();
    const scan = await pollUntil(
      async () => (await env.request(`/api/scans/${id}`)).json(),
      (s) => !['queued', 'running'].includes(s.status),
      { timeoutMs: 150_000, everyMs: 250 },
    );
    expect(scan.status).toMatch(/^completed/);
    expect(scan.issues).toHaveLength(2000);
    expect(scan.issuesLeftOut.total).toBeGreaterThanOrEqual(500);
    expect(scan.issuesLeftOut.byRule['image-alt']).toBeGreaterThan(0);
    const rules = new Set(scan.issues.map((i: any) => i.axeRuleId));
    for (const r of Object.keys(scan.issuesLeftOut.byRule)) expect(rules.has(r), r).toBe(true);
  }, 180_000);

  it('ends completed_partial with the reason when discovery fails for good, after scanning what it found', async () => {
    failDiscovery = true;
    try {
      const { crawl, paths } = await crawlOf(`${origins.get(failing)}/`);
      expect(paths).toEqual(['/']);
      expect(crawl).toMatchObject({ status: 'completed_partial', totalPages: 1, scannedPages: 1, failedPages: 0 });
      expect(crawl.error).toMatchObject({ code: 'discovery_failed' });
      expect(crawl.error.message).toContain('the frontier table is gone');
    } finally {
      failDiscovery = false;
    }
  }, 180_000);
});
