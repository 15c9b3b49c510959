/**
 * How a crawl ends, decided from what it did: the one rule finalization applies. Pure, so every
 * branch is covered by unit tests.
 */
import type { ErrorInfo } from './contracts.ts';

export type EndedCrawlStatus = 'completed' | 'completed_partial' | 'cancelled' | 'failed';

export interface CrawlOutcome {
  cancelled: boolean;
  /** Pages whose scan succeeded (completed or completed_partial). */
  scannedPages: number;
  failedPages: number;
  enrichFailedPages: number;
  /** Why discovery stopped short, if it did. */
  discoveryError: ErrorInfo | null;
  /** The first page error of the crawl in discovery order (the home page's, when it failed). */
  firstPageError: ErrorInfo | null;
}

export const NO_PAGES: ErrorInfo = { code: 'no_pages', message: 'no page of the site could be reached' };

export function decideCrawlStatus(o: CrawlOutcome): { status: EndedCrawlStatus; error: ErrorInfo | null } {
  if (o.cancelled) return { status: 'cancelled', error: null };
  // Nothing scanned: the crawl failed, for the first page's reason if one is known.
  if (o.scannedPages === 0) return { status: 'failed', error: o.firstPageError ?? o.discoveryError ?? NO_PAGES };
  // Discovery stopped short: what it found was scanned, the rest of the site was never seen.
  if (o.discoveryError) return { status: 'completed_partial', error: o.discoveryError };
  if (o.failedPages > 0 || o.enrichFailedPages > 0) return { status: 'completed_partial', error: null };
  return { status: 'completed', error: null };
}
