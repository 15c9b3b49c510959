/**
 * Text comparison for form labels and accessible names: pure functions, used in Node on what the
 * forms engine read from the page.
 *
 * Normalisation folds what neither a screen reader nor a speech-input user relies on: letter case,
 * white space (including no-break spaces), punctuation and symbols (`…`, `*`, `>>>`, emoji, `×`),
 * and joins hyphenated words (`non-standard` = `nonstandard`; a dash between spaces is a break),
 * so that the comparisons below only see words.
 */

/** Lower-cased words of `s`: punctuation and symbols are word breaks, hyphens and dashes join. */
export function labelWords(s: string): string[] {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/(?<=[\p{L}\p{N}])[-\u2010\u2011\u00ad]+(?=[\p{L}\p{N}])/gu, '')
    .replace(/[\p{P}\p{S}\p{Z}\p{C}\s]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}

/** `labelWords` joined by single spaces: the normalised text. */
export function normaliseLabel(s: string): string {
  return labelWords(s).join(' ');
}

/** Whether `needle` occurs in `hay` as a run of whole, consecutive words. */
export function containsWords(hay: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return true;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** Whether every word of `needle` occurs in `hay` in the same order, with anything between. */
function inOrder(hay: readonly string[], needle: readonly string[]): boolean {
  let i = 0;
  for (const w of hay) if (i < needle.length && w === needle[i]) i++;
  return i === needle.length;
}

/** Words followed by a full stop in `s` (letters only, e.g. `Ave.`, `St.`): possible abbreviations. */
function abbreviations(s: string): Set<string> {
  const out = new Set<string>();
  for (const m of s.normalize('NFKC').toLowerCase().matchAll(/(\p{L}+)\./gu)) out.add(m[1]!);
  return out;
}

/** Like `containsWords`, but a word in `abbr` also matches a longer word it begins. */
function containsWithAbbreviations(hay: readonly string[], needle: readonly string[], abbr: ReadonlySet<string>): boolean {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) {
      const h = hay[i + j]!;
      const n = needle[j]!;
      if (h !== n && !(abbr.has(n) && h.startsWith(n))) continue outer;
    }
    return true;
  }
  return false;
}

/** Words that only mark a field as required or optional, at either end of a label. */
const MARKER_WORDS = new Set(['required', 'optional', 'mandatory']);

function stripMarkers(words: readonly string[]): string[] {
  let a = 0;
  let b = words.length;
  while (a < b && MARKER_WORDS.has(words[a]!)) a++;
  while (b > a && MARKER_WORDS.has(words[b - 1]!)) b--;
  return words.slice(a, b);
}

export type LabelInNameVerdict =
  /** The name contains the visible label. */
  | { verdict: 'pass'; how: 'contained' | 'without-brackets' | 'without-marker' }
  /** Nothing to compare: the visible text is a symbol, or an abbreviation the name spells out. */
  | { verdict: 'skip'; why: 'no-text' | 'single-character' | 'abbreviation' }
  /** The name does not contain the visible label: certain by construction. */
  | { verdict: 'fail'; visible: string; name: string }
  /** The name does not contain it, but the visible text is long enough to be more than a label. */
  | { verdict: 'review'; visible: string; name: string };

/** Visible text of more than this many words may hold more than the label (a card, a description). */
export const LONG_LABEL_WORDS = 10;

/**
 * WCAG 2.5.3 Label in Name, as ACT rule 2ee8b8 states it: the accessible name contains the visible
 * label's words, in order, after normalisation. Text in brackets (a format hint such as
 * `(YYYY-MM-DD)`) and a trailing "required"/"optional" marker may be left out of the name. Visible
 * text of one character is taken as a symbol (`X` for close), and a word ending with a full stop
 * that the name spells out (`Ave.` / `Avenue`) as an abbreviation: neither is judged. Visible
 * text of more than `LONG_LABEL_WORDS` words, or of numbers and symbols only whose numbers the
 * name holds in order with words between, is left to review.
 */
export function labelInName(visible: string, name: string): LabelInNameVerdict {
  const v = labelWords(visible);
  if (v.length === 0) return { verdict: 'skip', why: 'no-text' };
  const n = labelWords(name);
  if (containsWords(n, v)) return { verdict: 'pass', how: 'contained' };
  if (v.length === 1 && [...v[0]!].length === 1) return { verdict: 'skip', why: 'single-character' };
  const unbracketed = labelWords(visible.replace(/\([^()]*\)|\[[^[\]]*\]/g, ' '));
  if (unbracketed.length > 0 && unbracketed.length < v.length && containsWords(n, unbracketed)) return { verdict: 'pass', how: 'without-brackets' };
  const unmarked = stripMarkers(unbracketed.length > 0 ? unbracketed : v);
  if (unmarked.length > 0 && unmarked.length < v.length && containsWords(n, unmarked)) return { verdict: 'pass', how: 'without-marker' };
  const abbr = abbreviations(visible);
  if (abbr.size > 0 && containsWithAbbreviations(n, v, abbr)) return { verdict: 'skip', why: 'abbreviation' };
  const out = { visible: normaliseLabel(visible), name: normaliseLabel(name) };
  if (v.length > LONG_LABEL_WORDS) return { verdict: 'review', ...out };
  // Numbers and symbols only ("€100 / €1"), all in the name in order but with words between
  // ("Previously 100, now 1 euro"): the symbols may be what the words spell out.
  if (!v.some((x) => /\p{L}/u.test(x)) && inOrder(n, v)) return { verdict: 'review', ...out };
  return { verdict: 'fail', ...out };
}

/**
 * Field names that say nothing about what to enter (English). A label made only of these words,
 * or of no letter or digit at all, is not descriptive (WCAG 2.4.6); which labels are descriptive
 * beyond that is judgement.
 */
export const GENERIC_FIELD_WORDS: ReadonlySet<string> = new Set([
  'field', 'input', 'text', 'textbox', 'value', 'entry', 'data', 'info', 'information', 'details',
  'enter', 'type', 'here', 'edit', 'box', 'untitled', 'blank', 'label', 'answer', 'response',
  'select', 'choose', 'option', 'options', 'please', 'your', 'a', 'an', 'the', 'this', 'something',
]);

/** Why a field's name is not descriptive, or undefined when it may be. */
export function nonDescriptiveLabel(name: string): 'no-words' | 'generic' | undefined {
  if (name.trim() === '') return undefined; // an empty name is axe's `label` failure, not ours
  const w = labelWords(name);
  if (w.length === 0 || !w.some((x) => /[\p{L}\p{N}]/u.test(x))) return 'no-words';
  return w.every((x) => GENERIC_FIELD_WORDS.has(x)) ? 'generic' : undefined;
}

/** Visible marks of a required field: an asterisk, or the word required/mandatory. */
export function requiredMarker(text: string): 'asterisk' | 'word' | undefined {
  if (/\b(required|mandatory)\b/i.test(text)) return 'word';
  if (/[*\u2217\uff0a]/.test(text)) return 'asterisk';
  return undefined;
}

/** Text that explains what an asterisk means, e.g. "Fields marked * are required". */
export function explainsAsterisk(text: string): boolean {
  return /[*\u2217\uff0a]/.test(text) && /\b(required|mandatory|must)\b/i.test(text);
}
