/**
 * Link names that say nothing about where a link goes, and how the service judges them (WCAG
 * 2.4.4, ACT rule 5effbb "Link in context is descriptive").
 *
 * The functions here run both in Node (unit tests) and inside the page: `custom-rules.ts`
 * injects their source text into the page with axe. Each is therefore self-contained: it uses
 * only its arguments and JavaScript built-ins, never another function or constant of this module.
 */

export interface LinkNameLists {
  /** Names that describe no destination at all ("click here", "read more"). */
  generic: readonly string[];
  /**
   * Names of a step in a sequence ("next", "previous", "more"): vague on their own, but clear in
   * pagination or a navigation landmark, where the sequence is the context.
   */
  sequence: readonly string[];
  /** A file format or medium alone ("PDF", "HTML"): says how, not what; fine with a context that names the thing. */
  format: readonly string[];
}

/** Per language (English only for now; add others here). Names are given normalised. */
export const LINK_NAME_LISTS: Readonly<Record<string, LinkNameLists>> = {
  en: {
    generic: [
      'click here', 'click', 'here', 'click this', 'this', 'this link', 'link', 'this page', 'page', 'go here',
      'read more', 'read on', 'learn more', 'find out more', 'more info', 'more information', 'info', 'information',
      'details', 'more details', 'go', 'start', 'website', 'web site', 'download', 'download here', 'click to download',
      'see here', 'tap here', 'press here', 'link here', 'visit', 'open',
    ],
    sequence: [
      'next', 'previous', 'prev', 'back', 'forward', 'more', 'see more', 'view more', 'show more', 'load more', 'continue',
      'older', 'newer', 'first', 'last', 'next page', 'previous page', 'prev page', 'older posts', 'newer posts',
      'older entries', 'newer entries', 'next post', 'previous post', 'go back',
    ],
    format: [
      'html', 'pdf', 'epub', 'mobi', 'kindle', 'plain text', 'text', 'txt', 'rtf', 'doc', 'docx', 'word', 'odt', 'xls', 'xlsx',
      'excel', 'ods', 'csv', 'ppt', 'pptx', 'odp', 'zip', 'json', 'xml', 'rss', 'mp3', 'mp4', 'audio', 'video', 'ebook',
    ],
  },
};

/**
 * A link name as compared with the lists: Unicode-normalised (NFKC), lower case, punctuation and
 * symbols (arrows, », …, brackets, full stops) turned into spaces except apostrophes inside words,
 * whitespace collapsed. "Read more »" → "read more", "‹ Prev" → "prev", "." → "".
 */
export function normaliseLinkName(name: string): string {
  return String(name)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/'(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])'/gu, ' ')
    .replace(/[^\p{L}\p{N}\p{M}'\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export type LinkNameCategory = 'generic' | 'sequence' | 'format' | 'punctuation';

/**
 * Which kind of vague name `normalised` (from `normaliseLinkName`) is, or null when it is not
 * vague. A name of only punctuation or symbols ("." or "»") is `punctuation`.
 */
export function classifyLinkName(normalised: string, lists: LinkNameLists): LinkNameCategory | null {
  if (normalised === '') return 'punctuation';
  if (lists.sequence.indexOf(normalised) !== -1) return 'sequence';
  if (lists.generic.indexOf(normalised) !== -1) return 'generic';
  if (lists.format.indexOf(normalised) !== -1) return 'format';
  return null;
}

/** What the page tells about one link whose name is vague (measured in the page). */
export interface VagueLinkFacts {
  category: LinkNameCategory | null;
  /** `rel="next"`/`"prev"` on the link, or its target is the document's `<link rel="next|prev">`. */
  rel: boolean;
  /** Inside `nav` or `role="navigation"`. */
  inNavigation: boolean;
  /** Inside an element named or classed as pagination. */
  inPagination: boolean;
  /**
   * Its programmatically determined context (ACT's definition: list items it is in, its
   * paragraph in the closest block, its table cell and that cell's header cells,
   * `aria-describedby`) has words besides link names.
   */
  hasContext: boolean;
  /** A `title` or `aria-description` that adds words to the name. */
  hasDescription: boolean;
}

export type LinkNameVerdict = { verdict: 'pass' } | { verdict: 'confirmed' | 'needs_review'; reason: 'no-context' | 'context' | 'description' | 'format' };

/**
 * The outcome for a link with a vague name. Confirmed only when the name is on a list and
 * nothing at all can give it a purpose: no context, no description, not a step of a sequence in
 * navigation. Where a context exists, only a person can tell whether it names the destination.
 */
export function judgeLinkName(f: VagueLinkFacts): LinkNameVerdict {
  const c = f.category;
  if (c === null) return { verdict: 'pass' };
  const sequenceLike = c === 'sequence' || c === 'punctuation';
  if (sequenceLike && (f.rel || f.inNavigation || f.inPagination)) return { verdict: 'pass' };
  if (c === 'format') {
    if (f.hasContext || f.inNavigation) return { verdict: 'pass' };
    return { verdict: 'needs_review', reason: 'format' };
  }
  if (f.hasContext) return { verdict: 'needs_review', reason: 'context' };
  if (f.hasDescription) return { verdict: 'needs_review', reason: 'description' };
  return { verdict: 'confirmed', reason: 'no-context' };
}
