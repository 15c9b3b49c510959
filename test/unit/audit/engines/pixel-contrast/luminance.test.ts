import { describe, expect, it } from 'vitest';
import { contrastRatio as adviceRatio, relativeLuminance } from '../../../../../src/enrichment/colour.ts';
import { contrast, floor2, fontSizeLabel, isLargeText, luminance, minimumRatio, parseCssColour, ratioOf, toHex, type Rgb } from '../../../../../src/audit/engines/pixel-contrast/luminance.ts';
import { decide, measureText, type TextLine } from '../../../../../src/audit/engines/pixel-contrast/measure.ts';
import { decodePng } from '../../../../../src/audit/engines/pixel-contrast/png.ts';
import { planCaptures } from '../../../../../src/audit/engines/pixel-contrast/pixel-contrast.engine.ts';
import { encodePng } from '../../../../helpers/png.ts';

describe('luminance and contrast ratio', () => {
  it('follows the WCAG definitions', () => {
    expect(luminance(0, 0, 0)).toBe(0);
    expect(luminance(255, 255, 255)).toBeCloseTo(1, 10);
    expect(contrast([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 10);
    expect(contrast([0x77, 0x77, 0x77], [255, 255, 255])).toBeCloseTo(4.48, 2);
    expect(contrast([0x76, 0x76, 0x76], [255, 255, 255])).toBeGreaterThanOrEqual(4.5);
    expect(ratioOf(0.2, 0.5)).toBe(ratioOf(0.5, 0.2));
  });

  it('agrees with the contrast advice maths of the AI enricher', () => {
    for (const c of [[0, 0, 0], [255, 0, 0], [12, 200, 99], [0x77, 0x77, 0x77], [250, 250, 5]] as Rgb[]) {
      expect(luminance(...c)).toBeCloseTo(relativeLuminance({ r: c[0], g: c[1], b: c[2] }), 12);
      expect(contrast(c, [255, 255, 255])).toBeCloseTo(adviceRatio({ r: c[0], g: c[1], b: c[2] }, { r: 255, g: 255, b: 255 }), 12);
    }
  });

  it('rounds ratios down, never up to a passing value', () => {
    expect(floor2(4.4999)).toBe(4.49);
    expect(floor2(4.5)).toBe(4.5);
    expect(floor2(21)).toBe(21);
  });

  it('reads computed CSS colours', () => {
    expect(parseCssColour('rgb(1, 2, 3)')).toEqual({ rgb: [1, 2, 3], alpha: 1 });
    expect(parseCssColour('rgba(0, 0, 0, 0.3)')).toEqual({ rgb: [0, 0, 0], alpha: 0.3 });
    expect(parseCssColour('rgb(10 20 30 / 50%)')).toEqual({ rgb: [10, 20, 30], alpha: 0.5 });
    expect(parseCssColour('transparent')?.alpha).toBe(0);
    expect(parseCssColour('oklch(0.5 0.1 200)')).toBeUndefined();
    expect(toHex([255, 0, 16])).toBe('#ff0010');
  });
});

describe('large text and thresholds', () => {
  it('treats 18pt (24px), and 14pt (18.66px) bold, as large', () => {
    expect(isLargeText(24, 400)).toBe(true);
    expect(isLargeText(23.9, 400)).toBe(false);
    expect(isLargeText(18.66, 700)).toBe(true);
    expect(isLargeText(18.66, 400)).toBe(false);
    expect(isLargeText(18.6, 700)).toBe(false);
    expect(isLargeText(20, 600)).toBe(false);
    expect(isLargeText(19, 900)).toBe(true);
  });

  it('asks 4.5:1 of normal text and 3:1 of large text', () => {
    expect(minimumRatio(16, 400)).toBe(4.5);
    expect(minimumRatio(24, 400)).toBe(3);
    expect(minimumRatio(18.66, 700)).toBe(3);
    expect(fontSizeLabel(16)).toBe('12.0pt (16px)');
  });
});

describe('PNG decoding', () => {
  it('decodes RGB and RGBA images with every filter type', () => {
    const width = 7;
    const height = 10;
    for (const channels of [3, 4] as const) {
      const px = new Uint8Array(width * height * channels).map((_, i) => (i * 37 + (i >> 3) * 11) & 0xff);
      const img = decodePng(encodePng(width, height, channels, px));
      expect([img.width, img.height]).toEqual([width, height]);
      for (let p = 0; p < width * height; p++) {
        expect([...img.data.subarray(p * 3, p * 3 + 3)]).toEqual([...px.subarray(p * channels, p * channels + 3)]);
      }
    }
  });

  it('refuses what is not a PNG', () => {
    expect(() => decodePng(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]))).toThrow(/not a PNG/);
  });
});

