/**
 * Page titles (2.4.2): titles that name no page at all (authoring-tool defaults, placeholders,
 * file names, URLs), titles that share no word with the page they head, and the same title on
 * many pages of a crawl. Pure functions; the engine and the crawl feed them.
 */

/** Whitespace collapsed, trimmed, Unicode-normalised (NFKC), for display. */
export function normaliseTitle(title: string): string {
  return title.normalize('NFKC').replace(/\s+/gu, ' ').trim();
}

/** The comparison form: normalised, case-folded, diacritics kept. */
function titleKey(title: string): string {
  return normaliseTitle(title).toLocaleLowerCase('und');
}

/**
 * Authoring-tool and framework defaults and placeholders: a page titled like this has not been
 * given a title (WCAG failure F25 lists them). Compared case-insensitively, whole title.
 */
const PLACEHOLDERS = new Set(
  [
    'untitled',
    'untitled document',
    'untitled page',
    'untitled-1',
    'untitled 1',
    'no title',
    'new page',
    'new page 1',
    'new document',
    'insert title here',
    'enter title here',
    'your title here',
    'title here',
    'page title',
    'title',
    'enter the title of your html document here',
    'document',
    'my page',
    'my webpage',
    'my web page',
    'react app',
    'vite app',
    'vite + react',
    'vite + react + ts',
    'vite + vue',
    'vite + vue + ts',
    'vite + svelte',
    'vite + svelte + ts',
    'vite + preact',
    'vite + lit',
    'create next app',
    'angular app',
    'svelte app',
    'nuxt app',
    'new tab',
  ].map((t) => t.toLowerCase()),
);

/** Words that name no page on their own: fine perhaps on a home page, not elsewhere. */
const HOME_WORDS = new Set(['home', 'homepage', 'home page', 'index', 'default', 'welcome', 'main', 'main page', 'start', 'start page']);
const VAGUE = new Set(['page', 'web page', 'webpage', 'website', 'web site', 'site', 'test', 'test page', 'testing', 'blank', 'empty', 'temp', 'draft', 'todo', 'tbd', 'placeholder']);

