/**
 * Bounds on what a scanned site decides the length of. PostgreSQL refuses a btree index entry over
 * 2,704 bytes, and URLs and selectors are indexed (a page's URL, a finding's selector): one
 * 3,000-character link or element id would fail discovery or the page's scan on every retry.
 * Titles travel through Temporal payloads and reports. Pure: shared by workers and reports.
 */
import { createHash } from 'node:crypto';

/** Longest URL a crawl follows (the common limit of browsers' address bars, search engines and CDNs); longer ones are skipped and counted. */
export const MAX_URL_LENGTH = 2048;
/** Longest selector stored; a longer one keeps its start and a hash of the whole. */
export const MAX_SELECTOR_LENGTH = 512;
/** Longest page title stored. */
export const MAX_TITLE_LENGTH = 500;

/** Whether a URL is short enough to be a page of a crawl. */
export function urlWithinLimit(url: string): boolean {
  return url.length <= MAX_URL_LENGTH;
}

/**
 * A selector short enough to index: as it is when short; else its start and a hash of the whole,
 * so two long selectors that share a start stay two issues and the same one stays one issue
 * across crawls.
 */
export function boundedSelector(selector: string): string {
  if (selector.length <= MAX_SELECTOR_LENGTH) return selector;
  const hash = createHash('sha256').update(selector).digest('hex').slice(0, 16);
  const tail = ` … [${selector.length} characters, sha256 ${hash}]`;
  return `${selector.slice(0, MAX_SELECTOR_LENGTH - tail.length)}${tail}`;
}

/** A page title at most MAX_TITLE_LENGTH characters long (cut with an ellipsis). */
export function boundedTitle(title: string | null): string | null {
  if (title === null || title.length <= MAX_TITLE_LENGTH) return title;
  return `${title.slice(0, MAX_TITLE_LENGTH - 1)}…`;
}
