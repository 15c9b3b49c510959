import type { CDPSession, Page } from 'playwright';
import type { FindingDraft } from '../../../shared/findings.ts';
import { floor2, fontSizeLabel, minimumRatio, parseCssColour, toHex } from './luminance.ts';
import { decide, measureText, type Foreground, type Measurement, type TextLine, type Verdict } from './measure.ts';
import { decideWithoutIdleImages } from './background-images.ts';
import { captureRegion, type RgbImage } from './png.ts';
import { ownFinding, understandingUrl, type EngineResult, type PageSession, type ScanEngine } from '../engine.ts';

/**
 * Colour contrast (1.4.3) decided by rendered pixels, for the text axe left undecided (background
 * images, gradients, overlapping boxes, pseudo content, alpha colours, …).
 *
 * The page is captured twice over the boxes of all undecided texts at once: as rendered, and with
 * those texts' fill made transparent (colour, `-webkit-text-fill-color` and decoration colour; text
 * shadows stay, since a halo is part of the text's background). Pixels that differ are glyph
 * pixels; the background is read from the second capture. `contrast/measure.ts` explains the
 * statistics. The verdict: confirmed when even the most favourable background fails the ratio,
 * axe's finding dropped when the least favourable passes, `needs_review` with the measured range
 * when it straddles the threshold.
 *
 * Captures go through Chromium's DevTools protocol (`captureBeyondViewport`, so nothing scrolls
 * and texts below the first screen are measured where the page lays them out); the page's own
 * styles are put back afterwards, transitions included. SVG text is measured by its `fill`.
 *
 * Left untouched (axe's finding stays as it was): texts in frames, texts not rendered or without a
 * box, texts covered by other content, clipped, or exactly the colour of their background (no
 * glyph pixels: not visible in ACT's sense, but axe's doubt stays), texts over video, canvas,
 * frames, images not loaded yet or running animations, axe's "not text" cases (`nonBmp`,
 * `emptyValue`), and anything beyond the caps below. Very short content (axe's
 * `shortTextContent`: maybe an icon) is dropped when it passes, never confirmed.
 */

/**
 * Undecided texts measured per page; axe's findings beyond that stay as they are. Long generated
 * pages (an API reference, an index) have thousands: at 300, a third of ipython-docs' undecided
 * texts were never measured. 5,000 costs about 7 s on a 3,500-text index page here.
 */
export const MAX_ELEMENTS = 5000;
/** `bgImage` texts checked for images that paint nowhere near them (a cheap step: no captures). */
const MAX_IMAGE_FREE = 20_000;
/** Line boxes per text: longer texts (a whole article in one element) stay as axe left them. */
const MAX_LINES = 200;
/** One capture is at most this tall (CSS px); texts taller than that are not measured. */
const MAX_CAPTURE_HEIGHT = 4000;
/** Rows of empty page between texts that start a new capture instead of widening the current one. */
const MAX_GAP = 300;
/** Pixels captured per rendering, over all captures of the page. */
const MAX_CAPTURE_AREA = 40_000_000; // 160 MB per rendering as RGBA, freed after each page

/** axe's reasons that are not about colours pixels can measure. */
const NOT_MEASURABLE = new Set(['nonBmp', 'emptyValue']);
/** axe is unsure these are text at all (an icon glyph?): a pass drops them, a failure stays for review. */
const MAYBE_NOT_TEXT = new Set(['shortTextContent']);

const RULE = 'color-contrast';

interface Candidate {
  finding: FindingDraft;
  axeReason?: string;
}

/** What the page says about one undecided text. */
type Probe =
  | { skip: string }
  | {
      /** Line boxes of the text, document coordinates (CSS px). */
      rects: Array<[number, number, number, number]>;
      color: string;
      textFill: string;
      fontSizePx: number;
      fontWeight: number;
      /** Opacity, filter or blend mode on the text or an ancestor, or `background-clip: text`: the CSS colour is not what shows. */
      effects: boolean;
    };

interface Capture {
  x: number;
  y: number;
  width: number;
  height: number;
  shown?: RgbImage;
  hidden?: RgbImage;
}

