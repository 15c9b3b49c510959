import { describe, expect, it } from 'vitest';
import { CLIP_STEPS, clipAround } from '../../../../src/audit/screenshots/clip.ts';
import { pngSize } from '../../../../src/shared/png-size.ts';
import { encodePng } from '../../../helpers/png.ts';

const viewport = { width: 1280, height: 800 };
const first = CLIP_STEPS[0]!;

describe('clipAround', () => {
  it('centres a small element in its margin', () => {
    const clip = clipAround({ x: 600, y: 380, width: 40, height: 20 }, viewport, first)!;
    expect(clip.width).toBe(40 + 2 * first.margin);
    expect(clip.height).toBe(20 + 2 * first.margin);
    expect(clip.x + clip.width / 2).toBeCloseTo(620, 0);
    expect(clip.y + clip.height / 2).toBeCloseTo(390, 0);
  });

  it('keeps the clip inside the viewport, shifted rather than cut, near an edge', () => {
    const clip = clipAround({ x: 2, y: 3, width: 40, height: 20 }, viewport, first)!;
    expect(clip).toMatchObject({ x: 0, y: 0, width: 40 + 2 * first.margin, height: 20 + 2 * first.margin });
    const right = clipAround({ x: 1270, y: 790, width: 40, height: 40 }, viewport, first)!;
    expect(right.x + right.width).toBeLessThanOrEqual(1280);
    expect(right.y + right.height).toBeLessThanOrEqual(800);
  });

  it('bounds a large element to the step\u2019s size, showing its start', () => {
    const clip = clipAround({ x: 100, y: 50, width: 1100, height: 2000 }, viewport, first)!;
    expect(clip).toEqual({ x: Math.max(0, 100 - first.margin), y: 0, width: 800, height: 600 });
    expect(clipAround({ x: 300, y: 50, width: 1100, height: 2000 }, viewport, first)!.x).toBe(300 - first.margin);
    for (const step of CLIP_STEPS) {
      const c = clipAround({ x: 0, y: 0, width: 5000, height: 5000 }, viewport, step)!;
      expect(c.width).toBeLessThanOrEqual(step.maxWidth);
      expect(c.height).toBeLessThanOrEqual(step.maxHeight);
    }
  });

  it('fits a narrow (mobile) viewport', () => {
    const clip = clipAround({ x: 10, y: 300, width: 370, height: 44 }, { width: 390, height: 844 }, first)!;
    expect(clip.x).toBe(0);
    expect(clip.width).toBe(390);
  });

  it('gives none for an element without a box, outside the viewport, or measures that are not numbers', () => {
    expect(clipAround({ x: 10, y: 10, width: 0, height: 0 }, viewport, first)).toBeNull();
    expect(clipAround({ x: 10, y: 900, width: 10, height: 10 }, viewport, first)).toBeNull();
    expect(clipAround({ x: -50, y: 10, width: 10, height: 10 }, viewport, first)).toBeNull();
    expect(clipAround({ x: Number.NaN, y: 10, width: 10, height: 10 }, viewport, first)).toBeNull();
    expect(clipAround({ x: 0, y: 0, width: Infinity, height: 10 }, viewport, first)).toBeNull();
    // A line (no width) still has a box to outline.
    expect(clipAround({ x: 10, y: 10, width: 0, height: 30 }, viewport, first)).not.toBeNull();
  });
});

describe('pngSize', () => {
  it('reads a PNG\u2019s width and height and refuses what is not a PNG', () => {
    const png = encodePng(7, 3, 3, new Uint8Array(7 * 3 * 3));
    expect(pngSize(png)).toEqual({ width: 7, height: 3 });
    expect(pngSize(Buffer.from('GIF89a not a png at all, really'))).toBeNull();
    expect(pngSize(png.subarray(0, 20))).toBeNull();
  });
});
