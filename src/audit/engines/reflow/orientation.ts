import type { Page } from 'playwright';
import { MOBILE_VIEWPORT } from '../../../shared/audit-setup.ts';
import type { reflowRegistry } from './registry.ts';

/**
 * WCAG 1.3.4 Orientation, measured: the page, already loaded, is laid out at a phone's viewport in
 * portrait (screen orientation emulated too, so that resize and orientation handlers run) and
 * compared with the landscape layout the zoom check makes anyway (half the desktop window):
 * content turned a quarter turn in one of them (a transform set by CSS, ACT b33eff, or by
 * script), content hidden in one of them (a "please rotate your device" screen), and calls to `screen.orientation.lock()` since the page started
 * (recorded by an init script). The functions that run in the page use nothing from outside
 * themselves.
 */

/**
 * After a resize: two frames (resize, orientation and media-query handlers run before them), then
 * more while the page keeps changing its DOM (a handler that builds or hides content), 150 ms in
 * all at most. A handler that waits longer (a debounce) is not waited for.
 */
export async function afterResize(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const start = performance.now();
        const w = window as unknown as { __a11yLastChange?: number };
        const tick = () => {
          const now = performance.now();
          if (now - start >= 150 || now - (w.__a11yLastChange ?? 0) >= 30) resolve();
          else setTimeout(tick, 15);
        };
        requestAnimationFrame(() => requestAnimationFrame(tick));
      }),
  );
}

/** The phone viewport of the portrait state. */
export const PORTRAIT = MOBILE_VIEWPORT;

/**
 * Init script of every document (registered with the browser context): records the orientations
 * a page asks `screen.orientation.lock()` for, in `window.__a11yOrientationLocks` (at most ten).
 */
export function recordOrientationLocks(): void {
  try {
    const SO = (window as unknown as { ScreenOrientation?: { prototype: { lock?: (o: string) => Promise<void> } } }).ScreenOrientation;
    const proto = SO?.prototype;
    const lock0 = proto?.lock;
    if (!proto || typeof lock0 !== 'function') return;
    const calls: string[] = [];
    Object.defineProperty(window, '__a11yOrientationLocks', { value: calls, enumerable: false, configurable: false, writable: false });
    proto.lock = function (this: unknown, orientation: string) {
      if (calls.length < 10) calls.push(String(orientation).slice(0, 40));
      // eslint-disable-next-line prefer-rest-params
      return lock0.apply(this, arguments as unknown as [string]);
    };
  } catch {
    // a document without screen orientation: nothing to record
  }
}

/**
 * The rotation about the screen's axis, in degrees, of an element's computed `transform` (a
 * `matrix(…)` or `matrix3d(…)`) and `rotate` (`90deg`, `z 90deg`, `0 0 1 0.25turn`; a rotation
 * about another axis is not a turn of the page) properties; 0 for `none` or what cannot be read.
 */
export function rotationDegrees(transform: string, rotate: string): number {
  let deg = 0;
  const m = /^matrix(3d)?\(([^)]*)\)$/.exec(transform.trim());
  if (m) {
    const v = m[2]!.split(',').map((x) => parseFloat(x));
    // 2D: a, b, c, d, e, f; 3D: column-major, m11 m12 first.
    const a = v[0];
    const b = v[1];
    if (a !== undefined && b !== undefined && Number.isFinite(a) && Number.isFinite(b) && (a !== 0 || b !== 0)) deg += (Math.atan2(b, a) * 180) / Math.PI;
  }
  const r = rotate.trim();
  if (r && r !== 'none') {
    const parts = r.split(/\s+/);
    const angle = parts[parts.length - 1]!;
    const axis = parts.slice(0, -1);
    const aboutZ = axis.length === 0 || (axis.length === 1 && axis[0] === 'z') || (axis.length === 3 && parseFloat(axis[0]!) === 0 && parseFloat(axis[1]!) === 0 && parseFloat(axis[2]!) > 0);
    const u = /^(-?[\d.]+(?:e-?\d+)?)(deg|rad|turn|grad)$/.exec(angle);
    if (aboutZ && u) {
      const n = parseFloat(u[1]!);
      deg += u[2] === 'deg' ? n : u[2] === 'rad' ? (n * 180) / Math.PI : u[2] === 'turn' ? n * 360 : n * 0.9;
    }
  }
  return deg;
}

/** The difference of two rotations as the smallest angle between them, 0–180. */
export function turnBetween(a: number, b: number): number {
  const d = (((a - b) % 360) + 360) % 360;
  return d > 180 ? 360 - d : d;
}

export interface OrientationState {
  /** Rotation of the page's main content (html, body and the box holding most of its text), degrees. */
  rotation: number;
  /** Characters of visible text. */
  visibleText: number;
  /** The start of the visible text, for a "rotate your device" message. */
  sample: string;
  /** The element whose rotation was measured last (the innermost box holding most of the text). */
  id: number;
}

