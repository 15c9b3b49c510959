import { axeEngine } from './axe/axe.engine.ts';
import type { ScanEngine } from './engine.ts';
import { formsEngine } from './forms/forms.engine.ts';
import { keyboardEngine } from './keyboard/keyboard.engine.ts';
import { languageEngine } from './language/language.engine.ts';
import { mediaEngine } from './media/media.engine.ts';
import { pixelContrastEngine } from './pixel-contrast/pixel-contrast.engine.ts';
import { reflowEngine } from './reflow/reflow.engine.ts';
import { structureEngine } from './structure/structure.engine.ts';
import { targetSizeMobileEngine } from './target-size-mobile/target-size-mobile.engine.ts';
import { titleEngine } from './title/title.engine.ts';

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


export type { EngineResult, PageSession, ScanEngine } from './engine.ts';
