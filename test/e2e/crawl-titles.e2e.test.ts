import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${body}</h1><p>${body}. <a href="/">Home page</a>, <a href="/a">the first article</a>, <a href="/b">the second article</a>, <a href="/c">the third article</a>, <a href="/d">the contact page</a>.</p></main></body></html>`;

describe('checks that need the whole crawl: titles shared by many pages (2.4.2)', () => {
  let env: TestEnv;
  let site: StaticServer;

  beforeAll(async () => {
    site = await startStaticServer({
      '/': html(page('Acme', 'Welcome to Acme')),
      '/a': html(page('Acme', 'The first Acme article')),
      '/b': html(page(' ACME ', 'The second Acme article')),
      // No word of its title on the page: the page's own scan flags the title (title-unrelated),
      // and the crawl-level rule joins that finding instead of adding a second one.
      '/c': html(page('Acme', 'The third article')),
      '/d': html(page('Contact Acme', 'How to reach Acme')),
    });
    env = await createTestEnv({ discoveryOptions: { fetchTimeoutMs: 1500 } });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  it('reports every page whose title three or more pages share, as needs review, and only those', async () => {
    const created = await (await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } })).json();
    const started = await (await env.request(`/api/sites/${created.id}/crawl`, { method: 'POST' })).json();
    const crawl = await pollUntil(
      async () => (await env.request(`/api/sites/${created.id}/crawls/${started.crawlId}`)).json(),
      (c) => !['queued', 'running'].includes(c.status),
      { timeoutMs: 170_000 },
    );
    expect(crawl).toMatchObject({ status: 'completed', scannedPages: 5 });
    const res = await env.request(`/api/sites/${created.id}/issues?ruleId=page-title-shared&limit=100`);
    expect(res.status).toBe(200);
    const issues = (await res.json()).data as any[];
    expect(issues.map((i) => new URL(i.pageUrl).pathname).sort()).toEqual(['/', '/a', '/b']);
    for (const i of issues) {
      expect(i).toMatchObject({ type: 'needs_review', wcagCriterion: '2.4.2', wcagLevel: 'A', elementSelector: 'title' });
      expect(i.evidence).toMatchObject({ pagesWithTitle: 4, title: 'Acme', engine: 'crawl' });
      expect(i.fixSuggestion).toMatch(/title/i);
    }
    const unrelated = (await (await env.request(`/api/sites/${created.id}/issues?ruleId=title-unrelated&limit=100`)).json()).data as any[];
    expect(unrelated.map((i) => new URL(i.pageUrl).pathname)).toEqual(['/c']);
    expect(unrelated[0]).toMatchObject({ elementSelector: 'title', wcagCriterion: '2.4.2', alsoFlaggedBy: ['page-title-shared'] });
    expect(unrelated[0].evidence).toMatchObject({ pagesWithTitle: 4, title: 'Acme' });
  }, 180_000);
});
