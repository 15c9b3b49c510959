/**
 * Text contrast measured from two renderings of the same text box: `shown` (as the page renders
 * it) and `hidden` (the same, with the text's fill made transparent). Pure: works on RGB pixel
 * crops, one per line box of the text.
 *
 * How the figures are taken, and why:
 * - Glyph ("ink") pixels are the pixels that differ between the two renderings. They tell whether
 *   the text is painted at all, and what colour it shows where the CSS colour cannot be trusted.
 * - The background is every pixel of the text's line boxes in the `hidden` rendering, not only the
 *   pixels under the glyphs: ink is found by difference, so it is blind exactly where text and
 *   background have the same colour, and sampling only under detected ink would miss the spots
 *   where the text is least visible. Glyphs run across the whole line box, so every background
 *   colour in it touches some glyph.
 * - The line box is cut into pieces about one glyph wide. A piece with no ink is kept only when its
 *   background has the text's colour (the text is there but invisible); otherwise it is dropped as
 *   covered by something opaque or as white space between words, which would otherwise count as
 *   "background" although no text is drawn on it.
 * - Ratios are taken per pixel pair (text colour, background pixel), and the range reported is the
 *   5th to 95th percentile of those ratios, not the extreme single pixel: a 1px rule, JPEG ringing
 *   or an anti-aliased image edge crossing the text must not decide alone. 5% of a line's
 *   background is less than a single glyph cell in text of 20 or more characters.
 * - The text colour is the computed CSS colour (or its alpha blend over each background pixel)
 *   after checking that the ink pixels lie between that colour and the background: anti-aliasing
 *   blends the two and nothing else. The glyph cores must also reach the colour (a few pixels at 90%
 *   coverage or more): text under a translucent veil blends along the same line but never gets
 *   there. When they do not (very thin glyphs look the same), the least favourable ratio uses the
 *   strongest coverage seen and the most favourable one the CSS colour: the text shows somewhere
 *   in between.
 * - When the ink pixels contradict the CSS colour (an overlay, a blend mode, opacity, a filter),
 *   the colour is read from the strongest ink pixels: those whose luminance differs from the
 *   background by at least half of the 95th-percentile difference, so the anti-aliased edges are
 *   left out. Of those, the 10th percentile from the extreme is used for the most favourable ratio
 *   and the median for the least favourable one, so that neither verdict leans on a guess; and
 *   `decide` asks a 10% margin before confirming such a colour.
 * - Boxes larger than 40,000 pixels are sampled on a regular grid for the ratios (percentiles of
 *   40,000 samples are stable to well under 0.01:1); glyph detection always sees every pixel.
 */
import { ratioOf, type Rgb } from './luminance.ts';

export interface TextLine {
  width: number;
  height: number;
  /** RGB, `width × height × 3`, as rendered. */
  shown: Uint8Array;
  /** RGB, same box, with the text transparent. */
  hidden: Uint8Array;
}

export type Foreground = { kind: 'css'; rgb: Rgb; alpha: number } | { kind: 'unknown' };

export interface Measurement {
  /** `css-colour`: the computed colour, checked against the pixels; `pixels`: read from the glyph pixels. */
  method: 'css-colour' | 'pixels';
  /** The text colour against the least favourable background. */
  fg: Rgb;
  /** The text shows weaker than its CSS colour, or its colour was read from pixels: the range includes that doubt. */
  fgUncertain: boolean;
  worstBg: Rgb;
  bestBg: Rgb;
  /** 5th and 95th percentile of the per-pixel contrast ratios. */
  minRatio: number;
  maxRatio: number;
  /** Background pixels measured, and glyph pixels found. */
  samples: number;
  glyphPixels: number;
}

export type MeasureResult = { ok: true; measurement: Measurement } | { ok: false; reason: 'no-glyphs' | 'too-few-samples' };

