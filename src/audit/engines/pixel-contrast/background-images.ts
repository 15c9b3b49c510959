import type { Page } from 'playwright';
import { findingsFromAxe, selectorFromTarget, type AxeRuleResult } from '../../findings/findings.ts';
import type { FindingDraft } from '../../../shared/findings.ts';

/**
 * axe gives up on a text's contrast (`bgImage`) as soon as an element behind it has a background
 * image, wherever that image paints: a `repeat-x` strip at the top of the page, an icon in a
 * corner, an image that failed to load. This works out where each such image can paint and lets
 * axe decide the texts no image paints under, in two steps:
 * - `withoutBrokenImages`, around axe's own run: images that paint nothing at all (they fail to
 *   load or decode; CSS paints them as transparent, the background colour still shows) are taken
 *   away for that run, which changes no pixel anywhere, so axe decides what they held up in the
 *   same pass;
 * - `decideWithoutIdleImages`, for the doubts left: see below.
 *
 * For every element with a background image that holds an undecided text (the text's element or
 * an ancestor, through shadow roots), each image layer gets the region it can paint, in page
 * coordinates:
 * - nothing, for an image that fails to load or decode;
 * - its tile's band or rectangle, for a loaded raster image of intrinsic size (`background-size:
 *   auto`) that repeats along one axis or not at all, positioned in px or %, scrolling with its
 *   element, on an element drawn as one untransformed box (an inline element on one line too);
 * - the element's whole border box for anything else (gradients, tiled or resized images, SVG,
 *   `image-set()`, fixed or local attachment, transforms, inline boxes, an image still loading).
 * A text is decided here when none of its line boxes meets any of those regions (with a margin):
 * then removing every one of those images changes no pixel under it. They are removed (inline,
 * `!important`), axe's `color-contrast` runs on those texts alone, and the page's styles are put
 * back. Texts whose regions meet, and texts axe still cannot decide, stay for the pixel
 * measurement.
 */

/** Pixels around an image's region that a text's line box must also stay clear of. */
const MARGIN = 2;
/** How long the page may take to tell whether an image loads (it is in the cache when it does). */
const PROBE_MS = 1500;

export interface ImageFreeResult {
  /** axe's verdicts on the texts decided here: violations as findings, passes as nothing. */
  findings: FindingDraft[];
  /** Selectors of the texts decided here (passed or failed): their undecided findings are replaced. */
  decided: Set<string>;
}

/** Elements of the main frame looked at for background images by `withoutBrokenImages`. */
const MAX_ELEMENTS = 50_000;

/**
 * Runs `fn` (axe's run) with the page's background images that paint nothing taken away, and puts
 * them back afterwards. Nothing under them changes: only axe's `bgImage` doubts about them go.
 */
export async function withoutBrokenImages<T>(page: Page, fn: () => Promise<T>): Promise<T> {
  const plan = (await page.evaluate(planImageFree, { scope: 'page' as const, selectors: [] as string[], margin: MARGIN, probeMs: PROBE_MS, maxElements: MAX_ELEMENTS }).catch(() => ({ eligible: [], removable: 0 }))) as Plan;
  if (!plan.removable) return fn();
  try {
    await page.evaluate(removeImages);
    return await fn();
  } finally {
    await page.evaluate(restoreImages).catch(() => {});
  }
}

/** Decides the `bgImage` texts that no background image paints under; the rest are left to the caller. */
export async function decideWithoutIdleImages(page: Page, selectors: readonly string[]): Promise<ImageFreeResult> {
  const none: ImageFreeResult = { findings: [], decided: new Set() };
  if (!selectors.length) return none;
  const plan = (await page.evaluate(planImageFree, { scope: 'texts' as const, selectors: [...selectors], margin: MARGIN, probeMs: PROBE_MS, maxElements: MAX_ELEMENTS })) as Plan;
  if (!plan.eligible.length) return none;
  let results: { violations: AxeRuleResult[]; incomplete: AxeRuleResult[] };
  try {
    await page.evaluate(removeImages);
    const include = plan.eligible.map((i) => {
      const parts = selectors[i]!.split(' >>> ');
      return parts.length > 1 ? [parts] : [parts[0]];
    });
    results = (await page.evaluate(
      (include) =>
        (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<unknown> } }).axe.run(
          { include },
          { runOnly: { type: 'rule', values: ['color-contrast'] }, resultTypes: ['violations', 'incomplete'], reporter: 'a11y-audit' },
        ),
      include,
    )) as typeof results;
  } finally {
    await page.evaluate(restoreImages).catch(() => {});
  }
  const eligible = new Set(plan.eligible.map((i) => selectors[i]!));
  const stillUndecided = new Set(results.incomplete.flatMap((r) => r.nodes.map((n) => selectorFromTarget(n.target))));
  const decided = new Set([...eligible].filter((s) => !stillUndecided.has(s)));
  const violations = results.violations
    .map((r) => ({ ...r, nodes: r.nodes.filter((n) => decided.has(selectorFromTarget(n.target))) }))
    .filter((r) => r.nodes.length > 0);
  const findings = findingsFromAxe(violations, 'confirmed', { data: { axeReason: 'bgImage', backgroundImages: 'none under the text' } });
  return { findings, decided };
}

