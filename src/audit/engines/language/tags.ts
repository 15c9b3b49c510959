import { iso6393, iso6393To1 } from 'iso-639-3';

/**
 * Language tags and the language detector's codes: which ISO 639-3 codes of `franc-min` a
 * BCP 47 primary subtag stands for, which of them are too close to tell apart, and which
 * scripts a language is written in.
 */

/** The primary language subtag of a BCP 47 tag, lower-cased (`en-US` → `en`); null when it is not a language. */
export function primarySubtag(tag: string | null | undefined): string | null {
  if (tag == null) return null;
  const first = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  if (!/^[a-z]{2,3}$/.test(first)) return null;
  // No linguistic content, undetermined, multiple or uncoded languages: nothing to compare.
  if (['zxx', 'und', 'mul', 'mis'].includes(first)) return null;
  // A code that is no language (`xx`, `foo`) is axe's html-lang-valid / valid-lang, not ours.
  return VALID.has(first) ? first : null;
}

/** ISO 639-1 and 639-3 codes, and the deprecated two-letter ones still met on pages. */
const VALID: ReadonlySet<string> = new Set([
  ...iso6393.flatMap((l) => [l.iso6393, ...(l.iso6391 ? [l.iso6391] : []), ...(l.iso6392B ? [l.iso6392B] : [])]),
  'in',
  'iw',
  'ji',
  'mo',
  'sh',
]);

/**
 * Detector codes with no ISO 639-1 code of their own, mapped to the subtag pages use for them
 * (mostly the macrolanguage: Standard Arabic is tagged `ar`, Mandarin `zh`).
 */
const MACRO: Readonly<Record<string, string>> = {
  arb: 'ar',
  cmn: 'zh',
  zlm: 'ms',
  pes: 'fa',
  uzn: 'uz',
  azj: 'az',
  swh: 'sw',
  npi: 'ne',
  plt: 'mg',
  ckb: 'ku',
  pbu: 'ps',
  fuv: 'ff',
  qug: 'qu',
  koi: 'kv',
  zyb: 'za',
  hms: 'hmn',
  hnj: 'hmn',
  skr: 'lah',
};

/** Other subtags in use for the same language (deprecated, ISO 639-3 or macrolanguage forms). */
const ALIASES: Readonly<Record<string, readonly string[]>> = {
  id: ['in'],
  he: ['iw'],
  ro: ['mo'],
  tl: ['fil'],
  ms: ['zsm', 'msa', 'may'],
  zh: ['zho', 'chi', 'cmn'],
  ar: ['ara'],
  fa: ['fas', 'per', 'pes', 'prs'],
  ne: ['nep', 'npi'],
  uz: ['uzb', 'uzn'],
  az: ['aze', 'azj'],
  sw: ['swa', 'swh'],
  ku: ['kur', 'ckb', 'kmr'],
  ps: ['pus', 'pbu', 'pbt'],
  mg: ['mlg', 'plt'],
  qu: ['que', 'qug'],
  hmn: ['hms', 'hnj'],
  sr: ['srp'],
  hr: ['hrv'],
  bs: ['bos'],
  sh: [],
};

/** Languages the detector confuses with each other on real text: a match with any of them is a match. */
const CONFUSABLE: readonly (readonly string[])[] = [
  ['bos', 'hrv', 'srp'],
  ['ind', 'zlm'],
  ['hin', 'mai', 'mag', 'bho'],
  ['kin', 'run'],
  ['hms', 'hnj'],
  ['tgl', 'ceb', 'ilo'],
];

/** The subtag a detector code is tagged with on pages (`eng` → `en`, `arb` → `ar`). */
export function subtagOf(iso3: string): string {
  return iso6393To1[iso3] ?? MACRO[iso3] ?? iso3;
}

/** Every subtag that names `iso3`, including aliases (`ind` → `id`, `in`). */
function subtagsOf(iso3: string): string[] {
  const main = subtagOf(iso3);
  return [main, iso3, ...(ALIASES[main] ?? [])];
}

const cache = new WeakMap<readonly string[], Map<string, Set<string>>>();

/**
 * The detector codes a page's subtag stands for, with their confusable neighbours (`hr` →
 * bos, hrv, srp), among the detector's languages `known`. Empty when the detector does not
 * know the language (Danish, Finnish, Catalan…).
 */