/** A pixel counts as glyph ink when any channel differs by this much between the two renderings. */
const INK = 3;
/** Share of checkable ink pixels that must lie on the CSS colour's blend line for the CSS colour to be trusted. */
const CONSISTENT_SHARE = 0.85;
/** A glyph pixel this close to the text colour counts as the glyph's core; a few must exist. */
const FULL_COVERAGE = 0.9;
const MIN_FULL = 3;
const PERCENTILE = 0.05;
const BIN = 0.005;
const BINS = Math.ceil(20 / BIN) + 1;

const pack = (r: number, g: number, b: number) => (r << 16) | (g << 8) | b;
const unpack = (p: number): Rgb => [(p >> 16) & 255, (p >> 8) & 255, p & 255];
/** Background pixels sampled per text at most: percentiles of a larger box are taken on a regular subsample. */
const MAX_SAMPLES = 40_000;

/** Linear light per 8-bit channel value, for the per-pixel loops (no clamping: inputs are bytes). */
const LIN = new Float64Array(256).map((_, v) => {
  const s = v / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
});
const lum = (r: number, g: number, b: number) => 0.2126 * LIN[r]! + 0.7152 * LIN[g]! + 0.0722 * LIN[b]!;

/** Ratios binned by 0.005, with the extreme ratio (and its background) kept per bin. Reused between texts. */
class RatioHistogram {
  readonly count = new Uint32Array(BINS);
  readonly min = new Float64Array(BINS).fill(Infinity);
  readonly max = new Float64Array(BINS).fill(-Infinity);
  readonly bgAtMin = new Int32Array(BINS);
  readonly bgAtMax = new Int32Array(BINS);
  private readonly used: number[] = [];
  total = 0;
  reset(): this {
    for (const i of this.used) {
      this.count[i] = 0;
      this.min[i] = Infinity;
      this.max[i] = -Infinity;
    }
    this.used.length = 0;
    this.total = 0;
    return this;
  }
  add(ratio: number, bg: number): void {
    let i = ((ratio - 1) / BIN) | 0;
    if (i < 0) i = 0;
    else if (i >= BINS) i = BINS - 1;
    if (this.count[i] === 0) this.used.push(i);
    this.count[i]!++;
    this.total++;
    if (ratio < this.min[i]!) {
      this.min[i] = ratio;
      this.bgAtMin[i] = bg;
    }
    if (ratio > this.max[i]!) {
      this.max[i] = ratio;
      this.bgAtMax[i] = bg;
    }
  }
  /** The bin holding the q-quantile. */
  private binAt(q: number): number {
    const target = Math.max(1, Math.ceil(q * this.total));
    let seen = 0;
    for (let i = 0; i < BINS; i++) {
      seen += this.count[i]!;
      if (seen >= target) return i;
    }
    return BINS - 1;
  }
  /** Low quantile, rounded down to the smallest ratio of its bin (errs towards "fails"). */
  low(q: number): { ratio: number; bg: Rgb } {
    const i = this.binAt(q);
    return { ratio: this.min[i]!, bg: unpack(this.bgAtMin[i]!) };
  }
  /** High quantile, rounded up to the largest ratio of its bin (errs towards "passes"). */
  high(q: number): { ratio: number; bg: Rgb } {
    const i = this.binAt(q);
    return { ratio: this.max[i]!, bg: unpack(this.bgAtMax[i]!) };
  }
}

const LOW = new RatioHistogram();
const HIGH = new RatioHistogram();

function blend(fg: Rgb, a: number, r: number, g: number, b: number): [number, number, number] {
  return [fg[0] * a + r * (1 - a), fg[1] * a + g * (1 - a), fg[2] * a + b * (1 - a)];
}

