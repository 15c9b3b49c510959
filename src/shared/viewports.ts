import { DESKTOP_VIEWPORT, MOBILE_VIEWPORT } from './audit-setup.ts';
import type { ViewportName } from './contracts.ts';

/**
 * A crawl's viewports: each page is checked at each. `desktop` is the scan's own
 * 1280x800 window, `mobile` a phone (390x844, touch, device pixel ratio 3), a number a desktop
 * window that many CSS px wide.
 */
export const DEFAULT_VIEWPORTS: readonly ViewportName[] = ['desktop'];
export const MIN_VIEWPORT_WIDTH = 320;
export const MAX_VIEWPORT_WIDTH = 3840;
export const MAX_VIEWPORTS = 4;

/** How a browser context renders one viewport. */
export interface ViewportSetup {
  width: number;
  height: number;
  isMobile: boolean;
  hasTouch: boolean;
  deviceScaleFactor: number;
}

/**
 * A custom width is a desktop window of that width: 800 px high up to the desktop width, the
 * desktop's 16:10 beyond it (1920 is 1920x1200), no touch, device pixel ratio 1.
 */
export function viewportSetup(v: ViewportName): ViewportSetup {
  if (v === 'mobile') return { ...MOBILE_VIEWPORT, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };
  const width = v === 'desktop' ? DESKTOP_VIEWPORT.width : v;
  const height = Math.max(DESKTOP_VIEWPORT.height, Math.round((width * DESKTOP_VIEWPORT.height) / DESKTOP_VIEWPORT.width));
  return { width, height, isMobile: false, hasTouch: false, deviceScaleFactor: 1 };
}

/** A viewport's name as a string: `desktop`, `mobile` or the width (tab keys, log lines). */
export function viewportKey(v: ViewportName): string {
  return String(v);
}

/** Two names for one rendering (`desktop` and 1280) are the same viewport. */
function sameRendering(a: ViewportName, b: ViewportName): boolean {
  const x = viewportSetup(a);
  const y = viewportSetup(b);
  return x.width === y.width && x.height === y.height && x.isMobile === y.isMobile && x.hasTouch === y.hasTouch && x.deviceScaleFactor === y.deviceScaleFactor;
}

/**
 * Desktop only, as every crawl was before viewports: its findings carry no viewport, so the
 * identities of its issues are the ones they always had.
 */
export function isDesktopOnly(list: readonly ViewportName[] | null | undefined): boolean {
  return !list || list.length === 0 || (list.length === 1 && list[0] === 'desktop');
}

export function isViewportName(v: unknown): v is ViewportName {
  return v === 'desktop' || v === 'mobile' || (Number.isInteger(v) && (v as number) >= MIN_VIEWPORT_WIDTH && (v as number) <= MAX_VIEWPORT_WIDTH);
}

/** Why a list cannot be a crawl's viewports (undefined: it can): 1..4 known names or widths, none twice. */
export function viewportsProblem(list: readonly unknown[]): string | undefined {
  if (list.length < 1 || list.length > MAX_VIEWPORTS) return `give 1 to ${MAX_VIEWPORTS} viewports`;
  for (const v of list) {
    if (!isViewportName(v)) {
      return `${JSON.stringify(v)} is not a viewport: use "desktop", "mobile" or a width in CSS px, an integer from ${MIN_VIEWPORT_WIDTH} to ${MAX_VIEWPORT_WIDTH}`;
    }
  }
  const names = list as readonly ViewportName[];
  for (let i = 0; i < names.length; i++) {
    for (let j = 0; j < i; j++) {
      if (sameRendering(names[i]!, names[j]!)) {
        return names[i] === names[j] ? `${JSON.stringify(names[i])} is given twice` : `${JSON.stringify(names[j])} and ${JSON.stringify(names[i])} are the same viewport`;
      }
    }
  }
  return undefined;
}

/** The crawl's stored viewports (null: desktop only) as a list; anything else stored is desktop only too. */
export function crawlViewports(stored: unknown): ViewportName[] {
  if (!Array.isArray(stored) || viewportsProblem(stored) !== undefined) return [...DEFAULT_VIEWPORTS];
  return [...(stored as ViewportName[])];
}

/** What a crawl stores: null for desktop only (as crawls before viewports), else the list. */
export function storedViewports(list: readonly ViewportName[] | null | undefined): ViewportName[] | null {
  return isDesktopOnly(list) ? null : [...list!];
}

/**
 * The viewport a page's emulating checks (reflow's 200% and 320 px, the 390 px target sizes) run
 * at, once per page: `desktop` when the crawl has it, else its widest other window, else
 * (mobile only) `mobile`.
 */
export function emulationViewport(list: readonly ViewportName[]): ViewportName {
  if (list.includes('desktop')) return 'desktop';
  const widths = list.filter((v): v is number => typeof v === 'number');
  if (widths.length) return Math.max(...widths);
  return list[0] ?? 'desktop';
}
