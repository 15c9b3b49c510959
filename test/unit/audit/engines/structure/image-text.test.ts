import { describe, expect, it } from 'vitest';
import { readImageText, showsText } from '../../../../../src/audit/engines/structure/image-text.ts';

/** A white RGB canvas with dark shapes drawn by `paint(x, y)`. */
function canvas(w: number, h: number, paint: (x: number, y: number) => boolean) {
  const data = new Uint8Array(w * h * 3).fill(255);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (paint(x, y)) data.fill(20, (y * w + x) * 3, (y * w + x) * 3 + 3);
  return { width: w, height: h, data };
}

/** Letter-like rings 10×14 px, 4 px apart, in `rows` lines of `perRow`, 10 px between lines. */
function rings(rows: number, perRow: number) {
  const w = 8 + perRow * 14;
  const h = 8 + rows * 24;
  return canvas(w, h, (x, y) => {
    const cx = (x - 4) % 14;
    const row = Math.floor((y - 4) / 24);
    const cy = (y - 4) % 24;
    if (x < 4 || y < 4 || row >= rows || Math.floor((x - 4) / 14) >= perRow || cx >= 10 || cy >= 14) return false;
    return cx < 2 || cx >= 8 || cy < 2 || cy >= 12;
  });
}

describe('readImageText', () => {
  it('counts letter-like shapes that line up as lines of text, dark on light or light on dark', () => {
    expect(readImageText(rings(3, 9))).toEqual({ letters: 27, lines: 3 });
    const inverted = rings(2, 6);
    for (let i = 0; i < inverted.data.length; i++) inverted.data[i] = 255 - inverted.data[i]!;
    expect(readImageText(inverted)).toEqual({ letters: 12, lines: 2 });
    expect(showsText(readImageText(rings(1, 9)))).toBe(true);
    expect(showsText(readImageText(rings(1, 5)))).toBe(false);
  });

  it('finds no text in blocks, specks, smooth gradients or scattered shapes', () => {
    expect(readImageText(canvas(200, 100, (x, y) => x > 40 && x < 160 && y > 20 && y < 80))).toEqual({ letters: 0, lines: 0 });
    expect(readImageText(canvas(200, 100, (x, y) => (x * 7 + y * 13) % 17 === 0))).toEqual({ letters: 0, lines: 0 });
    const g = canvas(300, 100, () => false);
    for (let y = 0; y < 100; y++) for (let x = 0; x < 300; x++) g.data.fill(Math.round((x / 300) * 255), (y * 300 + x) * 3, (y * 300 + x) * 3 + 3);
    expect(showsText(readImageText(g))).toBe(false);
    // Rings of very different sizes, scattered: no line.
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const spots = Array.from({ length: 12 }, () => ({ x: Math.floor(rnd() * 260), y: Math.floor(rnd() * 160), r: 4 + Math.floor(rnd() * 14) }));
    const scattered = canvas(300, 200, (x, y) => spots.some((s) => Math.abs(Math.hypot(x - s.x - s.r, y - s.y - s.r) - s.r) < 1.5));
    expect(showsText(readImageText(scattered))).toBe(false);
  });

  it('reads a tiny image as nothing', () => {
    expect(readImageText(canvas(4, 4, () => true))).toEqual({ letters: 0, lines: 0 });
  });
});
