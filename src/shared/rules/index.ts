/**
 * The rule catalogue, as data: every rule the service reports (id, engine, WCAG criteria and
 * levels, severities) and, where it has them, its texts (who is affected, how to fix it). Engines
 * (src/audit), enrichment and reports read it; it imports nothing outside src/shared, so the API
 * process can load it without loading an engine, axe or a browser.
 */
import { AI_CATALOGUE, AI_GUIDES } from './ai.ts';
import { AXE_CATALOGUE, AXE_GUIDES, TARGET_SIZE_MOBILE_CATALOGUE } from './axe.ts';
import { COLOUR_CATALOGUE, COLOUR_GUIDES } from './colour.ts';
import { CRAWL_CHECK_CATALOGUE, CRAWL_CHECK_GUIDES } from './crawl-checks.ts';
import { DOCUMENT_CATALOGUE, DOCUMENT_GUIDES } from './documents.ts';
import type { RuleEntry } from './entry.ts';
import { FORM_CATALOGUE, FORM_GUIDES } from './forms.ts';
import type { FixGuide } from './guide.ts';
import { KEYBOARD_CATALOGUE, KEYBOARD_GUIDES } from './keyboard.ts';
import { LANGUAGE_CATALOGUE, LANGUAGE_GUIDES } from './language.ts';
import { LINK_CATALOGUE, LINK_GUIDES } from './links.ts';
import { MEDIA_CATALOGUE, MEDIA_GUIDES } from './media.ts';
import { REFLOW_CATALOGUE, REFLOW_GUIDES } from './reflow.ts';
import { STRUCTURE_CATALOGUE, STRUCTURE_GUIDES } from './structure.ts';
import { TITLE_CATALOGUE, TITLE_GUIDES } from './title.ts';

export { DEFAULT_GUIDE, type FixGuide } from './guide.ts';
export type { RuleEntry } from './entry.ts';
export { AXE_RULE_CRITERIA } from './axe-criteria.ts';
export { AXE_ALSO_FAILS, AXE_ALSO_FAILS_IMAGE_CONTROL, AXE_BEST_PRACTICE_CRITERIA, holdsImage } from './axe-also-fails.ts';

/** Who is affected and how to fix it, for the service's own rules. */
export const ENGINE_GUIDES: Readonly<Record<string, FixGuide>> = {
  ...LINK_GUIDES,
  ...FORM_GUIDES,
  ...STRUCTURE_GUIDES,
  ...LANGUAGE_GUIDES,
  ...TITLE_GUIDES,
  ...MEDIA_GUIDES,
  ...KEYBOARD_GUIDES,
  ...REFLOW_GUIDES,
  ...COLOUR_GUIDES,
  ...CRAWL_CHECK_GUIDES,
  ...DOCUMENT_GUIDES,
  ...AI_GUIDES,
};

/** Why each rule matters to people and how to fix it: the service's own rules, then axe-core's. */
export const FIX_GUIDES: Readonly<Record<string, FixGuide>> = {
  ...ENGINE_GUIDES,
  ...AXE_GUIDES,
};

/** A catalogue entry with its guide: null where the catalogue has no texts for the rule. */
export interface CatalogueRule extends RuleEntry {
  readonly guide: FixGuide | null;
}

/** The service's own rules, engine by engine (in the order of `ENGINE_GUIDES`). */
export const ENGINE_RULES: readonly RuleEntry[] = Object.freeze([
  ...LINK_CATALOGUE,
  ...FORM_CATALOGUE,
  ...STRUCTURE_CATALOGUE,
  ...LANGUAGE_CATALOGUE,
  ...TITLE_CATALOGUE,
  ...MEDIA_CATALOGUE,
  ...KEYBOARD_CATALOGUE,
  ...REFLOW_CATALOGUE,
  ...COLOUR_CATALOGUE,
  ...CRAWL_CHECK_CATALOGUE,
  ...DOCUMENT_CATALOGUE,
  ...AI_CATALOGUE,
]);

/** Every rule the service can report: its own rules, axe-core's, and axe's target size at a phone's width. */
export const RULES: ReadonlyMap<string, CatalogueRule> = new Map(
  [...ENGINE_RULES, ...AXE_CATALOGUE, ...TARGET_SIZE_MOBILE_CATALOGUE].map((e) => [e.id, Object.freeze({ ...e, guide: FIX_GUIDES[e.id] ?? null })]),
);

/** The catalogue's entry for a rule id; undefined for a rule the service does not report. */
export function ruleEntry(id: string): CatalogueRule | undefined {
  return RULES.get(id);
}
