/**
 * Where a screenshot of an element in its context is cut from the viewport: pure geometry, so the
 * browser side only measures and shoots.
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ClipLimits {
  /** Context kept around the element on each side, in CSS pixels. */
  margin: number;
  maxWidth: number;
  maxHeight: number;
}

/** The tries of one picture, largest first: when a PNG is over the byte limit, the next, smaller one is taken. */
export const CLIP_STEPS: readonly ClipLimits[] = [
  { margin: 120, maxWidth: 800, maxHeight: 600 },
  { margin: 64, maxWidth: 560, maxHeight: 420 },
  { margin: 24, maxWidth: 400, maxHeight: 300 },
  { margin: 12, maxWidth: 280, maxHeight: 210 },
];

/** One axis: a segment of at most `max` inside [0, size) that holds the element and its margin, centred on a small element. */
function span(start: number, length: number, size: number, margin: number, max: number): [number, number] {
  const want = Math.min(max, size, length + 2 * margin);
  // A small element sits in the middle of the clip; a large one shows its start.
  let from = length + 2 * margin <= want ? start + length / 2 - want / 2 : start - margin;
  from = Math.max(0, Math.min(from, size - want));
  return [Math.floor(from), Math.max(1, Math.floor(Math.min(want, size - Math.floor(from))))];
}

/**
 * The clip around `element` (viewport coordinates) inside a `viewport` of that size, or null when
 * the element has no box or lies outside the viewport.
 */
export function clipAround(element: Box, viewport: { width: number; height: number }, limits: ClipLimits): Box | null {
  const values = [element.x, element.y, element.width, element.height, viewport.width, viewport.height];
  if (!values.every(Number.isFinite)) return null;
  if (element.width <= 0 && element.height <= 0) return null;
  if (viewport.width < 1 || viewport.height < 1) return null;
  if (element.x >= viewport.width || element.y >= viewport.height || element.x + element.width <= 0 || element.y + element.height <= 0) return null;
  const [x, width] = span(element.x, element.width, Math.floor(viewport.width), limits.margin, limits.maxWidth);
  const [y, height] = span(element.y, element.height, Math.floor(viewport.height), limits.margin, limits.maxHeight);
  return { x, y, width, height };
}
