import { describe, expect, it } from 'vitest';
import { FAR_JUMP_PX, readingCompare, visualOrderBreak, type Placed } from '../../../../../src/audit/engines/keyboard/visual-order.ts';

let next = 0;
const at = (x: number, y: number, more: Partial<Placed> = {}): Placed => ({ id: next++, x, y, w: 80, h: 20, container: 1, skip: false, ...more });

describe('readingCompare', () => {
  it('reads lines top to bottom and a line left to right', () => {
    expect(readingCompare(at(0, 0), at(0, 40))).toBe(-1);
    expect(readingCompare(at(200, 0), at(0, 5))).toBe(1);
    expect(readingCompare(at(0, 0), at(40, 0))).toBe(0);
  });
});

describe('visualOrderBreak', () => {
  it('finds the middle of three shown after the third on their line (a float: right)', () => {
    const [a, b, c] = [at(0, 0), at(900, 0), at(100, 0)];
    expect(visualOrderBreak([a, b, c])).toEqual({ ids: [a.id, b.id, c.id], kind: 'jump' });
  });

  it('finds three shown right to left (row-reverse)', () => {
    const [a, b, c] = [at(400, 0), at(200, 0), at(0, 0)];
    expect(visualOrderBreak([a, b, c])?.kind).toBe('reversed');
  });

  it('finds Tab jumping far up the page and down again', () => {
    expect(visualOrderBreak([at(0, 1000), at(0, 1000 - FAR_JUMP_PX - 50), at(0, 1040)])?.kind).toBe('jump');
  });

  it('passes normal order, a grid read down its columns, other containers, and what is fixed or off screen', () => {
    expect(visualOrderBreak([at(0, 0), at(100, 0), at(200, 0), at(0, 40)])).toBeNull();
    expect(visualOrderBreak([at(0, 0), at(0, 50), at(100, 0), at(100, 50)])).toBeNull();
    expect(visualOrderBreak([at(0, 0), at(900, 0, { container: 2 }), at(100, 0)])).toBeNull();
    expect(visualOrderBreak([at(0, 0), at(900, 0, { skip: true }), at(100, 0)])).toBeNull();
  });
});