interface Plan {
  /** Scope `texts`: indexes of the texts no background image paints under. */
  eligible: number[];
  /** Elements `removeImages` will take the background images from. */
  removable: number;
}

// ---- in the page ---------------------------------------------------------------------------------
// These run inside the page (serialised by Playwright): no closures over module scope.

interface ImageFreeState {
  bearers: Element[];
  saved: Map<Element, string | null>;
}

/**
 * Scope `texts`: finds the texts (by selector) that no background image of theirs, or of any
 * element holding one of them, paints under, and remembers those elements for `removeImages`.
 * Scope `page`: remembers the elements of the page whose every background image paints nothing.
 */
async function planImageFree({ scope, selectors, margin, probeMs, maxElements }: { scope: 'page' | 'texts'; selectors: string[]; margin: number; probeMs: number; maxElements: number }): Promise<Plan> {
  type R = [number, number, number, number]; // left, top, right, bottom (document coordinates)
  const w = window as unknown as { __a11yImageFree?: ImageFreeState };
  const sx = window.scrollX;
  const sy = window.scrollY;
  const toDoc = (r: DOMRect): R => [r.left + sx, r.top + sy, r.right + sx, r.bottom + sy];
  const meets = (a: R, b: R) => a[0] < b[2] + margin && b[0] - margin < a[2] && a[1] < b[3] + margin && b[1] - margin < a[3];
  const resolve = (sel: string): Element | null => {
    let root: Document | ShadowRoot = document;
    let el: Element | null = null;
    for (const part of sel.split(' >>> ')) {
      if (el) {
        if (!el.shadowRoot) return null; // a frame (not measured here) or no shadow root
        root = el.shadowRoot;
      }
      try {
        el = root.querySelector(part);
      } catch {
        return null;
      }
      if (!el) return null;
    }
    return el;
  };
  const parentOf = (n: Element): Element | null => {
    if (n.parentElement) return n.parentElement;
    const root = n.getRootNode();
    return root instanceof ShadowRoot ? root.host : null;
  };
  const transformed = (el: Element): boolean => {
    for (let n: Element | null = el; n; n = parentOf(n)) {
      const cs = getComputedStyle(n);
      if (cs.transform !== 'none' || cs.rotate !== 'none' || cs.scale !== 'none' || cs.translate !== 'none' || (cs.zoom && cs.zoom !== '1')) return true;
    }
    return false;
  };

  /** Top-level comma-separated items of a computed list value (commas inside parentheses or quotes kept). */
  const splitList = (v: string): string[] => {
    const out: string[] = [];
    let depth = 0;
    let quote = '';
    let cur = '';
    for (const ch of v) {
      if (quote) {
        if (ch === quote) quote = '';
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '(') depth++;
      else if (ch === ')') depth--;
      else if (ch === ',' && depth === 0) {
        out.push(cur.trim());
        cur = '';
        continue;
      }
      cur += ch;
    }
    if (cur.trim()) out.push(cur.trim());
    return out;
  };

  // What each image URL turns out to be: broken (paints nothing), a size, or unknown.
  type Probe = { kind: 'broken' } | { kind: 'size'; w: number; h: number } | { kind: 'unknown' };
  const probes = new Map<string, Promise<Probe>>();
  const probe = (url: string): Promise<Probe> => {
    let p = probes.get(url);
    if (!p) {
      p = new Promise<Probe>((done) => {
        const img = new Image();
        const timer = setTimeout(() => done({ kind: 'unknown' }), probeMs);
        img.src = url;
        img.decode().then(
          () => {
            clearTimeout(timer);
            // No intrinsic size (an SVG without one): its painted size is not known here.
            done(img.naturalWidth > 0 && img.naturalHeight > 0 && !/\.svgz?(\?|#|$)/i.test(url) ? { kind: 'size', w: img.naturalWidth, h: img.naturalHeight } : { kind: 'unknown' });
          },
          () => {
            clearTimeout(timer);
            done({ kind: 'broken' });
          },
        );
      });
      probes.set(url, p);
    }
    return p;
  };
  const px = (v: string | undefined): number | undefined => (v !== undefined && /^-?[\d.]+px$/.test(v) ? parseFloat(v) : undefined);
  const pct = (v: string | undefined): number | undefined => (v !== undefined && /^-?[\d.]+%$/.test(v) ? parseFloat(v) / 100 : undefined);

  /** The regions an element's background images can paint (an empty list: none paints). */
  const urlOf = (layer: string): string | undefined => {
    const m = /^url\((?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^)]*))\)$/.exec(layer);
    return m ? (m[1] ?? m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1') : undefined;
  };
  const regionsOf = async (el: Element): Promise<R[]> => {
    const cs = getComputedStyle(el);
    const border = el.getBoundingClientRect();
    const whole: R[] = [toDoc(border)];
    if (border.width <= 0 || border.height <= 0) return [];
    // Layer i goes with item i of the other background lists, so `none` layers keep their place.
    const layers = splitList(cs.backgroundImage);
    const urls = layers.map(urlOf);
    const sizes = await Promise.all(
      layers.map((l, i) => (l === 'none' ? Promise.resolve<Probe>({ kind: 'broken' }) : urls[i] ? probe(urls[i]!) : Promise.resolve<Probe>({ kind: 'unknown' }))),
    );
    // Every layer nothing or an image that fails to load: nothing paints, whatever the element's geometry.
    if (sizes.every((p) => p.kind === 'broken')) return [];
    // An inline box broken over lines paints each fragment on its own: only one fragment is worked out.
    if (el.getClientRects().length !== 1 || transformed(el)) return whole;
    const pick = (list: string, i: number) => {
      const items = splitList(list);
      return items.length ? items[i % items.length] : undefined;
    };
    const out: R[] = [];
    for (let i = 0; i < layers.length; i++) {
      const img = sizes[i]!;
      if (img.kind === 'broken') continue;
      if (urls[i] === undefined) return whole; // a gradient, image-set(), cross-fade(), …
      if (img.kind === 'unknown') return whole;
      const size = pick(cs.backgroundSize, i);
      const attachment = pick(cs.backgroundAttachment, i);
      if ((size !== 'auto' && size !== 'auto auto') || attachment !== 'scroll') return whole;
      const repeat = (pick(cs.backgroundRepeat, i) ?? 'repeat').split(/\s+/);
      const rx = repeat[0]!;
      const ry = repeat[1] ?? (rx === 'repeat-x' ? 'no-repeat' : rx === 'repeat-y' ? 'repeat' : rx);
      const repeatX = rx === 'repeat-x' ? true : rx === 'repeat-y' ? false : rx === 'repeat';
      const repeatY = rx === 'repeat-y' ? true : rx === 'repeat-x' ? false : ry === 'repeat';
      if (![rx, ry].every((v) => ['repeat', 'no-repeat', 'repeat-x', 'repeat-y'].includes(v)) || (repeatX && repeatY)) return whole;
      // The positioning area (background-origin) inside the border box.
      const n = (p: string) => parseFloat(cs.getPropertyValue(p)) || 0;
      const origin = pick(cs.backgroundOrigin, i) ?? 'padding-box';
      const inset = origin === 'border-box' ? [0, 0, 0, 0] : [n('border-left-width'), n('border-top-width'), n('border-right-width'), n('border-bottom-width')];
      if (origin === 'content-box') {
        inset[0]! += n('padding-left');
        inset[1]! += n('padding-top');
        inset[2]! += n('padding-right');
        inset[3]! += n('padding-bottom');
      }
      const box = toDoc(border);
      const area: R = [box[0] + inset[0]!, box[1] + inset[1]!, box[2] - inset[2]!, box[3] - inset[3]!];
      const posX = pick(cs.backgroundPositionX, i);
      const posY = pick(cs.backgroundPositionY, i);
      const offset = (v: string | undefined, room: number) => px(v) ?? (pct(v) !== undefined ? pct(v)! * room : undefined);
      const ox = offset(posX, area[2] - area[0] - img.w);
      const oy = offset(posY, area[3] - area[1] - img.h);
      if (ox === undefined || oy === undefined) return whole;
      const x0 = area[0] + ox;
      const y0 = area[1] + oy;
      // Painted within the border box (background-clip border-box at most).
      const region: R = [repeatX ? box[0] : x0, repeatY ? box[1] : y0, repeatX ? box[2] : x0 + img.w, repeatY ? box[3] : y0 + img.h];
      const clipped: R = [Math.max(region[0], box[0]), Math.max(region[1], box[1]), Math.min(region[2], box[2]), Math.min(region[3], box[3])];
      if (clipped[2] > clipped[0] && clipped[3] > clipped[1]) out.push(clipped);
    }
    return out;
  };

  const textRects = (el: Element): R[] => {
    const rects: R[] = [];
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
      rects.push(toDoc(el.getBoundingClientRect()));
    } else {
      const range = document.createRange();
      for (const node of Array.from(el.childNodes)) {
        if (node.nodeType !== Node.TEXT_NODE || !/\S/.test(node.textContent ?? '')) continue;
        range.selectNodeContents(node);
        for (const r of Array.from(range.getClientRects())) if (r.width > 0 && r.height > 0) rects.push(toDoc(r));
      }
    }
    return rects;
  };

  if (scope === 'page') {
    // Shadow roots are not entered here: their images stay, and so do axe's doubts about them.
    const all = document.getElementsByTagName('*');
    const broken: Element[] = [];
    for (let i = 0; i < all.length && i < maxElements; i++) {
      const el = all[i]!;
      if (getComputedStyle(el).backgroundImage === 'none') continue;
      if (!(await regionsOf(el)).length) broken.push(el);
    }
    w.__a11yImageFree = { bearers: broken, saved: new Map() };
    return { eligible: [], removable: broken.length };
  }
  const els = selectors.map(resolve);
  const bearers = new Set<Element>();
  for (const el of els) {
    for (let n: Element | null = el; n; n = parentOf(n)) if (getComputedStyle(n).backgroundImage !== 'none') bearers.add(n);
  }
  const regions: R[] = [];
  for (const b of bearers) regions.push(...(await regionsOf(b)));
  const eligible: number[] = [];
  els.forEach((el, i) => {
    if (!el) return;
    const rects = textRects(el);
    if (rects.length && !rects.some((r) => regions.some((g) => meets(r, g)))) eligible.push(i);
  });
  w.__a11yImageFree = { bearers: [...bearers], saved: new Map() };
  return { eligible, removable: bearers.size };
}