/**
 * Runs in the page: the state of its content at the current viewport. Bounded: a chain of at most
 * eight boxes for the rotation, 3 000 text nodes for the visible text.
 */
export function orientationState(registry: typeof reflowRegistry, rotationOf: typeof rotationDegrees, opts: { maxTexts: number }): OrientationState {
  const { idOf } = registry();
  const visibleCache = new Map<Element, boolean>();
  const visible = (el: Element) => {
    let v = visibleCache.get(el);
    if (v === undefined) {
      const e = el as Element & { checkVisibility?: (o: object) => boolean };
      v = e.checkVisibility ? e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) : true;
      visibleCache.set(el, v);
    }
    return v;
  };
  let visibleText = 0;
  let sample = '';
  if (document.body) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let n = 0;
    for (let t = walker.nextNode(); t && n < opts.maxTexts; t = walker.nextNode()) {
      const s = (t as Text).data.trim();
      if (!s) continue;
      n++;
      const p = t.parentElement;
      if (!p || p.closest('script, style, noscript, template') || !visible(p)) continue;
      visibleText += s.length;
      if (sample.length < 300) sample += `${s} `;
    }
  }
  const rot = (el: Element) => {
    const cs = getComputedStyle(el);
    return rotationOf(cs.transform, cs.rotate);
  };
  let rotation = rot(document.documentElement);
  let last: Element = document.documentElement;
  let box: Element | null = document.body;
  for (let depth = 0; box && depth < 8; depth++) {
    rotation += rot(box);
    last = box;
    const total: number = (box.textContent ?? '').trim().length;
    if (total === 0) break;
    let best: Element | null = null;
    let bestLen = 0;
    for (const ch of Array.from(box.children).slice(0, 200)) {
      if (ch.matches('script, style, noscript, template')) continue;
      const len = (ch.textContent ?? '').trim().length;
      if (len > bestLen) {
        best = ch;
        bestLen = len;
      }
    }
    box = best && bestLen >= 0.5 * total ? best : null;
  }
  return { rotation, visibleText, sample: sample.trim().slice(0, 300), id: idOf(last) };
}

/** Words of a screen asking to turn the device. */
const ROTATE_MESSAGE = /\b(rotate|turn)\b[^.!?]{0,40}\b(device|phone|screen|tablet|mobile)\b|\b(landscape|portrait)\s+(mode|orientation|view)\b/i;

export interface OrientationVerdict {
  type: 'confirmed' | 'needs_review';
  kind: 'rotated' | 'hidden' | 'locked';
  /** The orientation the content is turned or hidden in (for `locked`: the one asked for). */
  orientation: string;
  reason: string;
}

/**
 * Compares the page in portrait and landscape. A quarter turn (within 10°) between the two, with
 * text visible in both: `confirmed` (ACT b33eff). Visible text down to a fifth or less in one
 * orientation (at least 40 characters in the other): `confirmed` with a message asking to turn
 * the device, else `needs_review`. A call to `screen.orientation.lock()` alone: `needs_review` (a
 * video player in full screen may lock for good reason).
 */
export function orientationVerdict(portrait: OrientationState, landscape: OrientationState, locks: readonly string[]): OrientationVerdict | null {
  const turn = turnBetween(portrait.rotation, landscape.rotation);
  if (portrait.visibleText > 0 && landscape.visibleText > 0 && Math.abs(turn - 90) <= 10) {
    const inPortrait = turnBetween(portrait.rotation, 0) > turnBetween(landscape.rotation, 0);
    const where = inPortrait ? 'portrait' : 'landscape';
    return {
      type: 'confirmed',
      kind: 'rotated',
      orientation: where,
      reason: `In ${where} the content is turned by ${Math.round(inPortrait ? portrait.rotation : landscape.rotation)}° (${Math.round(inPortrait ? landscape.rotation : portrait.rotation)}° in the other orientation), so it shows as in the other orientation.`,
    };
  }
  for (const [where, s, other] of [
    ['portrait', portrait, landscape],
    ['landscape', landscape, portrait],
  ] as const) {
    if (other.visibleText >= 40 && s.visibleText <= 0.2 * other.visibleText) {
      const message = ROTATE_MESSAGE.test(s.sample);
      return {
        type: message ? 'confirmed' : 'needs_review',
        kind: 'hidden',
        orientation: where,
        reason:
          `In ${where} only ${s.visibleText} characters of text are visible, against ${other.visibleText} in the other orientation` +
          (message ? `; the page asks to turn the device: "${s.sample.slice(0, 120)}".` : '. Check whether the content is hidden in this orientation.'),
      };
    }
  }
  if (locks.length > 0) {
    return {
      type: 'needs_review',
      kind: 'locked',
      orientation: locks[0]!,
      reason: `The page calls screen.orientation.lock("${locks[0]}"), which keeps a phone or tablet in one orientation. Check that this orientation is essential (a piano app, a cheque to photograph), else the page must work in both.`,
    };
  }
  return null;
}
