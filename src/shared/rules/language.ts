import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

/** Who is affected by each rule of this engine, and how to fix it. */
export const LANGUAGE_GUIDES: Readonly<Record<string, FixGuide>> = {
  'lang-mismatch': {
    who: 'Screen readers pick their voice and pronunciation rules from the page language: with the wrong lang, the whole page is read with another language\'s pronunciation, often unintelligibly. Braille translation, hyphenation and translation tools go wrong too.',
    fix: 'Set the lang attribute of <html> to the language the page is written in (for example lang="en" for English); if a template sets it, fix it in the template for every page.',
  },
  'lang-of-parts-mismatch': {
    who: 'Screen readers switch pronunciation at every lang attribute: a passage marked with the wrong language is read with the wrong voice and rules.',
    fix: 'Correct the lang attribute of the element to the language of its text, or remove it if the text is in the page\'s language.',
  },
  'lang-change-unmarked': {
    who: 'A passage in another language without its own lang attribute is read with the page language\'s pronunciation: screen reader users hear it mangled.',
    fix: 'Wrap the passage in an element with the lang attribute of its language (for example <p lang="fr">…</p> or <span lang="fr">…</span>). Proper names, technical terms and words that have become part of the page\'s language need no lang.',
  },
  'text-direction-mismatch': {
    who: 'Right-to-left text (Arabic, Hebrew…) laid out left to right, or left-to-right text forced right to left, shows punctuation, numbers and mixed runs in the wrong order and alignment: readers of the text, and people who zoom or translate it, meet a scrambled sequence.',
    fix: 'Give the element dir="rtl" (with its lang) when its text is written right to left, and dir="ltr" (or no dir) when it is written left to right; use dir="auto" for text you do not control.',
  },
};

/** The language engine's rules. */
export const LANGUAGE_CATALOGUE = ruleEntries('language', [
  { id: 'lang-mismatch', criteria: ['3.1.1'], severities: ['serious'] },
  { id: 'lang-of-parts-mismatch', criteria: ['3.1.2'], severities: ['moderate'] },
  { id: 'lang-change-unmarked', criteria: ['3.1.2'], severities: ['moderate'] },
  { id: 'text-direction-mismatch', criteria: ['1.3.2'], severities: ['moderate'] },
]);
