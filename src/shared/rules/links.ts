import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

/** Who is affected and how to fix it, per rule (merged into the fix guides). */
export const LINK_GUIDES: Readonly<Record<string, FixGuide>> = {
  'link-text-generic': {
    who: 'Screen reader users often list all links of a page, and keyboard users tab from link to link; "click here" or "read more" then says nothing about where each goes.',
    fix: 'Rewrite the link text so that it names its destination ("Read the 2025 annual report"), or put the link in a sentence, list item or table cell that names it; visually hidden words inside the link also work.',
  },
  'link-identical-name-different-purpose': {
    who: 'Screen reader and voice control users meet these links by their name; when links with the same name and the same surrounding text go to different places, they cannot tell which one they want, and a voice command matches them all.',
    fix: 'Give each link a name that says where it goes ("Contact us by chat", "Contact us by phone"), or make them go to the same page. Links that lead to the same content under different addresses can keep the same name.',
  },
  'link-href-no-destination': {
    who: 'Screen reader users hear "link" and expect to go somewhere; when the link instead opens a menu, submits or changes the page, they are surprised, voice control users may not find it by the word "button", and keyboard users find that Space does nothing (links answer Enter only).',
    fix: 'Use a <button type="button"> for anything that acts on the page (opens, toggles, submits, plays) and keep <a href> for going somewhere, with the real address in href. Never use href="#" or href="javascript:…" for an action; if a link must stay, give it the address it goes to.',
  },
};

/**
 * The link rules, registered into axe (src/audit/engines/links/link-rules.ts): their criterion
 * comes from their axe tags (`wcag244`), their severity from their impact (`serious`).
 */
export const LINK_CATALOGUE = ruleEntries('links', [
  { id: 'link-text-generic', criteria: ['2.4.4'], severities: ['serious'] },
  { id: 'link-identical-name-different-purpose', criteria: ['2.4.4'], severities: ['serious'] },
  { id: 'link-href-no-destination', criteria: ['4.1.2'], severities: ['serious'] },
]);
