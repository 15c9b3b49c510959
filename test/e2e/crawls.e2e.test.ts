import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../temporal-dev/dev-server.ts';
import { FIXTURE_PAGES, startCrawlFixture } from '../helpers/crawl-fixture.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';
import { html, startStaticServer } from '../support/static-server.ts';
import { pdfkitFile } from '../helpers/pdf-files.ts';
import { encodePng } from '../helpers/png.ts';

const ENDED = ['completed', 'completed_partial', 'cancelled', 'failed'];

describe('site crawls end to end', () => {
  let env: TestEnv;
  let site: Awaited<ReturnType<typeof startCrawlFixture>>;
  let siteId: string;

  beforeAll(async () => {
    site = await startCrawlFixture();
    env = await createTestEnv({ discoveryOptions: { fetchTimeoutMs: 1500, maxQueryVariants: 3 } });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  const get = async (path: string) => {
    const res = await env.request(path);
    expect(res.status, path).toBe(200);
    return res.json();
  };

  async function crawl(id: string, body?: unknown) {
    const res = await env.request(`/api/sites/${id}/crawl`, { method: 'POST', ...(body === undefined ? {} : { json: body }) });
    expect(res.status).toBe(202);
    const started = await res.json();
    expect(started).toEqual({ crawlId: expect.any(String), status: 'queued' });
    const seen: any[] = [];
    const done = await pollUntil(
      async () => {
        const c = await get(`/api/sites/${id}/crawls/${started.crawlId}`);
        seen.push(c);
        return c;
      },
      (c) => ENDED.includes(c.status),
      { timeoutMs: 120_000, everyMs: 100 },
    );
    return { crawl: done, seen };
  }

  const issueKey = (i: any) => `${new URL(i.pageUrl).pathname}${new URL(i.pageUrl).search} ${i.axeRuleId} ${i.elementSelector}`;
  async function allIssues(query = '') {
    const body = await get(`/api/sites/${siteId}/issues?limit=100${query}`);
    return body.data as any[];
  }

  it('adds a site by host name: 201 new, 200 existing, baseUrl kept', async () => {
    const res = await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ hostname: '127.0.0.1', name: '127.0.0.1', baseUrl: `${site.origin}/` });
    siteId = created.id;
    const again = await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin.toUpperCase().replace('HTTP', 'http')}/other/page#x` } });
    expect(again.status).toBe(200);
    expect((await again.json()).id).toBe(siteId);
    const detail = await get(`/api/sites/${siteId}`);
    expect(detail).toMatchObject({ id: siteId, latestCrawl: null, openIssues: 0 });
    expect((await get('/api/sites')).map((s: any) => s.id)).toContain(siteId);
  });

  it('crawls the site: the exact page set, counters, score and issues', async () => {
    const { crawl: c, seen } = await crawl(siteId);
    expect(c.status).toBe('completed_partial'); // the page that never answers failed
    expect(c).toMatchObject({ totalPages: FIXTURE_PAGES.length, scannedPages: FIXTURE_PAGES.length - 1, failedPages: 1, enrichedPages: FIXTURE_PAGES.length - 1, brokenLinks: 1 });
    expect(c.overallScore).toBeGreaterThan(0);
    expect(c.overallScore).toBeLessThan(100);
    expect(c.newIssues).toBe(3);
    expect(c.fixedIssues).toBe(0);
    expect(c.completedAt).not.toBeNull();
    // Counters only rise while it runs, and scanning overlaps discovery.
    for (const k of ['totalPages', 'scannedPages', 'enrichedPages']) {
      const xs = seen.map((s) => s[k]);
      expect(xs, k).toEqual([...xs].sort((a, b) => a - b));
    }
    for (const s of seen) if (s.status === 'running' || s.status === 'queued') expect(s.overallScore).toBeNull();

    const pages = await get(`/api/sites/${siteId}/pages`);
    expect(pages.pagination).toMatchObject({ total: FIXTURE_PAGES.length, limit: 50 });
    expect(pages.data.map((p: any) => p.path)).toEqual([...FIXTURE_PAGES].sort((a, b) => `${site.origin}${a}`.localeCompare(`${site.origin}${b}`)));
    const byPath = Object.fromEntries(pages.data.map((p: any) => [p.path, p]));
    expect(byPath['/hidden'].discoveredVia).toBe('sitemap');
    expect(byPath['/'].discoveredVia).toBe('root');
    expect(byPath['/slow'].latestScore).toBeNull();
    expect(byPath['/about'].issueCounts).toEqual({ critical: 1, serious: 0, moderate: 0, minor: 0, total: 1 });
    expect(byPath['/hidden'].latestScore).toBe(100);
    // The linked PDF is a document of the crawl, audited from the file (accessible: no issue).
    expect(byPath['/files/report.pdf']).toMatchObject({ kind: 'document', mediaType: 'application/pdf', title: 'Annual report', latestScore: 100 });
    expect(byPath['/about']).toMatchObject({ kind: 'page', mediaType: null });
    const documents = await get(`/api/sites/${siteId}/pages?kind=document`);
    expect(documents.data.map((p: any) => p.path)).toEqual(['/files/report.pdf']);
    expect(documents.pagination.total).toBe(1);
    expect((await get(`/api/sites/${siteId}/pages?kind=page`)).pagination.total).toBe(FIXTURE_PAGES.length - 1);
    expect((await env.request(`/api/sites/${siteId}/pages?kind=pdf`)).status).toBe(400);

    const issues = await allIssues();
    expect(issues.map(issueKey).sort()).toEqual(['/about image-alt #office', '/contact label #message', '/scripted image-alt #late'].sort());
    for (const i of issues) expect(i.status).toBe('open');

    const detail = await get(`/api/sites/${siteId}`);
    expect(detail.latestCrawl).toMatchObject({ id: c.id, status: 'completed_partial', overallScore: c.overallScore, newIssues: 3 });
    expect(detail.openIssues).toBe(3);

    const slow = await get(`/api/sites/${siteId}/pages/${byPath['/slow'].id}`);
    expect(slow.scans).toEqual([]);
    const about = await get(`/api/sites/${siteId}/pages/${byPath['/about'].id}`);
    expect(about.scans).toHaveLength(1);
    expect(about.scans[0]).toMatchObject({ crawlId: c.id, status: 'completed', issueCounts: { critical: 1, total: 1 } });
    expect(about.issues).toHaveLength(1);
  });

  it('filters and pages issues, and rejects bad filters', async () => {
    const critical = await get(`/api/sites/${siteId}/issues?severity=critical&wcagLevel=A&status=open`);
    expect(critical.pagination.total).toBe(3);
    const page2 = await get(`/api/sites/${siteId}/issues?limit=1&offset=1`);
    expect(page2.pagination).toEqual({ total: 3, limit: 1, offset: 1, count: 1 });
    expect(page2.links.next).toBe(`/api/sites/${siteId}/issues?limit=1&offset=2`);
    const all = await allIssues();
    expect(page2.data[0].id).toBe(all[1].id);
    const aboutId = all.find((i) => i.pageUrl.endsWith('/about')).pageId;
    expect((await get(`/api/sites/${siteId}/issues?pageId=${aboutId}`)).data).toHaveLength(1);
    expect((await get(`/api/sites/${siteId}/issues?severity=minor`)).data).toEqual([]);
    expect((await get(`/api/sites/${siteId}/issues?wcagLevel=AA`)).pagination.total).toBe(0);
    for (const q of ['severity=urgent', 'wcagLevel=AAA', 'status=closed', 'pageId=123', 'limit=0']) {
      const res = await env.request(`/api/sites/${siteId}/issues?${q}`);
      expect(res.status, q).toBe(400);
      expect((await res.json()).code).toBe('validation_error');
    }
  });

  it('dismisses an issue, refuses "fixed" from a client, and keeps the history', async () => {
    const scripted = (await allIssues()).find((i) => i.pageUrl.endsWith('/scripted'));
    const bad = await env.request(`/api/sites/${siteId}/issues/${scripted.id}`, { method: 'PATCH', json: { status: 'fixed' } });
    expect(bad.status).toBe(400);
    const res = await env.request(`/api/sites/${siteId}/issues/${scripted.id}`, { method: 'PATCH', json: { status: 'dismissed', note: 'decorative, hidden by design' } });
    expect(res.status).toBe(200);
    const issue = await res.json();
    expect(issue.status).toBe('dismissed');
    expect(issue.statusHistory).toEqual([
      { from: null, to: 'open', changedBy: 'crawl', crawlId: expect.any(String), note: null, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) },
      { from: 'open', to: 'dismissed', changedBy: 'user', crawlId: null, note: 'decorative, hidden by design', at: expect.any(String) },
    ]);
    expect((await env.request(`/api/sites/${siteId}/issues/6f1c1c9e-3a0b-4f43-9d7e-2f6a1b9c0d11`, { method: 'PATCH', json: { status: 'open' } })).status).toBe(404);
  });

  it('crawls again after a fix: new and fixed issues, dismissed untouched, history appended', async () => {
    site.setVersion(2);
    const { crawl: c } = await crawl(siteId);
    expect(c).toMatchObject({ newIssues: 1, fixedIssues: 1, totalPages: FIXTURE_PAGES.length });
    const issues = await allIssues();
    const by = Object.fromEntries(issues.map((i) => [issueKey(i), i]));
    expect(by['/about image-alt #office'].status).toBe('fixed');
    expect(by['/contact button-name #send'].status).toBe('open');
    expect(by['/contact label #message'].status).toBe('open');
    expect(by['/scripted image-alt #late'].status).toBe('dismissed');
    const fixed = await get(`/api/sites/${siteId}/issues/${by['/about image-alt #office'].id}`);
    expect(fixed.statusHistory.map((h: any) => [h.from, h.to, h.changedBy, h.crawlId])).toEqual([
      [null, 'open', 'crawl', expect.any(String)],
      ['open', 'fixed', 'crawl', c.id],
    ]);
    // The label issue is the same issue across crawls, not a new row.
    const label = await get(`/api/sites/${siteId}/issues/${by['/contact label #message'].id}`);
    expect(label.statusHistory).toHaveLength(1);
    expect(new Date(label.lastSeenAt).getTime()).toBeGreaterThan(new Date(label.firstSeenAt).getTime());
    const crawls = await get(`/api/sites/${siteId}/crawls`);
    expect(crawls.pagination).toMatchObject({ total: 2, limit: 10 });
    expect(crawls.data[0].id).toBe(c.id);
  });

  it('reopens a fixed issue that comes back and counts it as new', async () => {
    site.setVersion(3);
    const { crawl: c } = await crawl(siteId);
    expect(c).toMatchObject({ newIssues: 1, fixedIssues: 1 });
    const issues = await allIssues();
    const about = issues.find((i) => issueKey(i) === '/about image-alt #office');
    expect(about.status).toBe('open');
    const detail = await get(`/api/sites/${siteId}/issues/${about.id}`);
    expect(detail.statusHistory.map((h: any) => `${h.from}->${h.to}`)).toEqual(['null->open', 'open->fixed', 'fixed->open']);
    expect(issues.find((i) => issueKey(i) === '/contact button-name #send').status).toBe('fixed');
  });

  it('caps discovery at maxPages and validates it', async () => {
    for (const maxPages of [0, 1001, 2.5, 'ten']) {
      const res = await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST', json: { maxPages } });
      expect(res.status, String(maxPages)).toBe(400);
    }
    const { crawl: c } = await crawl(siteId, { maxPages: 2 });
    expect(c).toMatchObject({ maxPages: 2, totalPages: 2, scannedPages: 2, status: 'completed' });
  });

  it('ends failed, with the reason, when not one page can be reached', async () => {
    const closed = await freePort('127.0.0.6');
    const dead = await (await env.request('/api/sites', { method: 'POST', json: { url: `http://127.0.0.6:${closed}/` } })).json();
    const { crawl: c } = await crawl(dead.id);
    expect(c).toMatchObject({ status: 'failed', totalPages: 1, scannedPages: 0, failedPages: 1, error: { code: 'connection_refused' } });
    expect(c.overallScore).toBeNull();
  });

  it('audits the documents a site links to: PDFs as pages of kind document, with their issues, in the issue filters and the ACR', async () => {
    const scan = await pdfkitFile({}, (d) => d.image(encodePng(120, 160, 3, new Uint8Array(120 * 160 * 3).fill(200)), 0, 0, { width: 612 }));
    const minutes = await pdfkitFile({ info: { Title: 'Minutes' } }, (d) => d.text('Minutes of the meeting.'));
    const pdf = (bytes: Buffer, type = 'application/pdf') => (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': type, 'content-length': String(bytes.length) });
      res.end(bytes);
    };
    let downloads = 0;
    const docs = await startStaticServer(
      {
        '/': html(
          '<!doctype html><html lang="en"><title>Council</title><main><h1>Council</h1><form role="search" action="/search"><label>Search <input type="search" name="q"></label></form>' +
            '<a href="/files/scan.pdf">The signed letter</a> <a href="/download?id=7">The minutes</a> <a href="/files/cut.pdf">The budget</a> <a href="/files/logo.png">Logo</a></main></html>',
        ),
        '/files/scan.pdf': pdf(scan),
        // No .pdf in the address: the type decides. Its second request (the scan's, after discovery's)
        // is answered 429: the scan waits and fetches it again, never records it as broken.
        '/download': (req, res) => {
          if (++downloads === 2) {
            res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain' });
            res.end('slow down');
            return;
          }
          pdf(minutes)(req, res);
        },
        '/files/cut.pdf': pdf(minutes.subarray(0, 200)),
      },
      { host: '127.0.0.7' },
    );
    try {
      const docSite = await (await env.request('/api/sites', { method: 'POST', json: { url: `${docs.origin}/` } })).json();
      const { crawl: c } = await crawl(docSite.id);
      expect(c).toMatchObject({ status: 'completed_partial', totalPages: 4, scannedPages: 3, failedPages: 1, brokenLinks: 0 });
      expect(downloads).toBeGreaterThanOrEqual(3);
      expect(c.throttledMs).toBeGreaterThanOrEqual(900);
      const pages = (await get(`/api/sites/${docSite.id}/pages?kind=document`)).data;
      expect(pages.map((p: any) => [p.path, p.kind, p.mediaType]).sort()).toEqual([
        ['/download?id=7', 'document', 'application/pdf'],
        ['/files/cut.pdf', 'document', 'application/pdf'],
        ['/files/scan.pdf', 'document', 'application/pdf'],
      ]);
      const cut = pages.find((p: any) => p.path === '/files/cut.pdf');
      expect((await get(`/api/sites/${docSite.id}/pages/${cut.id}`)).scans).toEqual([expect.objectContaining({ status: 'failed', error: expect.objectContaining({ code: 'document_unreadable' }) })]);
      const issues = (await get(`/api/sites/${docSite.id}/issues?pageKind=document&limit=100`)).data;
      const key = (i: any) => `${new URL(i.pageUrl).pathname}${new URL(i.pageUrl).search} ${i.axeRuleId} ${i.elementSelector} ${i.type}`;
      expect(issues.map(key).sort()).toEqual(
        [
          '/download?id=7 pdf-untagged pdf:document confirmed',
          '/download?id=7 pdf-lang-missing pdf:document confirmed',
          '/download?id=7 pdf-title-not-displayed pdf:document needs_review',
          '/files/scan.pdf pdf-untagged pdf:document confirmed',
          '/files/scan.pdf pdf-title-missing pdf:document confirmed',
          '/files/scan.pdf pdf-lang-missing pdf:document confirmed',
          '/files/scan.pdf pdf-no-text-layer pdf:document confirmed',
        ].sort(),
      );
      // The HTML page's issues are apart.
      for (const i of (await get(`/api/sites/${docSite.id}/issues?pageKind=page&limit=100`)).data) expect(new URL(i.pageUrl).pathname).toBe('/');
      // The conformance report judges the documents as their own component.
      const acr = await env.request(`/api/sites/${docSite.id}/crawls/${c.id}/export?format=openacr`);
      expect(acr.status).toBe(200);
      const yaml = await acr.text();
      expect(yaml).toContain('name: electronic-docs');
      expect(yaml).toMatch(/of them 2 documents \(PDF\)/);
      // Crawled again with nothing changed: each document's audit is carried over after one GET, as the home page's is.
      const { crawl: again } = await crawl(docSite.id);
      expect(again).toMatchObject({ totalPages: 4, pagesReused: 3, newIssues: 0, fixedIssues: 0 });
      const scanPage = pages.find((p: any) => p.path === '/files/scan.pdf');
      const history = (await get(`/api/sites/${docSite.id}/pages/${scanPage.id}`)).scans;
      expect(history[0]).toMatchObject({ crawlId: again.id, status: 'completed', reusedFrom: history[1].id });
    } finally {
      await docs.close();
    }
  });

  it('answers 404 for unknown or foreign resources and 409 for a second crawl', async () => {
    const other = await (await env.request('/api/sites', { method: 'POST', json: { url: `http://localhost:${new URL(site.origin).port}/` } })).json();
    const crawls = await get(`/api/sites/${siteId}/crawls`);
    const foreignCrawl = crawls.data[0].id;
    expect((await env.request(`/api/sites/${other.id}/crawls/${foreignCrawl}`)).status).toBe(404);
    expect((await env.request('/api/sites/6f1c1c9e-3a0b-4f43-9d7e-2f6a1b9c0d11')).status).toBe(404);
    expect((await env.request('/api/sites/6f1c1c9e-3a0b-4f43-9d7e-2f6a1b9c0d11/crawl', { method: 'POST' })).status).toBe(404);
    const issue = (await allIssues())[0];
    expect((await env.request(`/api/sites/${other.id}/issues/${issue.id}`)).status).toBe(404);
    expect((await env.request(`/api/sites/${other.id}/pages/${issue.pageId}`)).status).toBe(404);

    const first = await env.request(`/api/sites/${other.id}/crawl`, { method: 'POST', json: { maxPages: 3 } });
    expect(first.status).toBe(202);
    const { crawlId } = await first.json();
    const second = await env.request(`/api/sites/${other.id}/crawl`, { method: 'POST' });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ code: 'crawl_in_progress', crawlId });
    await pollUntil(() => get(`/api/sites/${other.id}/crawls/${crawlId}`), (c) => ENDED.includes(c.status), { timeoutMs: 60_000 });
    const ended = await env.request(`/api/sites/${other.id}/crawls/${crawlId}/cancel`, { method: 'POST' });
    expect(ended.status).toBe(409);
    expect((await ended.json()).code).toBe('already_finished');
  });
});
