import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

export const COLOUR_RULES = {
  link: 'link-colour-only',
  field: 'field-colour-only',
} as const;

export const COLOUR_GUIDES: Readonly<Record<string, FixGuide>> = {
  [COLOUR_RULES.link]: {
    who: 'People who do not see colours well (about one man in twelve), and anyone on a washed-out screen, cannot tell this link from the text around it.',
    fix: 'Underline links in text (or give them another mark that is not colour: a border, bold, an icon), or give them a colour with at least 3:1 contrast against the text around them plus a non-colour mark on hover and focus.',
  },
  [COLOUR_RULES.field]: {
    who: 'People who do not see colours well, and screen reader users, cannot tell which fields are required or wrong when only a red border or a red label says so.',
    fix: 'Say it in text as well: "(required)" or an explained asterisk in the label, and an error message next to the field naming what is wrong (tied to it with aria-describedby); an icon with a text alternative helps too.',
  },
};

/** The colour engine's rules (1.4.1 Use of Color). */
export const COLOUR_CATALOGUE = ruleEntries('colour', [
  { id: COLOUR_RULES.link, criteria: ['1.4.1'], severities: ['serious'] },
  { id: COLOUR_RULES.field, criteria: ['1.4.1'], severities: ['serious'] },
]);
