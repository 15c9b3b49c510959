import { francAll } from 'franc-min';
import { data as francData } from 'franc-min/data.js';
import { detectorCodesFor, ENGLISH_LIKE, expectedScripts, primarySubtag, sameLanguage, SCRIPTS, subtagOf, type Script } from './tags.ts';

/**
 * Does a text read as the language its `lang` says? Two independent witnesses must agree before
 * a mismatch is claimed: the trigram detector (`franc-min`, 82 languages) and, for seven major
 * languages, the share of each language's own short function words ("the", "und", "les"…),
 * which no amount of names, numbers or jargon produces by chance.
 */

/** The detector's languages (franc-min's trigram data, plus the languages it tells by script alone). */
const KNOWN: readonly string[] = [
  ...Object.values(francData).flatMap((langs) => Object.keys(langs)),
  ...['cmn', 'jpn', 'kor', 'ben', 'tel', 'tam', 'guj', 'kan', 'mal', 'mya', 'pan', 'amh', 'tha', 'sin', 'ell'],
];

// ---- function words -------------------------------------------------------------------------------

/** Frequent short words of each language. Only the words no other list has count (`UNIQUE`). */
const FUNCTION_WORDS: Readonly<Record<string, string>> = {
  eng: 'the and to that it with be this are or from which but not have has had were been will would can their they you we there these its if into when what than more about other only should them then some such who our your',
  fra: 'le la les de des du est un une que qui dans pour pas sur au aux avec il elle ce cette par plus sont ont mais ou nous vous ils leur été être fait comme se ne sa son ses',
  deu: 'der die das und ist nicht mit des ein eine einer zu von sich auf für im auch es sie wir ich werden wird sind oder aber bei nach wie noch nur kann wenn aus zum zur einem einen',
  spa: 'el la los las de del que en un una por para con no es se su sus al lo como más pero este esta son está muy también hay ser fue ha sin sobre entre cuando todo desde',
  por: 'os as de do da dos das que em um uma para com não se no na nos por mais como mas foi ao ele ela seu sua são está também ou pelo pela',
  ita: 'il lo la gli le di del della che un una per con non sono si da nel nella al alla ma anche come più questo questa essere ha hanno tra dei delle degli',
  nld: 'de het een en van dat die niet zijn te met voor maar ook als bij dit wordt worden naar nog wel uit heeft hebben geen deze zo je ze wij hij of',
};

const UNIQUE: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const lists = Object.entries(FUNCTION_WORDS).map(([k, v]) => [k, v.split(' ')] as const);
  return new Map(lists.map(([k, words]) => [k, new Set(words.filter((w) => !lists.some(([k2, other]) => k2 !== k && other.includes(w))))]));
})();

/** Share of the words of `text` that are function words of each listed language (words of one letter left out). */
export function functionWordShares(text: string): { words: number; shares: Record<string, number> } {
  const words = (text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => w.length > 1);
  const shares: Record<string, number> = {};
  for (const [lang, set] of UNIQUE) {
    let n = 0;
    for (const w of words) if (set.has(w)) n++;
    shares[lang] = words.length ? n / words.length : 0;
  }
  return { words: words.length, shares };
}

// ---- text preparation -----------------------------------------------------------------------------

/**
 * Drops what is not prose: URLs, e-mail addresses, identifiers (snake_case, camelCase,
 * dotted.names, %magics, --options), and words with digits; collapses whitespace.
 */
