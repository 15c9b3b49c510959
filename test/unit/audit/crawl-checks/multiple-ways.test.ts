import { describe, expect, it } from 'vitest';
import { looksLikeSiteMap, singleWayPages, type PageWays } from '../../../../src/audit/crawl-checks/multiple-ways.ts';

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
});