export const pixelContrastEngine: ScanEngine = {
  id: 'pixel-contrast',
  stage: 'CustomChecks',
  async run(session: PageSession): Promise<EngineResult> {
    const undecided: Candidate[] = session.earlier
      .filter((f) => f.ruleId === RULE && f.type === 'needs_review' && f.data.engine === 'axe')
      .map((f) => ({ finding: f, axeReason: (f.data.review as { messageKey?: string } | undefined)?.messageKey }))
      .filter((c) => !c.axeReason || !NOT_MEASURABLE.has(c.axeReason));
    if (!undecided.length) return { findings: [] };
    // Background images first: texts no image paints under are decided by axe itself, without pixels.
    const bgImage = undecided.filter((c) => c.axeReason === 'bgImage').slice(0, MAX_IMAGE_FREE);
    const free = await decideWithoutIdleImages(session.page, bgImage.map((c) => c.finding.elementSelector));
    const measured = await measurePixels(
      session,
      undecided.filter((c) => !free.decided.has(c.finding.elementSelector)).slice(0, MAX_ELEMENTS),
    );
    return {
      findings: [...free.findings, ...measured.findings],
      supersedes: [...[...free.decided].map((selector) => ({ ruleId: RULE, selector })), ...(measured.supersedes ?? [])],
    };
  },
};

/** The pixel measurement of the texts left undecided. */
async function measurePixels(session: PageSession, candidates: Candidate[]): Promise<EngineResult> {
  const { page } = session;
  if (!candidates.length) return { findings: [] };

  const probes = (await page.evaluate(probeTexts, candidates.map((c) => c.finding.elementSelector))) as Probe[];
  const captures = planCaptures(probes);
  if (!captures.list.length) {
    await page.evaluate(forgetTexts).catch(() => {});
    return { findings: [] };
  }
  let cdp: CDPSession | undefined;
  let moved = new Set<number>();
  try {
    cdp = await page.context().newCDPSession(page);
    for (const c of captures.list) {
      session.signal?.throwIfAborted();
      c.shown = await captureRegion(cdp, c).catch(() => undefined);
    }
    await page.evaluate(hideTexts, captures.measured);
    try {
      await nextFrames(page);
      for (const c of captures.list) {
        session.signal?.throwIfAborted();
        if (c.shown) c.hidden = await captureRegion(cdp, c).catch(() => undefined);
      }
    } finally {
      await page.evaluate(restoreTexts).catch(() => {});
    }
    // The page moved under the captures (a late font, an inserted banner): those texts stay as axe left them.
    moved = new Set(await page.evaluate(movedTexts, captures.measured).catch(() => captures.measured));
  } finally {
    await page.evaluate(forgetTexts).catch(() => {});
    await cdp?.detach().catch(() => {});
  }

  const findings: FindingDraft[] = [];
  const supersedes: EngineResult['supersedes'] = [];
  for (const idx of captures.measured) {
    if (moved.has(idx)) continue;
    try {
      const probe = probes[idx]!;
      if ('skip' in probe) continue;
      const lines = captures.linesOf(idx);
      if (!lines) continue;
      const result = measureText(lines, foregroundOf(probe));
      if (!result.ok) continue;
      const m = result.measurement;
      const threshold = minimumRatio(probe.fontSizePx, probe.fontWeight);
      const cand = candidates[idx]!;
      let verdict: Verdict = decide(m, threshold);
      if (verdict === 'confirmed' && cand.axeReason && MAYBE_NOT_TEXT.has(cand.axeReason)) verdict = 'needs_review';
      supersedes.push({ ruleId: RULE, selector: cand.finding.elementSelector });
      if (verdict === 'passed') continue;
      findings.push(findingFor(cand, probe, m, threshold, verdict));
    } catch {
      // one odd element must not cost the others their measurement
    }
  }
  return { findings, supersedes };
}

// ---- captures ------------------------------------------------------------------------------------

async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

interface Plan {
  list: Capture[];
  /** Indexes of the probes whose every line box lies in a capture. */
  measured: number[];
  linesOf(idx: number): TextLine[] | undefined;
}

