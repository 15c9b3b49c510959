import { describe, expect, it } from 'vitest';
import {
  contrastRatio,
  formatRatio,
  hslToRgb,
  nearestPassingColour,
  parseHex,
  relativeLuminance,
  rgbToHsl,
  toHex,
  type Rgb,
} from '../../../src/enrichment/colour.ts';

const hex = (v: string): Rgb => parseHex(v)!;

describe('colour maths', () => {
  it('parses and writes hex colours', () => {
    expect(parseHex('#abc')).toEqual({ r: 0xaa, g: 0xbb, b: 0xcc });
    expect(parseHex('#767676')).toEqual({ r: 118, g: 118, b: 118 });
    expect(parseHex('#76767680')).toEqual({ r: 118, g: 118, b: 118 });
    expect(parseHex('red')).toBeUndefined();
    expect(parseHex('#12345')).toBeUndefined();
    expect(toHex({ r: 255, g: 0, b: 16 })).toBe('#ff0010');
  });

  it('computes relative luminance as WCAG defines it', () => {
    expect(relativeLuminance(hex('#000000'))).toBe(0);
    expect(relativeLuminance(hex('#ffffff'))).toBeCloseTo(1, 10);
    // Channel weights 0.2126, 0.7152, 0.0722.
    expect(relativeLuminance(hex('#ff0000'))).toBeCloseTo(0.2126, 4);
    expect(relativeLuminance(hex('#00ff00'))).toBeCloseTo(0.7152, 4);
    expect(relativeLuminance(hex('#0000ff'))).toBeCloseTo(0.0722, 4);
    // Mid grey #808080: ((128/255 + 0.055) / 1.055) ^ 2.4
    expect(relativeLuminance(hex('#808080'))).toBeCloseTo(0.2159, 4);
  });

  it('computes contrast ratios matching the WCAG examples and common references', () => {
    expect(contrastRatio(hex('#000000'), hex('#ffffff'))).toBeCloseTo(21, 10);
    expect(contrastRatio(hex('#ffffff'), hex('#ffffff'))).toBe(1);
    // Order does not matter.
    expect(contrastRatio(hex('#ffffff'), hex('#777777'))).toBe(contrastRatio(hex('#777777'), hex('#ffffff')));
    // #767676 is the lightest grey passing 4.5:1 on white; #777777 just fails.
    expect(contrastRatio(hex('#767676'), hex('#ffffff'))).toBeCloseTo(4.54, 2);
    expect(contrastRatio(hex('#777777'), hex('#ffffff'))).toBeCloseTo(4.48, 2);
    expect(contrastRatio(hex('#aaaaaa'), hex('#ffffff'))).toBeCloseTo(2.32, 2);
    expect(contrastRatio(hex('#0000ff'), hex('#ffffff'))).toBeCloseTo(8.59, 2);
    expect(contrastRatio(hex('#ff0000'), hex('#ffffff'))).toBeCloseTo(4.0, 2);
  });

  it('converts to HSL and back without drift', () => {
    for (const c of ['#5b9bd5', '#f4b183', '#123456', '#ff0000', '#767676', '#00ff80']) {
      expect(toHex(hslToRgb(rgbToHsl(hex(c))))).toBe(c);
    }
    expect(rgbToHsl(hex('#ff0000'))).toEqual({ h: 0, s: 1, l: 0.5 });
  });

  it('formats ratios truncated to two places, never rounding up past a threshold', () => {
    expect(formatRatio(4.4999)).toBe('4.49:1');
    expect(formatRatio(4.5)).toBe('4.50:1');
    expect(formatRatio(21)).toBe('21.00:1');
  });

  describe('nearest passing colour', () => {
    it('finds #767676 for light grey text on white (the classic answer)', () => {
      const r = nearestPassingColour(hex('#aaaaaa'), hex('#ffffff'), 4.5)!;
      expect(r.hex).toBe('#767676');
      expect(r.direction).toBe('darker');
      expect(r.ratio).toBeGreaterThanOrEqual(4.5);
    });

    it.each([
      ['#5b9bd5', '#ffffff', 4.5],
      ['#f4b183', '#ffffff', 3],
      ['#aaaaaa', '#ffffff', 7],
      ['#555555', '#000000', 4.5],
      ['#ff0000', '#0000ff', 4.5],
      ['#336699', '#222222', 4.5],
      ['#cccccc', '#888888', 3],
    ])('%s on %s reaches %s:1, keeps the hue, and is the closest along lightness', (fg, bg, target) => {
      const r = nearestPassingColour(hex(fg), hex(bg), target)!;
      expect(r).toBeDefined();
      const got = hex(r.hex);
      // Reaches the target on the rounded colour it returns.
      expect(contrastRatio(got, hex(bg))).toBeGreaterThanOrEqual(target);
      expect(r.ratio).toBeCloseTo(contrastRatio(got, hex(bg)), 10);
      // Same hue (within rounding to 8 bits) for coloured text.
      const before = rgbToHsl(hex(fg));
      const after = rgbToHsl(got);
      if (before.s > 0.05 && after.s > 0.05 && after.l > 0.05 && after.l < 0.95) {
        const dh = Math.abs(before.h - after.h);
        expect(Math.min(dh, 360 - dh)).toBeLessThan(3);
      }
      // Nothing closer in lightness, in either direction, reaches the target.
      const step = 0.0005;
      for (let d = step; d < r.lightnessChange - 0.002; d += step) {
        for (const l of [before.l - d, before.l + d]) {
          if (l < 0 || l > 1) continue;
          expect(contrastRatio(hslToRgb({ ...before, l }), hex(bg))).toBeLessThan(target);
        }
      }
    });

    it('returns the colour itself when it already passes', () => {
      const r = nearestPassingColour(hex('#000000'), hex('#ffffff'), 4.5)!;
      expect(r.hex).toBe('#000000');
      expect(r.lightnessChange).toBe(0);
    });

    it('goes lighter on a dark background', () => {
      const r = nearestPassingColour(hex('#444444'), hex('#000000'), 4.5)!;
      expect(r.direction).toBe('lighter');
      expect(contrastRatio(hex(r.hex), hex('#000000'))).toBeGreaterThanOrEqual(4.5);
    });
  });
});
