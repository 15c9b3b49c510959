import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SELECTOR_LENGTH, MAX_TITLE_LENGTH } from '../../src/shared/limits.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';

const ENDED = ['completed', 'completed_partial', 'cancelled', 'failed'];
const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
const LONG_PATH = `/${'a'.repeat(3000)}`;
const LONG_ID = `x${'b'.repeat(3000)}`;
const LONG_TITLE = `Long ${'title '.repeat(600)}`;

const doc = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>Page</h1>${body}</main></body></html>`;

/**
 * What a site decides the length of: a same-site link and a sitemap entry of 3,000 characters
 * (PostgreSQL's btree refuses index entries over 2,704 bytes), an element with a 3,000-character
 * id (its selector is indexed), a 3,000-character title.
 */
describe('lengths a scanned site decides', () => {
  let env: TestEnv;
  let site: StaticServer;
  let siteId: string;
  let crawl: any;

  beforeAll(async () => {
    site = await startStaticServer({
      '/': html(doc('Home', `<p><a href="${LONG_PATH}">a very long link</a> <a href="/long-id">an element with a long id</a> <a href="/long-title">a long title</a></p>`)),
      '/long-id': html(doc('Long id', `<img src="${GIF}" id="${LONG_ID}" width="20" height="20"><img src="${GIF}" id="${LONG_ID}c" width="20" height="20">`)),
      '/long-title': html(doc(LONG_TITLE, '<p>Text.</p>')),
      [LONG_PATH]: html(doc('Never fetched', '<p>x</p>')),
      '/sitemap.xml': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.origin}/${'s'.repeat(3000)}</loc></url><url><loc>${site.origin}/long-id</loc></url></urlset>`);
      },
    });
    env = await createTestEnv({ discoveryOptions: { fetchTimeoutMs: 3000 } });
    siteId = (await (await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } })).json()).id;
    const started = await (await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST', json: {} })).json();
    crawl = await pollUntil(async () => (await env.request(`/api/sites/${siteId}/crawls/${started.crawlId}`)).json(), (c: any) => ENDED.includes(c.status), { timeoutMs: 120_000 });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  it('skips same-site URLs over 2,048 characters and counts them, and the crawl completes', async () => {
    expect(crawl).toMatchObject({ status: 'completed', totalPages: 3, scannedPages: 3, failedPages: 0, skippedUrls: 2 });
    expect(site.hits.some((h) => h.length > 2048)).toBe(false);
    const pages = (await (await env.request(`/api/sites/${siteId}/pages?limit=100`)).json()).data;
    expect(pages.map((p: any) => p.path).sort()).toEqual(['/', '/long-id', '/long-title']);
  });

  it('stores a long selector shortened with a stable hash, two long selectors as two issues', async () => {
    const issues = (await (await env.request(`/api/sites/${siteId}/issues?ruleId=image-alt&limit=100`)).json()).data;
    expect(issues).toHaveLength(2);
    for (const i of issues) {
      expect(i.elementSelector.length).toBeLessThanOrEqual(MAX_SELECTOR_LENGTH);
      expect(i.elementSelector).toMatch(/^#xbbbb.* … \[\d+ characters, sha256 [0-9a-f]{16}\]$/);
    }
    expect(new Set(issues.map((i: any) => i.elementSelector)).size).toBe(2);
  });

  it('caps the page title', async () => {
    const pages = (await (await env.request(`/api/sites/${siteId}/pages?limit=100`)).json()).data;
    const long = pages.find((p: any) => p.path === '/long-title');
    expect(long.title.length).toBe(MAX_TITLE_LENGTH);
    expect(long.title.startsWith('Long title title')).toBe(true);
    expect(long.title.endsWith('…')).toBe(true);
  });

  it('keeps the last 50 status changes and counts every one, dropping the oldest user changes first', async () => {
    const issue = (await (await env.request(`/api/sites/${siteId}/issues?ruleId=image-alt&limit=1`)).json()).data[0];
    const note = 'n'.repeat(2000);
    for (let i = 0; i < 60; i++) {
      const res = await env.request(`/api/sites/${siteId}/issues/${issue.id}`, { method: 'PATCH', json: { status: i % 2 === 0 ? 'dismissed' : 'open', note } });
      expect(res.status).toBe(200);
    }
    const detail = await (await env.request(`/api/sites/${siteId}/issues/${issue.id}`)).json();
    expect(detail.statusHistory).toHaveLength(50);
    expect(detail.statusHistoryTotal).toBe(61);
    // The crawl's own change (what its report's New list reads) is kept; the oldest user changes went.
    expect(detail.statusHistory[0]).toMatchObject({ changedBy: 'crawl', to: 'open', crawlId: crawl.id });
    expect(detail.statusHistory.slice(1).every((h: any) => h.changedBy === 'user')).toBe(true);
    expect(detail.statusHistory.at(-1)).toMatchObject({ from: 'dismissed', to: 'open', changedBy: 'user' });
  });
});

