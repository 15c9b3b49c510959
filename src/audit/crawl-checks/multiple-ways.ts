/**
 * WCAG 2.4.5 Multiple Ways, decided over a crawl: a page that can be reached in only one way. Pure
 * decision over facts of the crawl's pages; nothing here reads the database or a page.
 *
 * Not wired yet: the crawl keeps no link graph (`crawl_urls` and `crawl_rendered_links` keep one
 * row per URL, not which pages link to it) and no per-page fact about search forms or site-map
 * pages, so finalization cannot give these facts today (see the issue-31 report).
 */

export interface PageWays {
  url: string;
  /** Distinct other crawl pages that link to it (served or rendered links). */
  linkedFrom: readonly string[];
  /** The page has a search form (role=search, a form with a search field, or `input[type=search]`). */
  hasSearch: boolean;
  /** The page is a site map or a table of contents of the site (links to most of the crawl's pages). */
  isSiteMap: boolean;
  /** The crawl's start page. */
  isHome: boolean;
  /** The page is the result of a process (a flow's end state, a form's answer). */
  isProcessStep: boolean;
}

/** Pages of a crawl below which the site is too small to judge (a three-page site needs no site map). */
export const MIN_PAGES_FOR_MULTIPLE_WAYS = 5;
/** At most this many pages get a finding per crawl. */
export const MAX_MULTIPLE_WAYS_FINDINGS = 20;

/**
 * The pages that can be reached in one way only: no page of the crawl offers a search form, no
 * page is a site map or table of contents, and exactly one other page links to this one. The home
 * page and the steps of a process are exempt (WCAG's own exception). Empty on a crawl too small
 * to judge; a single-page scan has no crawl and so nothing here.
 */
export function singleWayPages(pages: readonly PageWays[]): PageWays[] {
  if (pages.length < MIN_PAGES_FOR_MULTIPLE_WAYS) return [];
  if (pages.some((p) => p.hasSearch || p.isSiteMap)) return [];
  return pages
    .filter((p) => !p.isHome && !p.isProcessStep && new Set(p.linkedFrom.filter((u) => u !== p.url)).size === 1)
    .slice(0, MAX_MULTIPLE_WAYS_FINDINGS);
}

/** Whether a page's links make it a site map: it links to at least 80% of the crawl's other pages (and to 5 at least). */
export function looksLikeSiteMap(linksTo: ReadonlySet<string>, crawlUrls: readonly string[], self: string): boolean {
  const others = crawlUrls.filter((u) => u !== self);
  if (others.length < MIN_PAGES_FOR_MULTIPLE_WAYS - 1) return false;
  const reached = others.filter((u) => linksTo.has(u)).length;
  return reached >= 5 && reached / others.length >= 0.8;
}
