/**
 * What a rendered page shows, as far as rendered discovery needs it: the links a person can follow,
 * and enough of the view to tell an app's own "not found" view and a route that shows the same
 * content as another. Pure: the in-page collector (collect-links.ts) gathers the facts.
 */

/** Most links kept from one page (its frames and shadow roots included). */
export const MAX_RENDERED_LINKS = 2000;

export interface RenderedView {
  /** Absolute http(s) URLs of `a[href]` and `area[href]`, each at most MAX_URL_LENGTH long, distinct, at most MAX_RENDERED_LINKS. */
  links: string[];
  /** A hash of the page's visible text (whitespace folded): equal views have equal hashes. */
  textHash: string;
  /** `document.title`, trimmed and cut short. */
  title: string;
  /** The text of the page's main heading (the first `h1`, else the first heading), cut short. */
  heading: string;
  /** Words of visible text in the page's main content (`main`, else the body). */
  words: number;
  /**
   * The page offers a search: a search landmark (`role=search`, `<search>`), an `input[type=search]`,
   * or a form field named q, query, search or s (WCAG 2.4.5 Multiple Ways, decided over a crawl).
   */
  search: boolean;
}

/** A view with at most this many words in its main content can be a "not found" view. */
export const NOT_FOUND_MAX_WORDS = 120;

/**
 * Phrases an app's "not found" view is titled with. Anchored to the whole (short) title or heading,
 * so that an article about 404 errors, or a "Nothing found? Contact us" aside, is not taken for one.
 */
const NOT_FOUND_PHRASES: readonly RegExp[] = [
  /^(error\s*)?404(\s*error)?$/,
  /^404\b.{0,40}$/,
  /^.{0,40}\b404$/,
  /^(error\s*(404)?\s*[-:|–—]?\s*)?(this\s+|the\s+)?(page|route|view|resource|document|url|screen)\s+(was\s+|is\s+)?not\s+found$/,
  /^(\S+\s+){0,3}not\s+found$/,
  /^(sorry,?\s+)?(this|that|the)\s+page\s+(does\s+not|doesn't|could\s+not\s+be\s+found|cannot\s+be\s+found|can't\s+be\s+found)(\s+exist)?$/,
  /^(oops!?\s*)?(we\s+)?(could\s+not|couldn't|can't|cannot)\s+find\s+(this|that|the)\s+page$/,
  /^no\s+such\s+page$/,
];

function folded(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s\u00a0]+/g, ' ')
    .replace(/^[\s.!:·|–—-]+|[\s.!:·|–—-]+$/g, '')
    .trim();
}

function saysNotFound(text: string): boolean {
  const t = folded(text);
  if (!t || t.length > 80) return false;
  return NOT_FOUND_PHRASES.some((re) => re.test(t));
}

/**
 * A rendered "not found" view: the app answers an unknown route with its shell (HTTP 200) and then
 * shows that the page does not exist. Conservative on purpose, since a page taken for one is lost
 * from the crawl: the main heading says so (or the title, split at the usual separators, says so in
 * one of its parts), and the main content is short.
 */
export function isNotFoundView(view: Pick<RenderedView, 'title' | 'heading' | 'words'>): boolean {
  if (view.words > NOT_FOUND_MAX_WORDS) return false;
  if (saysNotFound(view.heading)) return true;
  return view.title.split(/\s[|–—·:-]\s/).some(saysNotFound);
}