/** Largest channel difference between the two renderings at byte offset `i`. */
function inkAt(shown: Uint8Array, hidden: Uint8Array, i: number): number {
  const dr = shown[i]! - hidden[i]!;
  const dg = shown[i + 1]! - hidden[i + 1]!;
  const db = shown[i + 2]! - hidden[i + 2]!;
  const a = dr < 0 ? -dr : dr;
  const b = dg < 0 ? -dg : dg;
  const c = db < 0 ? -db : db;
  return a > b ? (a > c ? a : c) : b > c ? b : c;
}

/**
 * Is the CSS colour what the glyph pixels show? Each checkable ink pixel must be a blend of the
 * expected text colour and the background under it, `shown = hidden + α·(fg − hidden)` with a small
 * residual; and how close the glyph cores get to the colour (α near 1) is counted: text dimmed by
 * a veil on top of it blends towards the background along the same line but never gets there.
 */
export function cssColourCheck(
  lines: readonly TextLine[],
  fg: Rgb,
  alpha: number,
  fullAt = FULL_COVERAGE,
): { checkable: number; consistent: number; full: number; topCoverage: number } {
  let checkable = 0;
  let consistent = 0;
  let full = 0;
  const coverage = new Uint32Array(101);
  const [fr0, fg0, fb0] = fg;
  for (const line of lines) {
    const { shown, hidden } = line;
    for (let i = 0; i < shown.length; i += 3) {
      if (inkAt(shown, hidden, i) < INK) continue;
      const hr = hidden[i]!;
      const hg = hidden[i + 1]!;
      const hb = hidden[i + 2]!;
      const er = (fr0 - hr) * alpha;
      const eg = (fg0 - hg) * alpha;
      const eb = (fb0 - hb) * alpha;
      const span = Math.max(Math.abs(er), Math.abs(eg), Math.abs(eb));
      if (span < 40) continue;
      checkable++;
      const sr = shown[i]! - hr;
      const sg = shown[i + 1]! - hg;
      const sb = shown[i + 2]! - hb;
      const a = (sr * er + sg * eg + sb * eb) / (er * er + eg * eg + eb * eb);
      const res = Math.max(Math.abs(sr - a * er), Math.abs(sg - a * eg), Math.abs(sb - a * eb));
      if (a >= -0.05 && a <= 1.1 && res <= 20) {
        consistent++;
        if (a >= fullAt) full++;
        coverage[Math.round(Math.min(1, Math.max(0, a)) * 100)]!++;
      }
    }
  }
  // The 98th percentile of the coverage of consistent pixels: how close the glyph cores get.
  let topCoverage = 0;
  for (let k = 100, seen = 0; k >= 0; k--) {
    seen += coverage[k]!;
    if (seen >= Math.max(1, 0.02 * consistent)) {
      topCoverage = k / 100;
      break;
    }
  }
  return { checkable, consistent, full, topCoverage };
}

/**
 * How far the CSS colour can be trusted: `undefined` when the glyph pixels contradict it; otherwise
 * the coverage its glyph cores reach (1 when a few pixels reach the colour itself; less for very thin
 * glyphs, or for text under a veil, which the pixels alone cannot tell apart). With too few pixels
 * to check (the colour is near the background everywhere), nothing contradicts it: 1.
 */
function cssColourReach(lines: readonly TextLine[], fg: Rgb, alpha: number): number | undefined {
  const { checkable, consistent, full, topCoverage } = cssColourCheck(lines, fg, alpha);
  if (checkable < 20) return 1;
  if (consistent / checkable < CONSISTENT_SHARE) return undefined;
  return full >= MIN_FULL ? 1 : Math.max(0.05, topCoverage);
}