/**
 * Groups the texts' line boxes into as few captures as the caps allow: sorted top to bottom, a
 * capture grows while it stays under MAX_CAPTURE_HEIGHT and no gap larger than MAX_GAP opens.
 */
export function planCaptures(probes: readonly Probe[]): Plan {
  type Box = { idx: number; x0: number; y0: number; x1: number; y1: number; cap?: Capture };
  const boxes: Box[] = [];
  probes.forEach((p, idx) => {
    if ('skip' in p || !p.rects.length || p.rects.length > MAX_LINES) return;
    for (const [x, y, w, h] of p.rects) {
      boxes.push({ idx, x0: Math.max(0, Math.floor(x)), y0: Math.max(0, Math.floor(y)), x1: Math.ceil(x + w), y1: Math.ceil(y + h) });
    }
  });
  boxes.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const list: Capture[] = [];
  let area = 0;
  let cur: { boxes: Box[]; y0: number; y1: number; x0: number; x1: number } | undefined;
  const close = () => {
    if (!cur) return;
    const c: Capture = { x: cur.x0, y: cur.y0, width: cur.x1 - cur.x0, height: cur.y1 - cur.y0 };
    if (c.width > 0 && c.height > 0 && area + c.width * c.height <= MAX_CAPTURE_AREA) {
      area += c.width * c.height;
      list.push(c);
      for (const b of cur.boxes) b.cap = c;
    }
    cur = undefined;
  };
  for (const b of boxes) {
    if (b.y1 - b.y0 > MAX_CAPTURE_HEIGHT || b.x1 <= b.x0) continue;
    if (cur && (b.y0 - cur.y1 > MAX_GAP || Math.max(cur.y1, b.y1) - cur.y0 > MAX_CAPTURE_HEIGHT)) close();
    if (!cur) cur = { boxes: [], y0: b.y0, y1: b.y1, x0: b.x0, x1: b.x1 };
    cur.boxes.push(b);
    cur.y1 = Math.max(cur.y1, b.y1);
    cur.x0 = Math.min(cur.x0, b.x0);
    cur.x1 = Math.max(cur.x1, b.x1);
  }
  close();
  const byIdx = new Map<number, Box[]>();
  for (const b of boxes) byIdx.set(b.idx, [...(byIdx.get(b.idx) ?? []), b]);
  const measured = [...byIdx.entries()]
    .filter(([idx, bs]) => bs.length === (probes[idx] as { rects: unknown[] }).rects.length && bs.every((b) => b.cap))
    .map(([idx]) => idx)
    .sort((a, b) => a - b);
  return {
    list,
    measured,
    linesOf(idx) {
      const out: TextLine[] = [];
      for (const b of byIdx.get(idx) ?? []) {
        const c = b.cap;
        if (!c?.shown || !c.hidden) return undefined;
        const line = crop(c, b);
        if (line) out.push(line);
      }
      return out.length ? out : undefined;
    },
  };
}

/** The part of a capture under one line box (the capture may have been taken at another scale). */
function crop(c: Capture, b: { x0: number; y0: number; x1: number; y1: number }): TextLine | undefined {
  const shown = c.shown!;
  const hidden = c.hidden!;
  if (shown.width !== hidden.width || shown.height !== hidden.height) return undefined;
  const sx = shown.width / c.width;
  const sy = shown.height / c.height;
  const x0 = Math.max(0, Math.floor((b.x0 - c.x) * sx));
  const y0 = Math.max(0, Math.floor((b.y0 - c.y) * sy));
  const x1 = Math.min(shown.width, Math.ceil((b.x1 - c.x) * sx));
  const y1 = Math.min(shown.height, Math.ceil((b.y1 - c.y) * sy));
  const width = x1 - x0;
  const height = y1 - y0;
  if (width <= 0 || height <= 0) return undefined;
  const s = new Uint8Array(width * height * 3);
  const h = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const from = ((y0 + y) * shown.width + x0) * 3;
    s.set(shown.data.subarray(from, from + width * 3), y * width * 3);
    h.set(hidden.data.subarray(from, from + width * 3), y * width * 3);
  }
  return { width, height, shown: s, hidden: h };
}