// ---- measuring --------------------------------------------------------------------------------

/**
 * A synthetic line box: `bg(x)` is the background, glyphs are 2px-wide vertical strokes every 4px
 * (rows 3 to h-4), drawn at full coverage with a half-covered edge pixel on each side.
 */
function line(width: number, height: number, bg: (x: number, y: number) => Rgb, fg: Rgb, opts: { ink?: (x: number) => boolean; coverage?: number } = {}): TextLine {
  const shown = new Uint8Array(width * height * 3);
  const hidden = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const b = bg(x, y);
      const i = (y * width + x) * 3;
      hidden.set(b, i);
      const inRow = y >= 3 && y < height - 3;
      const phase = x % 4;
      let a = !inRow || (opts.ink && !opts.ink(x)) ? 0 : phase === 1 || phase === 2 ? 1 : phase === 0 ? 0.5 : 0;
      a *= opts.coverage ?? 1;
      shown.set([0, 1, 2].map((c) => Math.round(fg[c]! * a + b[c]! * (1 - a))), i);
    }
  }
  return { width, height, shown, hidden };
}

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];
const GREY_AA: Rgb = [0xaa, 0xaa, 0xaa];

describe('measureText', () => {
  it('measures a solid colour on a solid background exactly', () => {
    const r = measureText([line(200, 20, () => WHITE, [0x77, 0x77, 0x77])], { kind: 'css', rgb: [0x77, 0x77, 0x77], alpha: 1 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.measurement.method).toBe('css-colour');
    expect(r.measurement.minRatio).toBeCloseTo(4.48, 2);
    expect(r.measurement.maxRatio).toBeCloseTo(4.48, 2);
    expect(decide(r.measurement, 4.5)).toBe('confirmed');
    expect(decide(r.measurement, 3)).toBe('passed');
  });

  it('gives a range that straddles the threshold over a half-black, half-white background', () => {
    const r = measureText([line(400, 20, (x) => (x < 200 ? BLACK : WHITE), GREY_AA)], { kind: 'css', rgb: GREY_AA, alpha: 1 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(floor2(r.measurement.minRatio)).toBe(2.32);
    expect(floor2(r.measurement.maxRatio)).toBe(9.03);
    expect(toHex(r.measurement.worstBg)).toBe('#ffffff');
    expect(decide(r.measurement, 4.5)).toBe('needs_review');
  });

  it('ignores a thin line across the background (percentiles, not the extreme pixel)', () => {
    const bg = (x: number, y: number): Rgb => (y === 10 ? WHITE : BLACK);
    const r = measureText([line(300, 24, bg, WHITE)], { kind: 'css', rgb: WHITE, alpha: 1 });
    expect(r.ok && decide(r.measurement, 4.5)).toBe('passed');
  });

  it('still counts the background where the text is invisible (same colour, no ink)', () => {
    // White text: over black on the left, over white (invisible) on the right.
    const r = measureText([line(400, 20, (x) => (x < 200 ? BLACK : WHITE), WHITE)], { kind: 'css', rgb: WHITE, alpha: 1 });
    expect(r.ok && r.measurement.minRatio).toBe(1);
    expect(r.ok && decide(r.measurement, 4.5)).toBe('needs_review');
  });

  it('drops the part of the box that something opaque covers (no ink, not the text colour)', () => {
    // Grey text on white; the right half is covered by a dark blue box.
    const covered = (x: number) => x >= 200;
    const r = measureText([line(400, 20, (x) => (covered(x) ? [0, 0, 60] : WHITE), [0x55, 0x55, 0x55], { ink: (x) => !covered(x) })], {
      kind: 'css',
      rgb: [0x55, 0x55, 0x55],
      alpha: 1,
    });
    expect(r.ok && decide(r.measurement, 4.5)).toBe('passed');
  });

  it('reports nothing for text that is not painted at all', () => {
    const r = measureText([line(200, 20, () => WHITE, BLACK, { ink: () => false })], { kind: 'css', rgb: BLACK, alpha: 1 });
    expect(r).toEqual({ ok: false, reason: 'no-glyphs' });
  });

  it('blends an alpha colour over each background pixel', () => {
    const shownColour: Rgb = [179, 179, 179]; // rgba(0,0,0,.3) over white
    const r = measureText([line(200, 20, () => WHITE, shownColour)], { kind: 'css', rgb: BLACK, alpha: 0.3 });
    expect(r.ok && floor2(r.measurement.minRatio)).toBe(2.09);
    expect(r.ok && decide(r.measurement, 4.5)).toBe('confirmed');
  });

  it('does not trust the CSS colour when a veil over the text dims it', () => {
    // Black text under a 75% white veil shows as #bfbfbf: the glyph cores never reach black.
    const r = measureText([line(200, 20, () => WHITE, BLACK, { coverage: 0.25 })], { kind: 'css', rgb: BLACK, alpha: 1 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.measurement.fgUncertain).toBe(true);
    expect(r.measurement.minRatio).toBeLessThan(2);
    expect(decide(r.measurement, 4.5)).toBe('needs_review');
  });

  it('reads the colour from the pixels when the CSS colour is contradicted', () => {
    // CSS says black, the pixels show red glyphs (a blend mode, a filter…): measured as rendered.
    const r = measureText([line(200, 20, () => WHITE, [220, 60, 60])], { kind: 'css', rgb: BLACK, alpha: 1 });
    expect(r.ok && r.measurement.method).toBe('pixels');
    expect(r.ok && toHex(r.measurement.fg)).toBe('#dc3c3c');
    // 4.41:1 against white: fails 4.5 but not by the 10% margin a colour read from pixels needs.
    expect(r.ok && decide(r.measurement, 4.5)).toBe('needs_review');
    const pale = measureText([line(200, 20, () => WHITE, [255, 200, 200])], { kind: 'unknown' });
    expect(pale.ok && decide(pale.measurement, 4.5)).toBe('confirmed');
  });
});

describe('decide', () => {
  it('confirms only when the most favourable ratio fails, and passes only when the least favourable passes', () => {
    expect(decide({ method: 'css-colour', minRatio: 2, maxRatio: 4.49 }, 4.5)).toBe('confirmed');
    expect(decide({ method: 'css-colour', minRatio: 4.5, maxRatio: 9 }, 4.5)).toBe('passed');
    expect(decide({ method: 'css-colour', minRatio: 4.4, maxRatio: 9 }, 4.5)).toBe('needs_review');
    expect(decide({ method: 'pixels', minRatio: 4.2, maxRatio: 4.2 }, 4.5)).toBe('needs_review');
    expect(decide({ method: 'pixels', minRatio: 2.9, maxRatio: 2.9 }, 3)).toBe('needs_review');
    expect(decide({ method: 'pixels', minRatio: 2, maxRatio: 2.6 }, 3)).toBe('confirmed');
  });
});

describe('planCaptures', () => {
  const probe = (rects: Array<[number, number, number, number]>) => ({ rects, color: 'rgb(0, 0, 0)', textFill: 'rgb(0, 0, 0)', fontSizePx: 16, fontWeight: 400, effects: false });

  it('groups nearby texts into one capture and starts another after a large gap', () => {
    const plan = planCaptures([probe([[10, 10, 100, 20]]), probe([[50, 40, 300, 20], [50, 60, 200, 20]]), { skip: 'hidden' }, probe([[0, 2000, 50, 20]])]);
    expect(plan.list.map((c) => [c.x, c.y, c.width, c.height])).toEqual([
      [10, 10, 340, 70],
      [0, 2000, 50, 20],
    ]);
    expect(plan.measured).toEqual([0, 1, 3]);
  });

  it('leaves out texts taller than a capture and texts with too many lines', () => {
    const many = Array.from({ length: 201 }, (_, i) => [0, i * 20, 100, 20] as [number, number, number, number]);
    const plan = planCaptures([probe([[0, 0, 100, 5000]]), probe(many), probe([[0, 0, 10, 10]])]);
    expect(plan.measured).toEqual([2]);
  });
});
