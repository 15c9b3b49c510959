/**
 * WCAG 2.4.5 Multiple Ways, decided over a crawl: a page that can be reached in only one way. Pure
 * decision over facts of the crawl's pages; nothing here reads the database or a page. Each crawl
 * page's scan keeps its same-site links and whether it offers a search (`page_scans.ways`, from the
 * rendered view, collect-links.ts); finalization hands them here (multipleWaysFindings).
 */
import type { CrawlPageForChecks } from '../../shared/page-titles.ts';
import type { NewFindingRecord } from '../../shared/findings.ts';
import type { ViewportName } from '../../shared/contracts.ts';
import { flowNameOf } from '../../shared/site-flows.ts';
import { isDesktopOnly } from '../../shared/viewports.ts';
import { normalizeRenderedUrl } from '../../shared/urls.ts';
import { fingerprint } from '../findings/findings.ts';
import { ownFinding, understandingUrl } from '../engines/engine.ts';
import { groupKey } from '../findings/group-key.ts';
import { CRAWL_CHECK_GUIDES, MULTIPLE_WAYS_RULE } from '../../shared/rules/crawl-checks.ts';

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
export function singleWayPages<T extends PageWays>(pages: readonly T[]): T[] {
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

/**
 * WCAG 2.4.5 across the crawl: a `needs_review` finding on each page that only one other page of
 * the crawl links to, on a crawl where no page offers a search and none is a site map (see
 * singleWayPages). The crawl may not see every way to a page (a link the crawl did not follow, a
 * search box the check does not recognise), so a person decides. Nothing when a page of the site
 * (a flow's end state aside) has no links on record: its links may be the second way.
 */
export function multipleWaysFindings(
  pages: readonly CrawlPageForChecks[],
  crawl: { viewports: readonly ViewportName[] | null; homeUrl?: string | null },
): Array<{ pageScanId: string; finding: NewFindingRecord }> {
  const norm = (u: string) => normalizeRenderedUrl(u) ?? u;
  const isFlow = (p: CrawlPageForChecks) => flowNameOf(p.url) !== undefined;
  const site = pages.filter((p) => !isFlow(p));
  if (site.length < MIN_PAGES_FOR_MULTIPLE_WAYS || site.some((p) => !p.ways)) return [];
  const home = crawl.homeUrl ? norm(crawl.homeUrl) : undefined;
  const siteUrls = site.map((p) => norm(p.url));
  const known = new Set(siteUrls);
  const linkedFrom = new Map<string, Set<string>>();
  for (const p of site) {
    const from = norm(p.url);
    for (const to of p.ways!.links) {
      if (to === from || !known.has(to)) continue;
      const set = linkedFrom.get(to) ?? new Set<string>();
      set.add(from);
      linkedFrom.set(to, set);
    }
  }
  const facts: Array<PageWays & { page: CrawlPageForChecks }> = pages.map((p) => {
    const url = norm(p.url);
    const flow = isFlow(p);
    return {
      page: p,
      url,
      linkedFrom: flow ? [] : [...(linkedFrom.get(url) ?? [])],
      hasSearch: p.ways?.search === true,
      isSiteMap: !flow && p.ways !== null && p.ways !== undefined && looksLikeSiteMap(new Set(p.ways.links), siteUrls, url),
      isHome: url === home,
      isProcessStep: flow,
    };
  });
  const viewport = isDesktopOnly(crawl.viewports) ? null : crawl.viewports![0]!;
  const found = singleWayPages(facts);
  return found.map(({ page, linkedFrom: [from] }) => {
    const reason = `Only ${from} links to this page among the ${site.length} pages of the crawl, and no page of the crawl offers a search or a site map`;
    const draft = ownFinding({
      ruleId: MULTIPLE_WAYS_RULE,
      type: 'needs_review',
      severity: 'moderate',
      criterion: '2.4.5',
      selector: 'html',
      html: '<html>',
      help: 'A page should be reachable in more than one way',
      description: 'Checks that a page of a site can be found in more than one way (links from several pages, a search, a site map)',
      failureSummary: reason,
      helpUrl: understandingUrl('multiple-ways'),
      data: { engine: 'crawl', linkedFrom: from, pagesInCrawl: site.length, searchFound: false, siteMapFound: false, review: { reason } },
    });
    return {
      pageScanId: page.pageScanId,
      finding: {
        ...draft,
        state: null,
        viewport,
        description: `${draft.engineHelp}. ${draft.failureSummary}.`,
        fixSuggestion: CRAWL_CHECK_GUIDES[MULTIPLE_WAYS_RULE]!.fix,
        fingerprint: fingerprint(page.url, draft.ruleId, draft.elementSelector, { viewport }),
        groupKey: groupKey(draft.ruleId, draft.elementSelector, draft.elementHtml),
      },
    };
  });
}