describe('retention: the newest crawls of a site keep their page results', () => {
  let env: TestEnv;
  let site: StaticServer;

  beforeAll(async () => {
    site = await startStaticServer({
      '/': html(doc('Home', `<p><a href="/two">Two</a></p><img src="${GIF}" id="logo" width="20" height="20">`)),
      '/two': html(doc('Two', '<p>Two.</p>')),
    });
    env = await createTestEnv({ env: { CRAWLS_KEPT_PER_SITE: '2' }, discoveryOptions: { fetchTimeoutMs: 3000 } });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  it("deletes older crawls' scans and findings at finalization, and leaves issues, scores and the trend alone", async () => {
    const siteId = (await (await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } })).json()).id;
    const crawls: any[] = [];
    for (let i = 0; i < 3; i++) {
      const started = await (await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST', json: {} })).json();
      crawls.push(await pollUntil(async () => (await env.request(`/api/sites/${siteId}/crawls/${started.crawlId}`)).json(), (c: any) => ENDED.includes(c.status), { timeoutMs: 120_000 }));
      if (i === 0) crawls.push(null);
    }
    const [first, , second, third] = crawls;
    const issuesAfterFirst = (await (await env.request(`/api/sites/${siteId}/issues?limit=100`)).json()).data;

    const now = await Promise.all([first, second, third].map(async (c) => (await env.request(`/api/sites/${siteId}/crawls/${c.id}`)).json()));
    expect(now[0].resultsDeletedAt).not.toBeNull();
    expect(now[0]).toMatchObject({ status: 'completed', overallScore: first.overallScore, scannedPages: 2, newIssues: first.newIssues });
    expect(now[1].resultsDeletedAt).toBeNull();
    expect(now[2].resultsDeletedAt).toBeNull();
    // Its rows are gone from the database; the kept crawls' are there.
    const scansOf = async (crawlId: string) =>
      Number((await env.db.selectFrom('page_scans').select((eb) => eb.fn.countAll<string>().as('n')).where('crawl_id', '=', crawlId).executeTakeFirstOrThrow()).n);
    expect(await scansOf(first.id)).toBe(0);
    expect(await scansOf(third.id)).toBe(2);
    expect(Number((await env.db.selectFrom('crawl_urls').select((eb) => eb.fn.countAll<string>().as('n')).where('crawl_id', '=', first.id).executeTakeFirstOrThrow()).n)).toBe(0);

    // The issues keep their identity: the same ids, first seen in the first crawl.
    const issues = (await (await env.request(`/api/sites/${siteId}/issues?limit=100`)).json()).data;
    expect(issues.map((i: any) => i.id).sort()).toEqual(issuesAfterFirst.map((i: any) => i.id).sort());
    const trend = (await (await env.request(`/api/sites/${siteId}/trend`)).json()).data;
    expect(trend).toHaveLength(3);
    const exported = await env.request(`/api/sites/${siteId}/crawls/${first.id}/export?format=excel`);
    expect(exported.status).toBe(409);
    expect((await exported.json()).detail).toContain('CRAWLS_KEPT_PER_SITE');
    expect((await env.request(`/api/sites/${siteId}/crawls/${third.id}/export?format=excel`)).status).toBe(200);
  });
});
