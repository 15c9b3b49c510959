import { GUIDES as LINK_GUIDES } from './links/link-rules.ts';
import { CRAWL_CHECK_GUIDES } from '../crawl-checks/shared-titles.ts';
import { axeEngine } from './axe/axe.engine.ts';
import type { ScanEngine } from './engine.ts';
import { formsEngine, GUIDES as FORM_GUIDES } from './forms/forms.engine.ts';
import { keyboardEngine, GUIDES as KEYBOARD_GUIDES } from './keyboard/keyboard.engine.ts';
import { languageEngine, GUIDES as LANGUAGE_GUIDES } from './language/language.engine.ts';
import { mediaEngine, GUIDES as MEDIA_GUIDES } from './media/media.engine.ts';
import { pixelContrastEngine } from './pixel-contrast/pixel-contrast.engine.ts';
import { reflowEngine, GUIDES as REFLOW_GUIDES } from './reflow/reflow.engine.ts';
import { structureEngine, GUIDES as STRUCTURE_GUIDES } from './structure/structure.engine.ts';
import { targetSizeMobileEngine } from './target-size-mobile/target-size-mobile.engine.ts';
import { titleEngine, GUIDES as TITLE_GUIDES } from './title/title.engine.ts';

/**
 * The engines of a page scan, in the order they run. axe first (its findings are the floor and
 * the pixel contrast engine measures what axe left undecided); the DOM-only checks next; then the
 * checks that press keys, zoom and resize, which put the page back as they found it. Where two
 * find the same element under the same criterion, a confirmed finding wins over a needs-review
 * one, then the earlier engine's; the other rule is named in `alsoFlaggedBy`.
 */
export const DEFAULT_ENGINES: readonly ScanEngine[] = [
  axeEngine,
  pixelContrastEngine,
  formsEngine,
  structureEngine,
  languageEngine,
  titleEngine,
  mediaEngine,
  keyboardEngine,
  reflowEngine,
  targetSizeMobileEngine,
];

/** Who is affected and how to fix it, for the service's own rules (axe's are in `ai/fix-guides.ts`). */
export const ENGINE_GUIDES: Readonly<Record<string, { who: string; fix: string }>> = {
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

export type { EngineResult, PageSession, ScanEngine } from './engine.ts';