/** The text colour as the strongest glyph pixels show it: a favourable (near-extreme) and a typical estimate. */
function colourFromPixels(lines: readonly TextLine[]): { strong: Rgb; typical: Rgb } | undefined {
  const diffs: number[] = [];
  const lums: number[] = [];
  const cols: number[] = [];
  let up = 0;
  let down = 0;
  for (const line of lines) {
    const { shown, hidden } = line;
    for (let i = 0; i < shown.length; i += 3) {
      if (inkAt(shown, hidden, i) < INK) continue;
      const ls = lum(shown[i]!, shown[i + 1]!, shown[i + 2]!);
      const e = ls - lum(hidden[i]!, hidden[i + 1]!, hidden[i + 2]!);
      if (e > 0) up++;
      else if (e < 0) down++;
      diffs.push(e);
      lums.push(ls);
      cols.push(pack(shown[i]!, shown[i + 1]!, shown[i + 2]!));
    }
  }
  if (!diffs.length) return undefined;
  const sign = up >= down ? 1 : -1;
  const mags = diffs.filter((e) => e * sign > 0).map((e) => e * sign);
  if (!mags.length) return undefined;
  mags.sort((a, b) => a - b);
  const cut = 0.5 * mags[Math.min(mags.length - 1, Math.floor(0.95 * mags.length))]!;
  const core: number[] = [];
  for (let k = 0; k < diffs.length; k++) if (diffs[k]! * sign >= cut && cut > 0) core.push(k);
  if (!core.length) return undefined;
  // Sorted from the most extreme (furthest from the background's side) to the least.
  core.sort((a, b) => (lums[b]! - lums[a]!) * sign);
  return {
    strong: unpack(cols[core[Math.floor(0.1 * (core.length - 1))]!]!),
    typical: unpack(cols[core[Math.floor(0.5 * (core.length - 1))]!]!),
  };
}

interface Paint {
  rgb: Rgb;
  alpha: number;
}

/** Luminance of a paint over one background pixel (alpha-blended when it is translucent). */
function paintLum(c: Paint, r: number, g: number, b: number): number {
  if (c.alpha >= 1) return lum(c.rgb[0], c.rgb[1], c.rgb[2]);
  const a = c.alpha;
  return lum(Math.round(c.rgb[0] * a + r * (1 - a)), Math.round(c.rgb[1] * a + g * (1 - a)), Math.round(c.rgb[2] * a + b * (1 - a)));
}

/**
 * Measures one text: its colour, the range of contrast ratios over its background, and how many
 * pixels that rests on. `ok: false` when the text is not visibly painted in the crops (covered,
 * clipped, or exactly the background's colour) or too small to measure.
 */
