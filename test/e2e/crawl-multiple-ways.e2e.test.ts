import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';

const LINKS: Record<string, string[]> = {
  '/': ['/a', '/b', '/c', '/d'],
  '/a': ['/', '/b', '/c', '/d'],
  '/b': ['/', '/a', '/c', '/d'],
  // The only page linking to /e; no page links to every other one (none is a site map).
  '/c': ['/', '/a', '/e'],
  '/d': ['/', '/a', '/b'],
  '/e': ['/', '/a'],
};
const NAMES: Record<string, string> = { '/': 'Home', '/a': 'About', '/b': 'Products', '/c': 'News', '/d': 'Contact', '/e': 'Archive' };

/** A small site of six pages; with `search`, each page has a search form (a plain field named q). */
function site(search: boolean): Record<string, ReturnType<typeof html>> {
  const pages: Record<string, ReturnType<typeof html>> = {};
  for (const [path, to] of Object.entries(LINKS)) {
    const nav = to.map((t) => `<li><a href="${t}">${NAMES[t]}</a></li>`).join('');
    const form = search ? '<form action="/find"><label>Search the site <input name="q"></label> <button>Search</button></form>' : '';
    pages[path] = html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${NAMES[path]} | Acme</title></head><body><header>${form}<nav><ul>${nav}</ul></nav></header><main><h1>${NAMES[path]}</h1><p>The ${NAMES[path]} page of Acme.</p></main></body></html>`,
    );
  }
  return pages;
}

describe('checks that need the whole crawl: multiple ways (2.4.5)', () => {
  let env: TestEnv;
  let plain: StaticServer;
  let searchable: StaticServer;

  beforeAll(async () => {
    plain = await startStaticServer(site(false));
    searchable = await startStaticServer(site(true));
    env = await createTestEnv({ discoveryOptions: { fetchTimeoutMs: 1500 } });
  });
  afterAll(async () => {
    await env?.close();
    await plain?.close();
    await searchable?.close();
  });

  async function crawlIssues(origin: string) {
    const created = await (await env.request('/api/sites', { method: 'POST', json: { url: `${origin}/` } })).json();
    const started = await (await env.request(`/api/sites/${created.id}/crawl`, { method: 'POST' })).json();
    const crawl = await pollUntil(
      async () => (await env.request(`/api/sites/${created.id}/crawls/${started.crawlId}`)).json(),
      (c) => !['queued', 'running'].includes(c.status),
      { timeoutMs: 170_000 },
    );
    expect(crawl).toMatchObject({ status: 'completed', scannedPages: 6 });
    const res = await env.request(`/api/sites/${created.id}/issues?ruleId=multiple-ways-single-path&limit=100`);
    expect(res.status).toBe(200);
    return (await res.json()).data as any[];
  }

  it('flags the page only one other page links to when the site has no search, as needs review', async () => {
    const issues = await crawlIssues(plain.origin);
    expect(issues.map((i) => new URL(i.pageUrl).pathname)).toEqual(['/e']);
    expect(issues[0]).toMatchObject({ type: 'needs_review', wcagCriterion: '2.4.5', wcagLevel: 'AA', elementSelector: 'html' });
    expect(issues[0].evidence).toMatchObject({ engine: 'crawl', linkedFrom: `${plain.origin}/c`, pagesInCrawl: 6, searchFound: false, siteMapFound: false });
    expect(issues[0].fixSuggestion).toMatch(/search|site map/i);
  }, 180_000);

  it('flags nothing when every page has a search form', async () => {
    // Another host name than the first site's (a site is one host).
    expect(await crawlIssues(`http://localhost:${new URL(searchable.origin).port}`)).toEqual([]);
  }, 180_000);
});
