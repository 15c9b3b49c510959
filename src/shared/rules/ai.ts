import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

/**
 * The rules of AI-assisted judgement (src/enrichment/judge): a configured model's answer on a
 * candidate the scan collected. Always `needs_review`: a model's word alone never confirms a failure.
 */
export const AI_GUIDES: Readonly<Record<string, FixGuide>> = {
  'ai-alt-text-quality': {
    who: 'Screen reader users hear the alt text instead of seeing the image: alt text that does not say what the image shows or does (a file name, "image", a caption of something else) leaves them without its information.',
    fix: 'Write alt text that gives the image\'s information or function in its context, as a sighted reader would take it in; use alt="" only where the image adds nothing the surrounding text does not say.',
  },
  'ai-link-purpose': {
    who: 'Screen reader users often move from link to link or list the links of a page: a link whose text and context do not say where it leads makes them guess or follow it to find out.',
    fix: 'Make the link text (or the text of its sentence, list item or table cell) say where the link leads, for example "Opening hours of the library" instead of "click here".',
  },
  'ai-heading-descriptive': {
    who: 'People who skim a page, and screen reader users who jump from heading to heading, rely on headings to find their way: a heading that does not describe its section misleads them.',
    fix: 'Reword the heading so that it says what its section is about.',
  },
  'ai-label-descriptive': {
    who: 'A label that does not say what the field expects leaves everyone, and people with cognitive disabilities most, guessing what to enter.',
    fix: 'Reword the label so that it says what the field is for and, where it helps, the format expected.',
  },
  'ai-page-title': {
    who: 'The title is the first thing a screen reader announces and what every tab and bookmark shows: a title that does not describe the page leaves people unable to tell where they are.',
    fix: 'Give the page a title that says what it is about, most specific part first, then the site name.',
  },
  'ai-language-of-parts': {
    who: 'Screen readers read a passage in the page\'s language unless it is marked otherwise: a passage in another language is then read with the wrong pronunciation and is hard or impossible to understand.',
    fix: 'Mark the passage with the lang attribute of its language, for example <span lang="fr">…</span>.',
  },
  'ai-sensory-instructions': {
    who: 'People who cannot see the page, or cannot tell colours apart, cannot follow an instruction that only names a shape, colour, size, position or sound ("press the round button on the right").',
    fix: 'Add a way to find the thing that does not depend on the senses, such as its text or label ("press the round Submit button on the right").',
  },
};

/** The judgement rules, one per kind of candidate; engine `ai`. */
export const AI_CATALOGUE = ruleEntries('ai', [
  { id: 'ai-alt-text-quality', criteria: ['1.1.1'], severities: ['serious'] },
  { id: 'ai-link-purpose', criteria: ['2.4.4'], severities: ['serious'] },
  { id: 'ai-heading-descriptive', criteria: ['2.4.6'], severities: ['moderate'] },
  { id: 'ai-label-descriptive', criteria: ['2.4.6'], severities: ['moderate'] },
  { id: 'ai-page-title', criteria: ['2.4.2'], severities: ['moderate'] },
  { id: 'ai-language-of-parts', criteria: ['3.1.2'], severities: ['serious'] },
  { id: 'ai-sensory-instructions', criteria: ['1.3.3'], severities: ['serious'] },
]);