function foregroundOf(p: Extract<Probe, { rects: unknown }>): Foreground {
  if (p.effects) return { kind: 'unknown' };
  const c = parseCssColour(p.color);
  const fill = parseCssColour(p.textFill);
  // -webkit-text-fill-color paints the glyphs when it is set; it computes to `color` otherwise.
  const paint = fill ?? c;
  if (!paint || paint.alpha <= 0) return { kind: 'unknown' };
  return { kind: 'css', rgb: paint.rgb, alpha: paint.alpha };
}

// ---- the finding ---------------------------------------------------------------------------------

function findingFor(cand: Candidate, probe: Extract<Probe, { rects: unknown }>, m: Measurement, threshold: number, verdict: Exclude<Verdict, 'passed'>): FindingDraft {
  const range: [number, number] = [floor2(m.minRatio), floor2(m.maxRatio)];
  const expected = `${threshold}:1`;
  const fg = toHex(m.fg);
  const worst = toHex(m.worstBg);
  const best = toHex(m.bestBg);
  const size = fontSizeLabel(probe.fontSizePx);
  const text = `${threshold === 3 ? 'large' : 'normal'} text, ${size}, weight ${probe.fontWeight}`;
  const span = range[0] === range[1] ? `${range[0]}:1` : `${range[0]}:1 to ${range[1]}:1`;
  const bgs = worst === best ? worst : `${worst} to ${best}`;
  const css = parseCssColour(probe.color);
  const maybeIcon = !!cand.axeReason && MAYBE_NOT_TEXT.has(cand.axeReason) && range[1] < threshold;
  const why: 'maybeIcon' | 'fgUncertain' | 'bgStraddles' = maybeIcon ? 'maybeIcon' : m.fgUncertain ? 'fgUncertain' : 'bgStraddles';
  let failureSummary: string;
  if (verdict === 'confirmed') {
    failureSummary = `Measured on the rendered page, the text (${fg}) has a contrast of ${span} against its background (${bgs}); it needs ${expected} (${text}), and fails even where the background is most favourable.`;
  } else if (why === 'maybeIcon') {
    failureSummary = `Measured on the rendered page, the contrast is ${span} (text ${fg} on ${bgs}); text needs ${expected}, but the content is so short it may be an icon rather than text. If it is text, it fails.`;
  } else if (why === 'fgUncertain') {
    failureSummary = `The text shows fainter than ${css ? `its colour ${toHex(css.rgb)}` : 'its colour'} (a translucent layer over it, a blend or filter, or very thin glyphs): measured on the rendered page, its contrast is between ${range[0]}:1 and ${range[1]}:1 against ${bgs}, and it needs ${expected} (${text}). Check it by eye.`;
  } else {
    failureSummary = `Measured on the rendered page, the text (${fg}) has a contrast of ${range[0]}:1 over the least favourable part of its background (${worst}) and ${range[1]}:1 over the most favourable (${best}); it needs ${expected} (${text}), so part of the text meets it and part does not.`;
  }
  const prior = cand.finding.data;
  return ownFinding({
    ruleId: RULE,
    type: verdict,
    severity: cand.finding.severity,
    criterion: '1.4.3',
    selector: cand.finding.elementSelector,
    html: cand.finding.elementHtml,
    help: 'Make text stand out from its background',
    description:
      'Text, as rendered over its background (images, gradients and overlapping boxes included), has a contrast ratio of at least 4.5:1, or 3:1 for large text (24px, or 18.66px bold).',
    failureSummary,
    helpUrl: understandingUrl('contrast-minimum'),
    data: {
      contrast: {
        fgColor: fg,
        bgColor: worst,
        contrastRatio: range[0],
        expectedContrastRatio: expected,
        fontSize: size,
        fontWeight: String(probe.fontWeight),
        ratioRange: range,
        measuredBy: 'pixels',
        samples: m.samples,
        glyphPixels: m.glyphPixels,
        textColourFrom: m.method,
      },
      ...(prior.element ? { element: prior.element } : {}),
      ...(cand.axeReason ? { axeReason: cand.axeReason } : {}),
      ...(verdict === 'needs_review' ? { review: { messageKey: why, reason: failureSummary.slice(0, 300) } } : {}),
    },
  });
}


