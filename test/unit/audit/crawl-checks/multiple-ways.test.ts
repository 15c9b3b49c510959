import { describe, expect, it } from 'vitest';
import { looksLikeSiteMap, multipleWaysFindings, singleWayPages, type PageWays } from '../../../../src/audit/crawl-checks/multiple-ways.ts';
import type { CrawlPageForChecks } from '../../../../src/shared/page-titles.ts';
import { flowPageUrl } from '../../../../src/shared/site-flows.ts';

const page = (url: string, over: Partial<PageWays> = {}): PageWays => ({ url, linkedFrom: ['/'], hasSearch: false, isSiteMap: false, isHome: false, isProcessStep: false, ...over });

describe('multiple ways (2.4.5) over a crawl', () => {
  const site = [page('/', { isHome: true, linkedFrom: [] }), page('/a'), page('/b', { linkedFrom: ['/', '/a'] }), page('/c', { linkedFrom: ['/a'] }), page('/d'), page('/thanks', { isProcessStep: true })];

  it('names pages one other page links to, when no page has a search form or a site map', () => {
    expect(singleWayPages(site).map((p) => p.url)).toEqual(['/a', '/c', '/d']);
  });

  it('passes a site with a search form or a site map anywhere, and a crawl too small to judge', () => {
    expect(singleWayPages([...site.slice(0, 5), page('/e', { hasSearch: true })])).toEqual([]);
    expect(singleWayPages([...site.slice(0, 5), page('/sitemap', { isSiteMap: true })])).toEqual([]);
    expect(singleWayPages(site.slice(0, 4))).toEqual([]);
  });

  it('tells a site map by the share of the crawl it links to', () => {
    const urls = ['/', '/a', '/b', '/c', '/d', '/e'];
    expect(looksLikeSiteMap(new Set(['/', '/a', '/b', '/c', '/d']), urls, '/e')).toBe(true);
    expect(looksLikeSiteMap(new Set(['/a', '/b']), urls, '/e')).toBe(false);
  });

  describe('findings from the crawl pages\' stored links', () => {
    const o = 'https://acme.test';
    const links: Record<string, string[]> = { '/': ['/a', '/b', '/c'], '/a': ['/', '/b'], '/b': ['/', '/a', '/c'], '/c': ['/', '/a', '/d', '/c'], '/d': ['/', '/a'] };
    const crawlPages = (over: Record<string, Partial<CrawlPageForChecks>> = {}): CrawlPageForChecks[] =>
      Object.entries(links).map(([path, to]) => ({ pageScanId: `scan${path}`, url: `${o}${path}`, title: path, ways: { search: false, links: to.map((t) => `${o}${t}`) }, ...over[path] }));
    const crawl = { viewports: null, homeUrl: `${o}/` };

    it('flags the page one other page links to (a self-link is no way), as needs review naming that page', () => {
      const found = multipleWaysFindings(crawlPages(), crawl);
      expect(found.map((f) => f.pageScanId)).toEqual(['scan/d']);
      expect(found[0]!.finding).toMatchObject({ ruleId: 'multiple-ways-single-path', type: 'needs_review', wcagCriterion: '2.4.5', elementSelector: 'html', viewport: null });
      expect(found[0]!.finding.data).toMatchObject({ engine: 'crawl', linkedFrom: `${o}/c`, pagesInCrawl: 5, searchFound: false, siteMapFound: false });
      expect((found[0]!.finding.data as any).review.reason).toMatch(/Only https:\/\/acme\.test\/c links/);
    });

    it('flags nothing when a page offers a search, when a page of the site has no links on record, or on a single page', () => {
      expect(multipleWaysFindings(crawlPages({ '/b': { ways: { search: true, links: [] } } }), crawl)).toEqual([]);
      expect(multipleWaysFindings(crawlPages({ '/b': { ways: null } }), crawl)).toEqual([]);
      expect(multipleWaysFindings(crawlPages().slice(4), crawl)).toEqual([]);
    });

    it('leaves the home page and a flow\'s end state alone', () => {
      // Only /d links to the home page; a flow's end state has no links of its own and no page links to it.
      const to = (...paths: string[]) => ({ search: false, links: paths.map((p) => `${o}${p}`) });
      const pages = crawlPages({ '/a': { ways: to('/b') }, '/b': { ways: to('/a', '/c') }, '/c': { ways: to('/a', '/d') }, '/d': { ways: to('/') } });
      const withFlow = [...pages, { pageScanId: 'flow', url: flowPageUrl({ name: 'checkout', steps: [] }, `${o}/`), title: null, ways: null }];
      expect(multipleWaysFindings(withFlow, crawl).map((f) => f.pageScanId)).toEqual(['scan/d']);
    });
  });
});
