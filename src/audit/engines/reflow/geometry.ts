/**
 * Pure geometry of the zoom and reflow checks (WCAG 1.4.4 Resize Text, 1.4.10 Reflow). The
 * engine measures boxes in the page and passes these functions into it as source (they may use
 * nothing from outside themselves), so they are the same code in unit tests and in Chromium.
 */

/** A box that hides its overflow and cuts text, as the engine's clip scan reports it. */
export interface ClipHit {
  id: number;
  axes: string[];
  text: string;
  width: number;
  height: number;
  expander: boolean;
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * How one text node sits in a box that clips its overflow, on the clipped axes: every line
 * inside (`inside`), every line entirely outside (`outside`: hidden on purpose, like the other
 * slides of a carousel or a collapsed panel), or cut (`partial`: a line crosses the edge by more
 * than a sliver, or some lines show and others are cut off). A line counts as crossing the edge
 * when more than `tolerance` px of it, and more than a quarter of its height across the
 * top/bottom edges, are outside: glyph boxes overhang their line a little in tight line heights.
 */
export function textClipState(rects: readonly Box[], clip: Box, axes: { x: boolean; y: boolean }, tolerance = 2): 'inside' | 'partial' | 'outside' {
  let inside = 0;
  let outside = 0;
  let cut = 0;
  for (const r of rects) {
    const w = r.right - r.left;
    const h = r.bottom - r.top;
    if (w <= 0 || h <= 0) continue;
    const outX = axes.x ? Math.max(0, clip.left - r.left) + Math.max(0, r.right - clip.right) : 0;
    const outY = axes.y ? Math.max(0, clip.top - r.top) + Math.max(0, r.bottom - clip.bottom) : 0;
    const fullyOut = (axes.x && (r.right <= clip.left || r.left >= clip.right)) || (axes.y && (r.bottom <= clip.top + 0.25 * h || r.top >= clip.bottom - 0.25 * h));
    if (fullyOut) outside++;
    else if (outX > tolerance || (outY > tolerance && outY > 0.25 * h)) cut++;
    else inside++;
  }
  if (cut > 0 || (inside > 0 && outside > 0)) return 'partial';
  return outside > 0 ? 'outside' : 'inside';
}

/**
 * ACT 59br37's exception for the vertical axis: a box one line high (its height the used line
 * height, within a pixel or a tenth of a line) is meant to show one line. A box lower than its
 * line cuts the glyphs of that line; a higher one shows part of the next.
 */
export function oneLineBox(lineHeightPx: number, boxHeight: number): boolean {
  return lineHeightPx > 0 && boxHeight >= lineHeightPx - 1 && boxHeight <= lineHeightPx + Math.max(1, 0.1 * lineHeightPx);
}

/** The used line height of `normal`, as browsers approximate it for common fonts. */
export function usedLineHeight(lineHeight: string, fontSizePx: number): number {
  if (lineHeight === 'normal') return 1.2 * fontSizePx;
  const n = parseFloat(lineHeight);
  return Number.isFinite(n) ? n : 1.2 * fontSizePx;
}

export interface ReflowFacts {
  /** The overflowing element is, or is inside, content that needs two dimensions (table, image, map, code, toolbar...). */
  exempt: boolean;
  /** Visible text of it lies past the edge: reading it needs horizontal scrolling. */
  textBeyond: boolean;
  /** A line of its text is wider than the viewport (or the scrolling box it is in). */
  lineWiderThanView: boolean;
  /** The overflow scrolls inside a box of the page, not the page itself. */
  inScroller: boolean;
}

/**
 * `confirmed` when text that is not two-dimensional content needs horizontal scrolling to be
 * read: the page scrolls sideways and text of a non-exempt element lies past the edge, or a line
 * of text is wider than the box it scrolls in. Two-dimensional content (1.4.10's exception), a
 * wide element with no text past the edge, or a strip of items scrolling sideways inside a box,
 * is `needs_review`; `null`: not worth reporting (two-dimensional content in its own scrolling box
 * is the recommended way to show it).
 */
export function reflowOutcome(f: ReflowFacts): 'confirmed' | 'needs_review' | null {
  if (f.inScroller) {
    if (f.exempt) return null;
    if (!f.textBeyond) return null;
    return f.lineWiderThanView ? 'confirmed' : 'needs_review';
  }
  if (f.exempt || !f.textBeyond) return 'needs_review';
  return 'confirmed';
}
