import { dropRenderedPage, renderedLinkOrigin, type RenderedLinksFound } from '../../db/repositories/rendered-link.repository.ts';
import type { Database } from '../../db/database.ts';
import type { CrawlPageFacts } from '../../db/repositories/scan.repository.ts';
import { MAX_WAYS_CHARS, MAX_WAYS_LINKS } from '../../shared/page-titles.ts';
import type { Logger } from '../../logger.ts';
import type { PageError } from '../../shared/contracts.ts';
import { urlWithinLimit } from '../../shared/limits.ts';
import { isNotFoundView } from '../../audit/links/rendered-view.ts';
import type { ScanUrlResult } from '../../audit/scan-url.ts';
import { documentOf, looksLikeAsset, normalizeRenderedUrl, routeOf, sameSite } from '../../shared/urls.ts';

/** A crawl page's scan showed it is no page of its own: why, as the scan's page error. */
export type NotAPage = PageError;

/** What a crawl page hands to discovery and keeps, written with the page's end (recordCrawlPageScan). */
export interface RenderedHandOver {
  facts: Pick<CrawlPageFacts, 'ways' | 'rendered'>;
  links: RenderedLinksFound;
}

/**
 * Rendered discovery's part of a crawl page's scan. A page that discovery found through a
 * rendered link may turn out to be none: the app's own "not found" view (a broken link, as an
 * HTTP 404 is) or, for a fragment route, the same view as the page that linked to it (an app that
 * ignores the fragment). Such a page is taken back out of the crawl here and its error returned.
 * Any other page's rendered links are returned for discovery, at its depth + 1, with what the page
 * keeps (its links and whether it offers a search, for the Multiple Ways check; its links and
 * view, for a crawl that reuses its audit): the caller writes them in the transaction that records
 * the page as scanned, so its links are queued before discovery can see the page done.
 */
export async function renderedHandOver(
  deps: { db: Database; logger: Logger },
  v: { crawlId: string; pageId: string; url: string; result: ScanUrlResult },
): Promise<{ notAPage: NotAPage } | { handOver?: RenderedHandOver }> {
  const { result } = v;
  if (result.kind !== 'scanned' || !result.view) return {};
  const view = result.view;
  const origin = await renderedLinkOrigin(deps.db, v.crawlId, v.url);
  if (origin) {
    const notFound = isNotFoundView(view);
    const sameView = !notFound && routeOf(v.url) !== undefined && documentOf(origin.foundOn) === documentOf(v.url) && origin.foundOnHash === view.textHash;
    if (notFound || sameView) {
      await dropRenderedPage(deps.db, { crawlId: v.crawlId, pageId: v.pageId, url: v.url, brokenLink: notFound, outcome: notFound ? 'not_found_view' : 'same_view' });
      deps.logger.info({ crawlId: v.crawlId, url: v.url, reason: notFound ? 'not_found_view' : 'same_view', foundOn: origin.foundOn }, 'a rendered link led to no page of its own; taken out of the crawl');
      return {
        notAPage: notFound
          ? { code: 'http_error', message: `the app showed its "not found" view (${view.heading || view.title}): a broken link, not a page` }
          : { code: 'http_error', message: `the route shows the same view as ${origin.foundOn}, which links to it: not a page of its own` },
      };
    }
  }
  const own = normalizeRenderedUrl(v.url);
  const urls = new Set<string>();
  for (const link of result.links ?? []) {
    const u = normalizeRenderedUrl(link);
    if (u && u !== own && urlWithinLimit(u) && sameSite(u, v.url) && !looksLikeAsset(u)) urls.add(u);
  }
  // What finalization needs to decide WCAG 2.4.5 Multiple Ways over the crawl (multiple-ways.ts).
  const kept: string[] = [];
  let chars = 0;
  for (const u of urls) {
    if (kept.length >= MAX_WAYS_LINKS || (chars += u.length) > MAX_WAYS_CHARS) break;
    kept.push(u);
  }
  return {
    handOver: {
      facts: { ways: { search: view.search, links: kept }, rendered: { links: [...urls], view } },
      links: { urls: [...urls], foundOn: v.url, foundOnHash: view.textHash || null },
    },
  };
}