export function measureText(lines: readonly TextLine[], fg: Foreground): MeasureResult {
  // Two text colours: `favourable` bounds the most favourable ratio, `unfavourable` the least.
  // With a trusted CSS colour they are the same, unless the glyph cores never reach the colour:
  // then the text shows somewhere between its strongest pixels and its CSS colour.
  let method: Measurement['method'] = 'pixels';
  let favourable: Paint;
  let unfavourable: Paint;
  const reach = fg.kind === 'css' && fg.alpha > 0 ? cssColourReach(lines, fg.rgb, fg.alpha) : undefined;
  if (fg.kind === 'css' && reach !== undefined) {
    method = 'css-colour';
    favourable = { rgb: fg.rgb, alpha: fg.alpha };
    unfavourable = { rgb: fg.rgb, alpha: fg.alpha * reach };
  } else {
    const est = colourFromPixels(lines);
    if (!est) return { ok: false, reason: 'no-glyphs' };
    favourable = { rgb: est.strong, alpha: 1 };
    unfavourable = { rgb: est.typical, alpha: 1 };
  }

  // Which pieces of the line boxes hold text: ink, or the text's own colour (invisible text).
  type Piece = { line: TextLine; x0: number; x1: number };
  const kept: Piece[] = [];
  let keptPixels = 0;
  let glyphPixels = 0;
  const [cr, cg, cb] = favourable.rgb;
  const ca = favourable.alpha;
  for (const line of lines) {
    const { width, height, shown, hidden } = line;
    const seg = Math.max(4, Math.round(height * 0.75));
    for (let x0 = 0; x0 < width; x0 += seg) {
      const x1 = Math.min(width, x0 + seg);
      let ink = 0;
      let nearFg = 0;
      for (let y = 0; y < height; y++) {
        for (let i = (y * width + x0) * 3, end = (y * width + x1) * 3; i < end; i += 3) {
          if (inkAt(shown, hidden, i) >= INK) ink++;
          else if (!ink) {
            const hr = hidden[i]!;
            const hg = hidden[i + 1]!;
            const hb = hidden[i + 2]!;
            const dr = Math.abs((cr - hr) * ca);
            const dg = Math.abs((cg - hg) * ca);
            const db = Math.abs((cb - hb) * ca);
            if (dr <= 12 && dg <= 12 && db <= 12) nearFg++;
          }
        }
      }
      glyphPixels += ink;
      const n = (x1 - x0) * height;
      if (!ink && nearFg < n / 2) continue; // covered, or space between words
      kept.push({ line, x0, x1 });
      keptPixels += n;
    }
  }
  if (glyphPixels < 12) return { ok: false, reason: 'no-glyphs' };

  // Ratios per background pixel (a regular subsample on large boxes).
  const step = Math.max(1, Math.floor(keptPixels / MAX_SAMPLES));
  const low = LOW.reset();
  const high = HIGH.reset();
  const same = favourable.rgb === unfavourable.rgb && favourable.alpha === unfavourable.alpha;
  const lFav = favourable.alpha >= 1 ? paintLum(favourable, 0, 0, 0) : -1;
  const lUnfav = unfavourable.alpha >= 1 ? paintLum(unfavourable, 0, 0, 0) : -1;
  let samples = 0;
  let counter = 0;
  for (const { line, x0, x1 } of kept) {
    const { width, height, hidden } = line;
    for (let y = 0; y < height; y++) {
      for (let i = (y * width + x0) * 3, end = (y * width + x1) * 3; i < end; i += 3) {
        if (counter++ % step) continue;
        const r = hidden[i]!;
        const g = hidden[i + 1]!;
        const b = hidden[i + 2]!;
        const lb = lum(r, g, b);
        const bg = pack(r, g, b);
        const rl = ratioOf(lUnfav >= 0 ? lUnfav : paintLum(unfavourable, r, g, b), lb);
        low.add(rl, bg);
        high.add(same ? rl : ratioOf(lFav >= 0 ? lFav : paintLum(favourable, r, g, b), lb), bg);
        samples++;
      }
    }
  }
  if (samples < 40) return { ok: false, reason: 'too-few-samples' };
  const worst = low.low(PERCENTILE);
  const best = high.high(1 - PERCENTILE);
  const shownAt = (c: Paint, bg: Rgb): Rgb => blend(c.rgb, c.alpha, bg[0], bg[1], bg[2]).map(Math.round) as unknown as Rgb;
  return {
    ok: true,
    measurement: {
      method,
      fg: shownAt(unfavourable, worst.bg),
      fgUncertain: method === 'pixels' || unfavourable.alpha < favourable.alpha,
      worstBg: worst.bg,
      bestBg: best.bg,
      minRatio: worst.ratio,
      maxRatio: Math.max(best.ratio, worst.ratio),
      samples,
      glyphPixels,
    },
  };
}

export type Verdict = 'confirmed' | 'passed' | 'needs_review';

/**
 * Confirmed when even the most favourable background fails the threshold, passed when the least
 * favourable one meets it, needs review when the range straddles it. A colour read from pixels
 * (not the CSS colour) must fail by a 10% margin to be confirmed: anti-aliasing can only make
 * glyph pixels look weaker than the colour they were drawn with.
 */
export function decide(m: Pick<Measurement, 'method' | 'minRatio' | 'maxRatio'>, threshold: number): Verdict {
  const margin = m.method === 'pixels' ? 0.9 : 1;
  if (m.maxRatio < threshold * margin) return 'confirmed';
  if (m.minRatio >= threshold) return 'passed';
  return 'needs_review';
}
