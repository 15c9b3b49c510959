import { functionWordShares, proseOnly, scriptOf } from './detect.ts';
import { subtagOf, type Script } from './tags.ts';

/**
 * Short passages in another language inside a block of page-language text (WCAG 3.1.2, H58):
 * too short for the trigram detector, so only two narrow witnesses are trusted. Letters in a
 * script the page's language is not written in (a Russian quotation or an Arabic phrase in an
 * English paragraph), and a sentence or quotation made of another language's own function words
 * with none of the page language's. Pure functions.
 */

/** Letters of one script in a row (two words at least) needed before a run counts. */
export const RUN_LIMITS = { alphabeticLetters: 8, cjkLetters: 4, words: 2 } as const;

const CJK: ReadonlySet<Script> = new Set(['Han', 'Kana', 'Hangul']);

export interface ScriptRun {
  script: Script;
  text: string;
  letters: number;
}

/**
 * Runs of text in a script other than `expected` (words joined by spaces and punctuation), long
 * enough to be a phrase: 8 letters in two words of two letters or more, or 4 Han, kana or hangul
 * characters. Single Greek letters of formulas, a lone word or a name in its own script do not count.
 */
export function foreignScriptRuns(text: string, expected: readonly Script[]): ScriptRun[] {
  const out: ScriptRun[] = [];
  let cur: { script: Script; start: number; end: number; letters: number; words: number; inWord: number } | null = null;
  const close = () => {
    if (!cur) return;
    if (cur.inWord >= 2) cur.words++;
    const cjk = CJK.has(cur.script);
    const long = cjk ? cur.letters >= RUN_LIMITS.cjkLetters : cur.letters >= RUN_LIMITS.alphabeticLetters && cur.words >= RUN_LIMITS.words;
    if (long) out.push({ script: cur.script, text: text.slice(cur.start, cur.end).trim(), letters: cur.letters });
    cur = null;
  };
  const chars = [...text];
  let pos = 0;
  for (const ch of chars) {
    const at = pos;
    pos += ch.length;
    if (/\p{L}|\p{M}/u.test(ch)) {
      if (/\p{M}/u.test(ch)) {
        if (cur) cur.end = pos;
        continue;
      }
      const s = scriptOf(ch);
      const foreign = !expected.includes(s) && !(CJK.has(s) && expected.some((e) => CJK.has(e)));
      if (!foreign) {
        close();
        continue;
      }
      const family = CJK.has(s) ? 'Han' : s;
      if (cur && (CJK.has(cur.script) ? 'Han' : cur.script) !== family) close();
      if (!cur) cur = { script: s, start: at, end: pos, letters: 0, words: 0, inWord: 0 };
      cur.letters++;
      cur.inWord++;
      cur.end = pos;
    } else if (cur) {
      // Spaces, digits and punctuation continue a run; they end the word.
      if (cur.inWord >= 2) cur.words++;
      cur.inWord = 0;
    }
  }
  close();
  return out;
}

/** The languages with function-word lists, by primary subtag. */
const CODES: Readonly<Record<string, string>> = { en: 'eng', fr: 'fra', de: 'deu', es: 'spa', pt: 'por', it: 'ita', nl: 'nld' };

export interface ForeignSentence {
  text: string;
  /** The language its function words belong to (`fr`), and how many of its words are theirs. */
  subtag: string;
  code: string;
  functionWords: number;
  words: number;
}

/** Words a sentence needs, and function words of the other language it needs, before it counts. */
export const SENTENCE_LIMITS = { words: 6, functionWords: 3, share: 0.2, lead: 2 } as const;

/**
 * Sentences and quotations of `text` written in another of the seven languages with function
 * word lists than `pagePrimary` (itself one of them): at least six words, three of them (and a
 * fifth) the other language's own function words, two more than any third language's, and not
 * one of the page language's.
 */
export function foreignSentences(text: string, pagePrimary: string): ForeignSentence[] {
  if (!CODES[pagePrimary]) return [];
  const out: ForeignSentence[] = [];
  // Quotations are passages of their own; so are sentences.
  const pieces = text.split(/[“”«»„"]|(?<=[.!?;:])\s+|\s[–—]\s|\(|\)/u);
  for (const raw of pieces) {
    const found = otherLanguage(raw, pagePrimary, SENTENCE_LIMITS);
    if (found) out.push(found);
  }
  return out;
}

/** Words and function words a short element with its own `lang` needs (ACT off6ek's short phrases). */
export const SHORT_PART_LIMITS = { words: 5, functionWords: 2, share: 0.25, lead: 2 } as const;

/**
 * The language a short text (too short for the detector) is in by its function words, when that
 * is not `declaredPrimary` (one of the seven languages with lists): none of the declared
 * language's own function words, and another's standing out.
 */
export function otherLanguage(raw: string, declaredPrimary: string, limits: { words: number; functionWords: number; share: number; lead: number } = SHORT_PART_LIMITS): ForeignSentence | null {
  const own = CODES[declaredPrimary];
  if (!own) return null;
  const { words, shares } = functionWordShares(proseOnly(raw));
  if (words < limits.words || (shares[own] ?? 0) > 0) return null;
  const ranked = Object.entries(shares)
    .filter(([code]) => code !== own)
    .sort((a, b) => b[1] - a[1]);
  const best = ranked[0];
  if (!best) return null;
  const count = Math.round(best[1] * words);
  // Another language's words nearly as many ("je" is Dutch too): no language stands out.
  const second = Math.round((ranked[1]?.[1] ?? 0) * words);
  if (count < limits.functionWords || best[1] < limits.share || count - second < limits.lead) return null;
  return { text: raw.trim(), subtag: subtagOf(best[0]), code: best[0], functionWords: count, words };
}