export function proseOnly(text: string): string {
  return text
    .replace(/\b(?:https?:\/\/|www\.)\S+/giu, ' ')
    .replace(/\S+@\S+\.\S+/gu, ' ')
    .split(/\s+/u)
    .filter((w) => {
      const core = w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      if (!core) return false;
      if (/[_\d]/u.test(core)) return false;
      if (/\p{L}[.:/\\]\p{L}/u.test(core)) return false;
      if (/^[%@#$-]/u.test(w)) return false;
      if (/\p{Ll}\p{Lu}/u.test(core)) return false;
      return true;
    })
    .join(' ');
}

const SCRIPT_RE: ReadonlyArray<[Script, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Han', /\p{Script=Han}/u],
  ['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Bengali', /\p{Script=Bengali}/u],
  ['Thai', /\p{Script=Thai}/u],
];

/** Letters of `text` per script. */
/** The script a letter is written in (`Other` for scripts the detector does not tell apart). */
export function scriptOf(ch: string): Script {
  return SCRIPT_RE.find(([, re]) => re.test(ch))?.[0] ?? 'Other';
}

export function scriptCounts(text: string): { letters: number; counts: Record<Script, number> } {
  const counts = Object.fromEntries(SCRIPTS.map((s) => [s, 0])) as Record<Script, number>;
  let letters = 0;
  for (const ch of text.match(/\p{L}/gu) ?? []) {
    letters++;
    counts[scriptOf(ch)]++;
  }
  return { letters, counts };
}

/** Share of right-to-left letters (Arabic, Hebrew, Syriac, Thaana, N'Ko…) among the letters of `text`. */
export function rtlShare(text: string): { letters: number; rtl: number } {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const rtl = text.match(/[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/gu)?.length ?? 0;
  return { letters, rtl };
}

/** Cuts `text` into windows of about `size` characters at spaces, at most `max` of them. */
export function windows(text: string, size = WINDOW, max = MAX_WINDOWS): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length && out.length < max) {
    if (text.length - i <= size * 1.5) {
      out.push(text.slice(i));
      break;
    }
    let j = text.lastIndexOf(' ', i + size);
    if (j <= i) j = i + size;
    out.push(text.slice(i, j));
    i = j + 1;
  }
  return out.filter((w) => w.trim());
}

// ---- the verdict -----------------------------------------------------------------------------------

const WINDOW = 300;
/** 10 windows of 300 characters: the detector never reads more than about 3,000–3,500 characters of one text. */
const MAX_WINDOWS = 10;

export const LIMITS = {
  /** Letters below which no verdict is given on a page's text … */
  pageMinLetters: 100,
  /** … and on an element's. */
  partMinLetters: 60,
  /** Letters needed before a mismatch can be `confirmed`. */
  confirmMinLetters: 250,
} as const;

export interface Detected {
  /** ISO 639-3 code of the detector (`eng`), or a script name when only the script tells (`Han`). */
  code: string;
  /** The subtag that would be right (`en`). */
  subtag: string;
  /** Only the declared language is ruled out: the detector's guess is not borne out by function words. */
  uncertain?: boolean;
}

export interface LanguageEvidence {
  letters: number;
  /** Dominant script and its share of the letters. */
  script: Script;
  scriptShare: number;
  /** Windows read by the detector, and how many of them it gave to the detected language. */
  windows: number;
  agreeing: number;
  /** Mean distance of the declared language from the best one, 0..1 (0: the declared language ranks first). */
  declaredDeficit?: number;
  /** Share of the words that are function words of the detected / declared language. */
  detectedWordShare?: number;
  declaredWordShare?: number;
  /** The verdict rests on the script of the text (no letter of the declared language's script). */
  byScript?: boolean;
}

export type LanguageVerdict =
  | { kind: 'match'; evidence?: LanguageEvidence }
  | { kind: 'undetermined'; reason: 'no-language' | 'too-short' | 'mixed-scripts' | 'unknown-language' | 'weak'; evidence?: LanguageEvidence }
  | { kind: 'mismatch'; outcome: 'confirmed' | 'needs_review'; declared: string; detected: Detected; evidence: LanguageEvidence };

export interface JudgeOptions {
  /** The text is a whole page's (3.1.1) or one element's (3.1.2): shorter texts are read for parts. */
  scope: 'page' | 'part';
  /** Never `confirmed` (e.g. passages without `lang`, where a quotation may be intended). */
  reviewOnly?: boolean;
}

/** The detector's languages with a trigram model per script (the others are told by script alone). */
const MODELS: Partial<Record<Script, ReadonlySet<string>>> = {
  Latin: new Set(Object.keys(francData.Latin ?? {})),
  Cyrillic: new Set(Object.keys(francData.Cyrillic ?? {})),
  Arabic: new Set(Object.keys(francData.Arabic ?? {})),
  Devanagari: new Set(Object.keys(francData.Devanagari ?? {})),
};

/**
 * Whether `text` is in the language of the BCP 47 tag `declared`. A mismatch is `confirmed`
 * only with at least 250 letters of prose, every window of it read as the same other language,
 * and that language's own function words making up at least 12% of the words (the declared
 * language's at most 3%); or when text in a language with its own script (Japanese, Russian,
 * Arabic…) has not one letter of that script.
 */
export function judgeLanguage(declared: string, rawText: string, opts: JudgeOptions): LanguageVerdict {
  const primary = primarySubtag(declared);
  if (!primary) return { kind: 'undetermined', reason: 'no-language' };
  const text = proseOnly(rawText);
  const { letters, counts } = scriptCounts(text);
  const min = opts.scope === 'page' ? LIMITS.pageMinLetters : LIMITS.partMinLetters;
  if (letters < min) return { kind: 'undetermined', reason: 'too-short' };
  const [script, count] = (Object.entries(counts) as Array<[Script, number]>).sort((a, b) => b[1] - a[1])[0]!;
  const scriptShare = count / letters;
  const canConfirm = !opts.reviewOnly && letters >= LIMITS.confirmMinLetters;
  const base: LanguageEvidence = { letters, script, scriptShare: round(scriptShare), windows: 0, agreeing: 0 };
  const share = (...scripts: Script[]) => scripts.reduce((n, sc) => n + counts[sc], 0) / letters;

  // The script alone: a Japanese page without a single kana or kanji is not in Japanese.
  const expected = expectedScripts(declared);
  if (expected && script !== 'Other' && !expected.includes(script) && scriptShare >= 0.9) {
    const expectedShare = share(...expected);
    if (expectedShare < 0.02) {
      const top = francAll(text.slice(0, 2048), { minLength: 1 })[0]?.[0];
      const detected: Detected = top && top !== 'und' ? { code: top, subtag: subtagOf(top) } : { code: script, subtag: '' };
      return { kind: 'mismatch', outcome: canConfirm && expectedShare === 0 ? 'confirmed' : 'needs_review', declared: primary, detected, evidence: { ...base, byScript: true } };
    }
  }
  // Japanese mixes kanji and kana, Korean hangul and hanja: one family here.
  const cjk = share('Han', 'Kana', 'Hangul');
  if ((script === 'Han' || script === 'Kana' || script === 'Hangul') && cjk >= 0.75) return judgeCjk(primary, letters, share, canConfirm, base);
  if (scriptShare < 0.75) return { kind: 'undetermined', reason: 'mixed-scripts', evidence: base };
  const models = MODELS[script];
  if (!models) return expected?.includes(script) ? { kind: 'match', evidence: base } : { kind: 'undetermined', reason: 'unknown-language', evidence: base };

  const declaredCodes = new Set([...detectorCodesFor(primary, KNOWN)].filter((c) => models.has(c)));
  // Cheap first: text where the declared language's own common words abound is in that language.
  const fw = functionWordShares(text);
  const declaredShare = [...declaredCodes].map((c) => fw.shares[c]).find((x) => x !== undefined);
  if (declaredShare !== undefined && fw.words >= 20 && declaredShare >= 0.15) return { kind: 'match', evidence: { ...base, declaredWordShare: round(declaredShare) } };
  const parts = windows(text);
  const tops: string[] = [];
  const deficits: number[] = [];
  let strongEverywhere = true;
  for (const w of parts) {
    const ranked = francAll(w, { minLength: 1 });
    tops.push(ranked[0]?.[0] ?? 'und');
    if (declaredCodes.size) {
      const best = Math.max(0, ...ranked.filter(([code]) => declaredCodes.has(code)).map(([, score]) => score));
      const deficit = 1 - best;
      deficits.push(deficit);
      // A window's deficit shrinks as it grows: scale the bar to its length.
      if (deficit < 0.015 * (WINDOW / Math.max(w.length, 60))) strongEverywhere = false;
    }
  }
  // The most frequent detection, confusable languages counted together.
  const votes = new Map<string, number>();
  for (const t of tops) {
    const key = [...votes.keys()].find((k) => sameLanguage(k, t)) ?? t;
    votes.set(key, (votes.get(key) ?? 0) + 1);
  }
  const [winner, agreeing] = [...votes.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const evidence: LanguageEvidence = { ...base, windows: parts.length, agreeing };
  if (winner === 'und') return { kind: 'undetermined', reason: 'weak', evidence };
  const agreement = agreeing / parts.length;
  const { shares } = fw;
  const detected: Detected = { code: winner, subtag: subtagOf(winner) };

  if (declaredCodes.size) {
    if ([...declaredCodes].some((c) => sameLanguage(c, winner))) return { kind: 'match', evidence };
    const meanDeficit = deficits.reduce((a, b) => a + b, 0) / deficits.length;
    const declaredWords = [...declaredCodes].map((c) => shares[c]).find((x) => x !== undefined);
    const detectedWords = shares[winner];
    Object.assign(evidence, { declaredDeficit: round(meanDeficit), detectedWordShare: opt(detectedWords), declaredWordShare: opt(declaredWords) });
    const bar = 0.02 * (WINDOW / Math.max(Math.min(text.length, WINDOW), 60));
    if (agreement < 0.6 || meanDeficit < bar) return { kind: 'undetermined', reason: 'weak', evidence };
    // Without function words of either language, only a long text is evidence enough.
    if (detectedWords === undefined && declaredWords === undefined && letters < LIMITS.confirmMinLetters) return { kind: 'undetermined', reason: 'weak', evidence };
    if (declaredWords !== undefined && declaredWords > 0.04) return { kind: 'undetermined', reason: 'weak', evidence };
    if (detectedWords !== undefined && detectedWords < 0.1) {
      // The detected language is not borne out, but the declared one has none of its own common
      // words in a long text: the text is not in the declared language, whatever it is in.
      if (declaredWords !== undefined && declaredWords <= 0.01 && letters >= LIMITS.confirmMinLetters) {
        return { kind: 'mismatch', outcome: 'needs_review', declared: primary, detected: { ...detected, uncertain: true }, evidence };
      }
      return { kind: 'undetermined', reason: 'weak', evidence };
    }
    const certain =
      canConfirm && agreement >= 0.8 && strongEverywhere && detectedWords !== undefined && detectedWords >= 0.12 && (declaredWords === undefined || declaredWords <= 0.03);
    // Without function words of its own, the detected language is only the detector's nearest guess.
    return { kind: 'mismatch', outcome: certain ? 'confirmed' : 'needs_review', declared: primary, detected: detectedWords === undefined ? { ...detected, uncertain: true } : detected, evidence };
  }

  // The detector has no model of the declared language in this script (Danish, Finnish,
  // Catalan…): it can only tell that the text is English, when English function words say so too.
  if (ENGLISH_LIKE.has(primary) || winner !== 'eng') return { kind: 'undetermined', reason: 'unknown-language', evidence };
  const englishWords = shares.eng ?? 0;
  Object.assign(evidence, { detectedWordShare: round(englishWords) });
  if (agreement < 0.8 || englishWords < 0.12) return { kind: 'undetermined', reason: 'weak', evidence };
  const certain = canConfirm && agreement === 1 && englishWords >= 0.15;
  return { kind: 'mismatch', outcome: certain ? 'confirmed' : 'needs_review', declared: primary, detected, evidence };
}

/**
 * Chinese, Japanese and Korean share Han characters: told apart by kana (Japanese only) and
 * hangul (Korean only), never by the trigram detector.
 */
function judgeCjk(
  primary: string,
  letters: number,
  share: (...s: Script[]) => number,
  canConfirm: boolean,
  evidence: LanguageEvidence,
): LanguageVerdict {
  const kana = share('Kana');
  const hangul = share('Hangul');
  const mismatch = (code: string, subtag: string, sure: boolean): LanguageVerdict => ({
    kind: 'mismatch',
    outcome: canConfirm && sure ? 'confirmed' : 'needs_review',
    declared: primary,
    detected: { code, subtag },
    evidence: { ...evidence, byScript: true },
  });
  if (primary === 'zh') {
    if (kana >= 0.2) return mismatch('jpn', 'ja', true);
    if (hangul >= 0.5) return mismatch('kor', 'ko', true);
    return { kind: 'match', evidence };
  }
  if (primary === 'ja') {
    if (hangul >= 0.5) return mismatch('kor', 'ko', true);
    if (kana === 0 && letters >= LIMITS.confirmMinLetters) return mismatch('cmn', 'zh', false);
    return { kind: 'match', evidence };
  }
  if (primary === 'ko') {
    if (kana >= 0.2) return mismatch('jpn', 'ja', true);
    if (hangul === 0 && letters >= LIMITS.confirmMinLetters) return mismatch('cmn', 'zh', false);
    return { kind: 'match', evidence };
  }
  return { kind: 'undetermined', reason: 'unknown-language', evidence };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
function opt(n: number | undefined): number | undefined {
  return n === undefined ? undefined : round(n);
}

/** English names of the languages in messages (`Intl.DisplayNames`), falling back to the code. */
export function languageName(subtagOrCode: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(subtagOrCode) ?? subtagOrCode;
  } catch {
    return subtagOrCode;
  }
}
