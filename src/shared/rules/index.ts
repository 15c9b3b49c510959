/**
 * The rule catalogue: every rule the service reports that has its own texts, as data. Engines
 * (src/audit), enrichment and reports read it; it imports nothing but its own data, so the API
 * process can load it without loading an engine.
 */
import { AXE_GUIDES } from './axe.ts';
import { CRAWL_CHECK_GUIDES } from './crawl-checks.ts';
import { FORM_GUIDES } from './forms.ts';
import type { FixGuide } from './guide.ts';
import { KEYBOARD_GUIDES } from './keyboard.ts';
import { LANGUAGE_GUIDES } from './language.ts';
import { LINK_GUIDES } from './links.ts';
import { MEDIA_GUIDES } from './media.ts';
import { REFLOW_GUIDES } from './reflow.ts';
import { STRUCTURE_GUIDES } from './structure.ts';
import { TITLE_GUIDES } from './title.ts';

export { DEFAULT_GUIDE, type FixGuide } from './guide.ts';

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
  ...CRAWL_CHECK_GUIDES,
};

/** Why each rule matters to people and how to fix it: the service's own rules, then axe-core's. */
export const FIX_GUIDES: Readonly<Record<string, FixGuide>> = {
  ...ENGINE_GUIDES,
  ...AXE_GUIDES,
};