/** Takes away the background images `planImageFree` found (none paints under a text it decided). */
function removeImages(): void {
  const state = (window as unknown as { __a11yImageFree?: ImageFreeState }).__a11yImageFree;
  if (!state) return;
  for (const el of state.bearers) {
    if (!(el instanceof HTMLElement || el instanceof SVGElement) || state.saved.has(el)) continue;
    state.saved.set(el, el.getAttribute('style'));
    el.style.setProperty('transition', 'none', 'important');
    el.style.setProperty('background-image', 'none', 'important');
  }
}

/** Puts the page's styles back, transitions off until the restored styles are in effect (see restoreTexts). */
function restoreImages(): void {
  const w = window as unknown as { __a11yImageFree?: ImageFreeState };
  const state = w.__a11yImageFree;
  if (!state) return;
  for (const [el, style] of state.saved) {
    if (style === null) el.removeAttribute('style');
    else el.setAttribute('style', style);
    (el as HTMLElement).style.setProperty('transition', 'none', 'important');
  }
  for (const el of state.saved.keys()) void getComputedStyle(el).backgroundImage; // reading it makes the browser apply the style now
  for (const [el, style] of state.saved) {
    if (style === null) el.removeAttribute('style');
    else el.setAttribute('style', style);
  }
  delete w.__a11yImageFree;
}
