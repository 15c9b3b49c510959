import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RENDERED_LINKS } from '../../../src/audit/links/rendered-view.ts';
import { createBrowserProvider, resolveChromiumPath, type BrowserProvider } from '../../../src/audit/session/browser-provider.ts';
import { scanUrl, type ScanUrlResult } from '../../../src/audit/scan-url.ts';
import { createTargetPolicy } from '../../../src/security/target-policy.ts';
import { html, startStaticServer, type StaticServer } from '../../support/static-server.ts';

const doc = (title: string, body: string) => html(`<!doctype html><html lang="en"><head><title>${title}</title></head><body>${body}</body></html>`);

/**
 * The links a crawl page's scan reads in the rendered page (rendered discovery): what a person can
 * follow, wherever the page's scripts put it, and nothing the page can use to fool or stall the
 * scanner. The engines are left out: only the collector is under test.
 */
describe('links read from the rendered page', () => {
  let site: StaticServer;
  let browser: BrowserProvider;
  beforeAll(async () => {
    site = await startStaticServer({
      '/app': doc(
        'App',
        `<base href="/base/"><div id="app"></div><div id="host"></div><iframe src="/frame" title="frame"></iframe>
         <script>
           document.getElementById('app').innerHTML = '<nav><a href="/products">P</a> <a href="#/cart">C</a> <a href="#top">Top</a> <a href="rel">R</a>' +
             '<a href="/no" rel="nofollow">N</a><map name="m"><area href="/area" alt="A"></map> <a href="mailto:a@b.c">M</a></nav>';
           document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<a href="/in-shadow">S</a>';
           // The page replaces what a collector in its own world would call.
           Array.prototype.push = function () { throw new Error('no'); };
           Set.prototype.add = function () { return this; };
           window.URL = function () { throw new Error('no'); };
           Document.prototype.querySelectorAll = function () { return []; };
         </script>`,
      ),
      '/frame': doc('Frame', '<a href="framed">F</a>'),
      '/many': doc('Many', `<script>let s = ''; for (let i = 0; i < 5000; i++) s += '<a href="/p' + i + '">' + i + '</a> '; document.body.innerHTML = s + '<a href="/' + 'x'.repeat(3000) + '">long</a>';</script>`),
      '/gone': doc('Not found - Shop', '<main><h1>Page not found</h1><p>Sorry.</p></main>'),
      // Ways to find a page (WCAG 2.4.5): a search, in its usual forms, and forms that are none.
      '/search-field': doc('S', '<form action="/find"><label>Search the site <input name="q"></label> <button>Go</button></form>'),
      '/search-role': doc('S', '<div role="search"><label>Find <input type="text" id="f"></label></div>'),
      '/search-type': doc('S', '<label>Find <input type="search"></label>'),
      '/search-element': doc('S', '<search><label>Find <input></label></search>'),
      '/no-search': doc('S', '<form action="/subscribe"><label>Email <input name="email"></label><label>Name <input name="s2"></label></form><input name="q">'),
    });
    browser = createBrowserProvider({ executablePath: resolveChromiumPath() });
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  const scan = async (path: string): Promise<Extract<ScanUrlResult, { kind: 'scanned' }>> => {
    const r = await scanUrl(`${site.origin}${path}`, { browser: await browser.get(), policy: createTargetPolicy({ allowPrivate: true }), pageLoadTimeoutMs: 10_000, engines: [], collectLinks: true });
    expect(r.kind).toBe('scanned');
    return r as Extract<ScanUrlResult, { kind: 'scanned' }>;
  };

  it('reads script-built links, open shadow roots and same-origin frames, each against its own base, in a world the page cannot tamper with', async () => {
    const r = await scan('/app');
    const o = site.origin;
    expect(new Set(r.links)).toEqual(
      // `<base href="/base/">` applies to fragments too, as it does when a person clicks them.
      new Set([`${o}/products`, `${o}/base/#/cart`, `${o}/base/#top`, `${o}/base/rel`, `${o}/area`, `${o}/in-shadow`, `${o}/framed`]),
    );
    expect(r.view).toMatchObject({ title: 'App', heading: '' });
  }, 60_000);

  it('keeps at most the cap of links, and none too long to be a page', async () => {
    const r = await scan('/many');
    expect(r.links).toHaveLength(MAX_RENDERED_LINKS);
    expect((r.links ?? []).every((l) => l.length <= 2048)).toBe(true);
  }, 60_000);

  it('reads what a "not found" view shows', async () => {
    const r = await scan('/gone');
    expect(r.view).toMatchObject({ title: 'Not found - Shop', heading: 'Page not found', words: 4 });
  }, 60_000);

  it('tells whether the page offers a search: a search landmark, a search field, or a form field named q/query/search/s', async () => {
    for (const path of ['/search-field', '/search-role', '/search-type', '/search-element']) expect((await scan(path)).view, path).toMatchObject({ search: true });
    // A form of other fields, and a field named q outside any form, are no search.
    expect((await scan('/no-search')).view).toMatchObject({ search: false });
  }, 60_000);

  it('reads nothing unless asked (single-page scans)', async () => {
    const r = await scanUrl(`${site.origin}/app`, { browser: await browser.get(), policy: createTargetPolicy({ allowPrivate: true }), pageLoadTimeoutMs: 10_000, engines: [] });
    expect(r).not.toHaveProperty('links');
    expect(r).not.toHaveProperty('view');
  }, 60_000);
});
