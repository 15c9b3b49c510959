import type { ViewportName } from '../../shared/contracts.ts';
import { emulationViewport, isDesktopOnly } from '../../shared/viewports.ts';
import { axeEngine } from './axe/axe.engine.ts';
import { colourEngine } from './colour/colour.engine.ts';
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
  colourEngine,
  formsEngine,
  structureEngine,
  languageEngine,
  titleEngine,
  mediaEngine,
  keyboardEngine,
  reflowEngine,
  targetSizeMobileEngine,
];

/**
 * The engines of one viewport's run, on a crawl that checks each page at `viewports`. Desktop
 * alone runs them all. The checks that emulate another window themselves (reflow's 200% zoom and
 * 320 px, the 390 px target sizes) run once per page, at `emulationViewport` (desktop when the
 * crawl has it): at every viewport they would report one barrier once per viewport. With a real
 * `mobile` viewport the 390 px emulation is left out altogether: the phone's own run (axe's
 * target-size among the rest) finds what it found, and more.
 */
export function enginesForViewport(engines: readonly ScanEngine[], viewport: ViewportName, viewports: readonly ViewportName[]): readonly ScanEngine[] {
  if (isDesktopOnly(viewports)) return engines;
  const emulating = viewport === emulationViewport(viewports);
  return engines.filter((e) => {
    if (e.id === targetSizeMobileEngine.id) return emulating && !viewports.includes('mobile');
    if (e.id === reflowEngine.id) return emulating;
    return true;
  });
}

export type { EngineResult, PageSession, ScanEngine } from './engine.ts';
