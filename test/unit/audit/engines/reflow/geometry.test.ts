import { describe, expect, it } from 'vitest';
import { oneLineBox, reflowOutcome, textClipState, usedLineHeight, type Box } from '../../../../../src/audit/engines/reflow/geometry.ts';

const box = (left: number, top: number, right: number, bottom: number): Box => ({ left, top, right, bottom });
const clip = box(0, 0, 100, 40);
const both = { x: true, y: true };

describe('textClipState', () => {
  it('is inside when every line fits, allowing glyphs to overhang a little', () => {
    expect(textClipState([box(0, 0, 90, 18), box(0, 18, 60, 36)], clip, both)).toBe('inside');
    expect(textClipState([box(0, 22, 60, 41.5)], clip, both)).toBe('inside');
  });

  it('is partial when a line crosses an edge or some lines are cut off', () => {
    expect(textClipState([box(0, 0, 300, 18)], clip, both)).toBe('partial');
    expect(textClipState([box(0, 30, 60, 48)], clip, both)).toBe('partial');
    expect(textClipState([box(0, 0, 90, 18), box(0, 18, 90, 36), box(0, 40, 90, 58)], clip, both)).toBe('partial');
  });

  it('is outside when all of the text is hidden (another slide, a collapsed panel)', () => {
    expect(textClipState([box(200, 0, 290, 18)], clip, both)).toBe('outside');
    expect(textClipState([box(0, 50, 90, 68), box(0, 68, 90, 86)], clip, both)).toBe('outside');
  });

  it('looks only at the axes the box clips', () => {
    expect(textClipState([box(0, 0, 300, 18)], clip, { x: false, y: true })).toBe('inside');
    expect(textClipState([box(0, 30, 60, 48)], clip, { x: true, y: false })).toBe('inside');
  });
});

describe('one-line boxes (ACT 59br37 vertical exception)', () => {
  it('holds for a box one line high, not for a lower or higher one', () => {
    expect(oneLineBox(16, 16)).toBe(true);
    expect(oneLineBox(usedLineHeight('normal', 16), 19)).toBe(true);
    expect(oneLineBox(usedLineHeight('normal', 16), 10)).toBe(false);
    expect(oneLineBox(usedLineHeight('normal', 16), 24)).toBe(false);
  });

  it('reads used line heights', () => {
    expect(usedLineHeight('24px', 16)).toBe(24);
    expect(usedLineHeight('normal', 20)).toBe(24);
  });
});

describe('reflowOutcome', () => {
  const page = { exempt: false, textBeyond: true, lineWiderThanView: false, inScroller: false };
  it('confirms text that needs sideways scrolling on the page', () => {
    expect(reflowOutcome(page)).toBe('confirmed');
  });

  it('asks for review for two-dimensional content or boxes with no text past the edge', () => {
    expect(reflowOutcome({ ...page, exempt: true })).toBe('needs_review');
    expect(reflowOutcome({ ...page, textBeyond: false })).toBe('needs_review');
  });

  it('inside a box that scrolls sideways: lines wider than the box only, tables and code not at all', () => {
    expect(reflowOutcome({ ...page, inScroller: true, lineWiderThanView: true })).toBe('confirmed');
    expect(reflowOutcome({ ...page, inScroller: true })).toBe('needs_review');
    expect(reflowOutcome({ ...page, inScroller: true, exempt: true })).toBeNull();
    expect(reflowOutcome({ ...page, inScroller: true, textBeyond: false })).toBeNull();
  });
});