const FILE_NAME = /^[\p{L}\p{N}_.~-]+\.(?:s?html?|xhtml|php\d?|aspx?|jsp|cfm|cgi|pl|py|md|txt|pdf|docx?|xlsx?|pptx?)$/iu;
const URL_LIKE = /^(?:(?:https?|file):\/\/\S+|www\.\S+|(?:localhost|\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?(?:\/\S*)?)$/iu;

export type TitleVerdict =
  | { rule: 'title-generic'; outcome: 'confirmed' | 'needs_review'; kind: 'placeholder' | 'lorem-ipsum' | 'home-word' | 'vague' | 'file-name' | 'url' | 'no-letters' }
  | { rule: 'title-unrelated'; outcome: 'needs_review'; titleWords: string[] };

/** Whether the page is a site's home page (`/`, `/index.html`, `/en/`): where "Home" may do. */
export function isHomePath(url: string): boolean {
  try {
    const path = new URL(url).pathname.replace(/\/(?:index|default|home)\.[a-z]+$/i, '/');
    return path === '/' || /^\/[a-z]{2}(?:-[a-z]{2})?\/?$/i.test(path);
  } catch {
    return false;
  }
}

/**
 * A title that names no page: `confirmed` for authoring-tool defaults and placeholder text,
 * `needs_review` for home-page words off the home page, vague words, file names, URLs and
 * titles without a letter. Empty titles are axe's `document-title`.
 */
export function genericTitle(title: string, url: string): Extract<TitleVerdict, { rule: 'title-generic' }> | null {
  const t = normaliseTitle(title);
  if (!t) return null;
  const key = withoutTrailingMarks(t.toLowerCase());
  if (PLACEHOLDERS.has(key)) return { rule: 'title-generic', outcome: 'confirmed', kind: 'placeholder' };
  if (/^lorem ipsum\b/i.test(key)) return { rule: 'title-generic', outcome: 'confirmed', kind: 'lorem-ipsum' };
  if (!/\p{L}/u.test(t)) return { rule: 'title-generic', outcome: 'needs_review', kind: 'no-letters' };
  if (HOME_WORDS.has(key)) return isHomePath(url) ? null : { rule: 'title-generic', outcome: 'needs_review', kind: 'home-word' };
  if (VAGUE.has(key)) return { rule: 'title-generic', outcome: 'needs_review', kind: 'vague' };
  if (FILE_NAME.test(t)) return { rule: 'title-generic', outcome: 'needs_review', kind: 'file-name' };
  if (URL_LIKE.test(t)) return { rule: 'title-generic', outcome: 'needs_review', kind: 'url' };
  return null;
}

/** A title without the spaces and punctuation that trail it ("Untitled -", "iframe:"). */
function withoutTrailingMarks(t: string): string {
  return t.replace(/[\s.!:|–—-]+$/u, '');
}

/** Names that say only that something is a frame, or nothing at all (compared whole, case-insensitively). */
const FRAME_WORDS = /^(?:i?frame|embed(?:ded)?(?: content| frame)?|widget|content|contents|untitled|no title|title|blank|about:blank|empty|placeholder|null|undefined|test|frame title|iframe title|title of (?:the )?i?frame)(?:[\s_#-]*\d+)?$/iu;

/**
 * A frame's name (its `title` or `aria-label`) that does not describe it (H64's test: "the title
 * attribute describes the frame's content"): a word that only says it is a frame, a placeholder, a
 * file name or an address. Always for a person to decide (ACT cae760 checks only that a name is
 * there, and 4.1.2 that it is programmatically determined).
 */
export function genericFrameTitle(name: string): 'frame-word' | 'file-name' | 'url' | 'no-letters' | null {
  const t = normaliseTitle(name);
  if (!t) return null;
  if (FRAME_WORDS.test(withoutTrailingMarks(t))) return 'frame-word';
  if (!/\p{L}/u.test(t)) return 'no-letters';
  if (FILE_NAME.test(t)) return 'file-name';
  if (URL_LIKE.test(t)) return 'url';
  return null;
}

/** Short words that carry no topic, in the languages most pages are in. */
const STOP = new Set(
  (
    'the and for with from this that your our you are was were has have had not but all any can its into out about more most other some such than then them they what when where which who will would how why page site home welcome official ' +
    'der die das und mit von für ist ein eine den dem des auf aus bei zum zur ' +
    'les des une est pour par sur dans avec aux ' +
    'los las del una por para con ' +
    'het een van voor met'
  ).split(' '),
);

/** Topic words of a text: letters only, 3+ characters, stop words dropped, diacritics folded. */
export function topicWords(text: string): string[] {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/\p{L}{3,}/gu);
  return [...new Set((words ?? []).filter((w) => !STOP.has(w)))];
}

/** Two words are the same topic when one starts with the other's first five letters (harvest / harvesting). */
function stem(w: string): string {
  return w.slice(0, 5);
}

/**
 * A title none of whose topic words appears anywhere in the page's text (its headings, text,
 * link text and image alternatives): the title may describe another page. Only for titles
 * written in space-separated scripts, and pages with at least 5 topic words of text.
 */
export function unrelatedTitle(title: string, pageText: string): Extract<TitleVerdict, { rule: 'title-unrelated' }> | null {
  const t = normaliseTitle(title);
  // Titles in scripts written without spaces cannot be cut into words this way.
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u.test(t)) return null;
  const titleWords = topicWords(t);
  if (!titleWords.length) return null;
  const text = topicWords(pageText);
  if (text.length < 5) return null;
  const stems = new Set(text.map(stem));
  if (titleWords.some((w) => stems.has(stem(w)))) return null;
  return { rule: 'title-unrelated', outcome: 'needs_review', titleWords: titleWords.slice(0, 8) };
}

/** The page URL without its fragment: `#section` links are the same page. */
function pageKey(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}

/**
 * Titles shared by several distinct pages of a crawl: normalised title (as first seen, whitespace
 * collapsed) → the distinct page URLs (fragments dropped) in first-seen order. Titles are compared
 * case-insensitively; empty titles are left out (a missing title is its own issue).
 */
export function duplicateTitles(pages: ReadonlyArray<{ url: string; title: string | null | undefined }>): Map<string, string[]> {
  const groups = new Map<string, { display: string; urls: string[] }>();
  for (const p of pages) {
    if (!p.title) continue;
    const display = normaliseTitle(p.title);
    if (!display) continue;
    const key = titleKey(display);
    const g = groups.get(key) ?? { display, urls: [] };
    const url = pageKey(p.url);
    if (!g.urls.includes(url)) g.urls.push(url);
    groups.set(key, g);
  }
  const out = new Map<string, string[]>();
  for (const g of groups.values()) if (g.urls.length > 1) out.set(g.display, g.urls);
  return out;
}