// ---- in the page ---------------------------------------------------------------------------------
// These run inside the page (serialised by Playwright): no closures over module scope.

interface PixelState {
  els: Array<Element | null>;
  /** Each element's border box when probed (document coordinates), to notice a layout shift. */
  boxes: Array<[number, number, number, number] | null>;
  saved: Map<Element, string | null>;
}

function probeTexts(selectors: string[]): Probe[] {
  const w = window as unknown as { __a11yPixelContrast?: PixelState };
  const state: PixelState = { els: [], boxes: [], saved: new Map() };
  w.__a11yPixelContrast = state;
  const resolve = (sel: string): Element | null => {
    let root: Document | ShadowRoot = document;
    let el: Element | null = null;
    for (const part of sel.split(' >>> ')) {
      if (el) {
        // The next part lies in another frame (left alone) or in the element's shadow root.
        if (/^(IFRAME|FRAME|OBJECT|EMBED)$/.test(el.tagName) || !el.shadowRoot) return null;
        root = el.shadowRoot;
      }
      el = root.querySelector(part);
      if (!el) return null;
    }
    return el;
  };
  const sx = window.scrollX;
  const sy = window.scrollY;
  const docW = Math.max(document.documentElement.scrollWidth, document.body?.scrollWidth ?? 0);
  const docH = Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0);
  type R = [number, number, number, number];
  const toDoc = (r: DOMRect): R => [r.left + sx, r.top + sy, r.right + sx, r.bottom + sy];
  const meets = (a: R, b: R) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  // Content that may change between the two captures, or is not there yet.
  const moving: R[] = [];
  for (const m of Array.from(document.querySelectorAll('video, canvas, iframe, frame, embed, object, img'))) {
    if (m instanceof HTMLImageElement && m.complete && m.naturalWidth > 0) continue;
    const r = m.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) moving.push(toDoc(r));
  }
  const animated: Element[] = [];
  try {
    for (const a of document.getAnimations()) {
      const t = (a.effect as KeyframeEffect | null)?.target;
      if (a.playState === 'running' && t instanceof Element) animated.push(t);
    }
  } catch {
    // no Web Animations: nothing known to move
  }
  const parentOf = (n: Element): Element | null => {
    if (n.parentElement) return n.parentElement;
    const root = n.getRootNode();
    return root instanceof ShadowRoot ? root.host : null;
  };
  return selectors.map((sel): Probe => {
    try {
      const el = resolve(sel);
      state.els.push(el);
      state.boxes.push(null);
      if (!el) return { skip: 'not-found' };
      const b = el.getBoundingClientRect();
      state.boxes[state.boxes.length - 1] = [b.left + sx, b.top + sy, b.width, b.height];
      const cs = getComputedStyle(el);
      if (cs.display === 'none' || cs.visibility !== 'visible') return { skip: 'hidden' };
      const rects: R[] = [];
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
        const r = el.getBoundingClientRect();
        const pad = (p: string) => parseFloat(cs.getPropertyValue(p)) || 0;
        const box = new DOMRect(
          r.left + pad('border-left-width') + pad('padding-left'),
          r.top + pad('border-top-width') + pad('padding-top'),
          r.width - pad('border-left-width') - pad('padding-left') - pad('border-right-width') - pad('padding-right'),
          r.height - pad('border-top-width') - pad('padding-top') - pad('border-bottom-width') - pad('padding-bottom'),
        );
        if (box.width > 0 && box.height > 0) rects.push(toDoc(box));
      } else {
        const range = document.createRange();
        for (const n of Array.from(el.childNodes)) {
          if (n.nodeType !== Node.TEXT_NODE || !/\S/.test(n.textContent ?? '')) continue;
          range.selectNodeContents(n);
          for (const r of Array.from(range.getClientRects())) if (r.width >= 1 && r.height >= 1) rects.push(toDoc(r));
        }
      }
      const inside = rects
        .map((r): R => [Math.max(0, r[0]), Math.max(0, r[1]), Math.min(docW, r[2]), Math.min(docH, r[3])])
        .filter((r) => r[2] - r[0] >= 1 && r[3] - r[1] >= 1);
      if (!inside.length) return { skip: 'no-box' };
      if (inside.some((r) => moving.some((m) => meets(r, m)))) return { skip: 'moving-content' };
      for (const t of animated) {
        if (t.contains(el) || el.contains(t)) return { skip: 'animated' };
        const tr = toDoc(t.getBoundingClientRect());
        if (inside.some((r) => meets(r, tr))) return { skip: 'animated' };
      }
      let effects = cs.backgroundClip === 'text' || cs.getPropertyValue('-webkit-background-clip') === 'text' || (parseFloat(cs.getPropertyValue('-webkit-text-stroke-width')) || 0) > 0;
      for (let n: Element | null = el; n && !effects; n = parentOf(n)) {
        const s = n === el ? cs : getComputedStyle(n);
        if (parseFloat(s.opacity) < 1 || (s.filter && s.filter !== 'none') || (s.mixBlendMode && s.mixBlendMode !== 'normal')) effects = true;
      }
      // SVG text is painted with `fill`, HTML text with `color` (or -webkit-text-fill-color).
      const svg = el instanceof SVGElement;
      return {
        rects: inside.map((r) => [r[0], r[1], r[2] - r[0], r[3] - r[1]]),
        color: svg ? cs.fill : cs.color,
        textFill: svg ? '' : cs.getPropertyValue('-webkit-text-fill-color'),
        fontSizePx: parseFloat(cs.fontSize) || 16,
        fontWeight: parseFloat(cs.fontWeight) || 400,
        effects,
      };
    } catch {
      return { skip: 'error' };
    }
  });
}

