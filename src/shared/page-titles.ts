/**
 * Page titles across a crawl (WCAG 2.4.2 Page Titled): a title shared by many distinct pages
 * does not tell a user which page they are on. Known only when every page of the crawl is in,
 * so it is decided at finalization, not by a page's own engines.
 */

/** The fewest distinct pages sharing one title that make it a finding. */
export const MIN_PAGES_SHARING_TITLE = 3;

/** Case, width, whitespace and surrounding punctuation folded: "Home | Acme " = "home | acme". */
export function normaliseTitle(title: string): string {
  return title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '')
    .trim();
}

export interface TitledPage<T> {
  url: string;
  title: string | null;
  ref: T;
}

export interface SharedTitle<T> {
  /** The title as most of its pages write it (ties: the form met first). */
  title: string;
  pages: TitledPage<T>[];
}

/**
 * Titles shared by at least `minPages` distinct URLs, largest group first. Pages without a
 * title are left out: an empty or missing title is a page's own failure (axe `document-title`).
 */
export function sharedTitles<T>(pages: readonly TitledPage<T>[], minPages = MIN_PAGES_SHARING_TITLE): SharedTitle<T>[] {
  const groups = new Map<string, { forms: Map<string, number>; byUrl: Map<string, TitledPage<T>> }>();
  for (const p of pages) {
    const key = p.title ? normaliseTitle(p.title) : '';
    if (key === '') continue;
    const g = groups.get(key) ?? { forms: new Map<string, number>(), byUrl: new Map<string, TitledPage<T>>() };
    groups.set(key, g);
    if (g.byUrl.has(p.url)) continue;
    g.byUrl.set(p.url, p);
    const form = p.title!.trim().replace(/\s+/g, ' ');
    g.forms.set(form, (g.forms.get(form) ?? 0) + 1);
  }
  const usual = (forms: Map<string, number>) => [...forms].reduce((best, f) => (f[1] > best[1] ? f : best))[0];
  return [...groups.values()]
    .filter((g) => g.byUrl.size >= minPages)
    .map((g) => ({ title: usual(g.forms), pages: [...g.byUrl.values()] }))
    .sort((a, b) => b.pages.length - a.pages.length || a.title.localeCompare(b.title));
}

/** A scanned page of the crawl, for checks that need every page at once (shared titles, multiple ways). */
export interface CrawlPageForChecks {
  pageScanId: string;
  url: string;
  title: string | null;
  /** Its rendered links and search form (null: not collected, e.g. a flow's end state or an older scan). */
  ways?: PageWaysFacts | null;
}

/** Most same-site links kept per crawl page for the Multiple Ways check. */
export const MAX_WAYS_LINKS = 500;
/** Characters of those links kept per page at most (long URLs: a row stays small). */
export const MAX_WAYS_CHARS = 100_000;

/** What a crawl page's scan saw of the ways to other pages (`page_scans.ways`). */
export interface PageWaysFacts {
  /** The page offers a search (a search landmark, `input[type=search]`, a form field named q/query/search/s). */
  search: boolean;
  /** Its same-site links, normalised as rendered discovery normalises them, distinct, at most MAX_WAYS_LINKS (and MAX_WAYS_CHARS). */
  links: string[];
}