export function detectorCodesFor(subtag: string, known: readonly string[]): ReadonlySet<string> {
  let bySubtag = cache.get(known);
  if (!bySubtag) {
    bySubtag = new Map();
    for (const code of known) {
      const group = CONFUSABLE.find((g) => g.includes(code))?.filter((c) => known.includes(c)) ?? [code];
      for (const tag of subtagsOf(code)) {
        const set = bySubtag.get(tag) ?? new Set<string>();
        for (const c of group) set.add(c);
        bySubtag.set(tag, set);
      }
    }
    // Serbo-Croatian covers the three.
    bySubtag.set('sh', new Set(['bos', 'hrv', 'srp'].filter((c) => known.includes(c))));
    cache.set(known, bySubtag);
  }
  return bySubtag.get(subtag) ?? new Set();
}

/** Same language as far as the detector can tell. */
export function sameLanguage(a: string, b: string): boolean {
  if (a === b) return true;
  return CONFUSABLE.some((g) => g.includes(a) && g.includes(b));
}

/** Scripts counted in text, by Unicode script property. */
export const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew', 'Han', 'Kana', 'Hangul', 'Devanagari', 'Bengali', 'Thai', 'Other'] as const;
export type Script = (typeof SCRIPTS)[number];

/**
 * The scripts a language is written in, for languages with one unambiguous script family
 * (Serbian, Uzbek, Azerbaijani, Kurdish, Punjabi… are written in several and are absent).
 */
const EXPECTED: Readonly<Record<string, readonly Script[]>> = {
  ja: ['Han', 'Kana'],
  zh: ['Han'],
  ko: ['Hangul', 'Han'],
  ru: ['Cyrillic'],
  uk: ['Cyrillic'],
  bg: ['Cyrillic'],
  mk: ['Cyrillic'],
  el: ['Greek'],
  ar: ['Arabic'],
  fa: ['Arabic'],
  ur: ['Arabic'],
  ps: ['Arabic'],
  he: ['Hebrew'],
  yi: ['Hebrew'],
  hi: ['Devanagari'],
  mr: ['Devanagari'],
  ne: ['Devanagari'],
  bn: ['Bengali'],
  th: ['Thai'],
};

/** Languages written in Latin script only (the common ones). */
const LATIN = new Set(
  'en fr de es it pt nl da sv no nb nn fi is et lv lt pl cs sk sl hr bs hu ro tr id ms vi tl fil sw ca gl eu ga cy mt sq af lb fo gd br oc co rm eo la ha yo ig zu xh so mg st tn ny sn rw rn lg ln wo ceb ilo jv su mi sm to fj haw qu ay gn ht'.split(' '),
);

/** ISO 15924 script subtags (`sr-Latn`, `zh-Hant`) and the scripts they mean here. */
const SCRIPT_SUBTAGS: Readonly<Record<string, readonly Script[]>> = {
  latn: ['Latin'],
  cyrl: ['Cyrillic'],
  grek: ['Greek'],
  arab: ['Arabic'],
  hebr: ['Hebrew'],
  hans: ['Han'],
  hant: ['Han'],
  hani: ['Han'],
  jpan: ['Han', 'Kana'],
  hira: ['Kana'],
  kana: ['Kana'],
  hrkt: ['Kana'],
  kore: ['Hangul', 'Han'],
  hang: ['Hangul'],
  deva: ['Devanagari'],
  beng: ['Bengali'],
  thai: ['Thai'],
};

/** The script subtag of a BCP 47 tag (`sr-Latn-RS` → `latn`), if any. */
export function scriptSubtag(tag: string): string | null {
  const parts = tag.trim().toLowerCase().split(/[-_]/);
  const s = parts[1];
  return s && /^[a-z]{4}$/.test(s) ? s : null;
}

/**
 * The scripts text in the language of `tag` is written in: from its script subtag when it has
 * one (null for scripts not counted here), else from the language when it has one script family.
 */
export function expectedScripts(tag: string): readonly Script[] | null {
  const script = scriptSubtag(tag);
  if (script) return SCRIPT_SUBTAGS[script] ?? null;
  const subtag = primarySubtag(tag);
  if (!subtag) return null;
  if (EXPECTED[subtag]) return EXPECTED[subtag];
  if (LATIN.has(subtag)) return ['Latin'];
  return null;
}

/** Languages so close to English that English text may well be what they are (Scots, Old and Middle English, English creoles). */
export const ENGLISH_LIKE = new Set(['en', 'sco', 'enm', 'ang', 'jam', 'pcm', 'tpi', 'bi', 'srn', 'gcl', 'hwc', 'pis', 'kri', 'cpe']);