/** Makes the fill of the measured texts transparent (inline, important), keeping their style attribute to put back. */
function hideTexts(indexes: number[]): void {
  const state = (window as unknown as { __a11yPixelContrast?: PixelState }).__a11yPixelContrast;
  if (!state) return;
  for (const i of indexes) {
    const el = state.els[i];
    if (!(el instanceof HTMLElement || el instanceof SVGElement) || state.saved.has(el)) continue;
    state.saved.set(el, el.getAttribute('style'));
    const props = ['color', '-webkit-text-fill-color', 'text-decoration-color', 'caret-color'];
    if (el instanceof SVGElement) props.push('fill', 'stroke');
    for (const p of props) el.style.setProperty(p, 'transparent', 'important');
    el.style.setProperty('transition', 'none', 'important');
  }
}

/**
 * Puts the texts back as they were. Colours first, with transitions still off and styles flushed,
 * so that a `transition: color` of the page does not replay; then the original style attribute.
 */
function restoreTexts(): void {
  const state = (window as unknown as { __a11yPixelContrast?: PixelState }).__a11yPixelContrast;
  if (!state) return;
  for (const [el, style] of state.saved) {
    if (style === null) el.removeAttribute('style');
    else el.setAttribute('style', style);
    (el as HTMLElement).style.setProperty('transition', 'none', 'important');
  }
  for (const el of state.saved.keys()) void getComputedStyle(el).color; // reading it makes the browser apply the style now
  for (const [el, style] of state.saved) {
    if (style === null) el.removeAttribute('style');
    else el.setAttribute('style', style);
  }
  state.saved.clear();
}

/** The measured elements whose box moved or changed size since they were probed (the captures may not line up). */
function movedTexts(indexes: number[]): number[] {
  const state = (window as unknown as { __a11yPixelContrast?: PixelState }).__a11yPixelContrast;
  if (!state) return indexes;
  return indexes.filter((i) => {
    const el = state.els[i];
    const was = state.boxes[i];
    if (!el || !was || !el.isConnected) return true;
    const b = el.getBoundingClientRect();
    const now = [b.left + window.scrollX, b.top + window.scrollY, b.width, b.height];
    return now.some((v, k) => Math.abs(v - was[k]!) > 0.5);
  });
}

function forgetTexts(): void {
  delete (window as unknown as { __a11yPixelContrast?: PixelState }).__a11yPixelContrast;
}
