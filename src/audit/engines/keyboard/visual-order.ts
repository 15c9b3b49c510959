import type { Probe } from './probe.ts';

/**
 * Focus order against visual order (WCAG 2.4.3 and 1.3.2; failure F1, positioning with CSS that
 * changes the order content is read in, and F44's focus order that does not follow the page):
 * three elements Tab reaches one after another in the same container, where the middle one is
 * shown before the first or after the third (Tab jumps back and forth), or the three are shown
 * in reverse. Needs review: a layout may have reasons.
 */

export interface Placed {
  id: number;
  /** The element's box in page coordinates. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** The container: the nearest ancestor that is not inline (the same for siblings in a line or list). */
  container: number;
  /** Fixed or sticky, off screen, right-to-left or not measurable: left out. */
  skip: boolean;
}

/** -1 when `a` is read before `b` (a line above, or left on the same line), 1 after, 0 when neither is clear. */
export function readingCompare(a: Placed, b: Placed): -1 | 0 | 1 {
  const overlap = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  const sameLine = overlap > 0.5 * Math.min(a.h, b.h);
  if (!sameLine) {
    if (a.y + a.h <= b.y + 1) return -1;
    if (b.y + b.h <= a.y + 1) return 1;
    return 0;
  }
  if (a.x + a.w <= b.x + 1) return -1;
  if (b.x + b.w <= a.x + 1) return 1;
  return 0;
}

function sameLine(a: Placed, b: Placed): boolean {
  const overlap = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return overlap > 0.5 * Math.min(a.h, b.h);
}

/** How far Tab must jump up or down, at least, to count (a grid read down its columns moves a row at a time). */
export const FAR_JUMP_PX = 200;

/**
 * The first three elements in tab order (as in `placed`), in one container, whose visual order
 * breaks the focus order, or null: on one line, the middle one shown before the first or after
 * the third, or all three shown in reverse; across lines, the middle one far above or below both
 * (Tab jumps up the page and down again).
 */
export function visualOrderBreak(placed: readonly Placed[]): { ids: [number, number, number]; kind: 'jump' | 'reversed' } | null {
  for (let i = 0; i + 2 < placed.length; i++) {
    const [a, b, c] = [placed[i]!, placed[i + 1]!, placed[i + 2]!];
    if (a.skip || b.skip || c.skip || a.container !== b.container || b.container !== c.container) continue;
    const ab = readingCompare(a, b);
    const bc = readingCompare(b, c);
    const ac = readingCompare(a, c);
    const line = sameLine(a, b) && sameLine(b, c);
    const far = (p: Placed) => Math.abs(b.y - p.y) >= Math.max(FAR_JUMP_PX, 3 * Math.max(p.h, b.h));
    // The first and third in order, the middle one shown before the first or after the third.
    if (ac === -1 && (ab === 1 || bc === 1) && (line || (far(a) && far(c)))) return { ids: [a.id, b.id, c.id], kind: 'jump' };
    if (line && ab === 1 && bc === 1 && ac === 1) return { ids: [a.id, b.id, c.id], kind: 'reversed' };
  }
  return null;
}

/** In the page: the boxes of the elements in tab order (at most `cap`). */
export function placeAll(k: Probe, arg: { ids: number[]; cap: number }): Placed[] {
  // Neighbours in the tab order share most of their ancestors: each element's style is read once,
  // and whether it or an ancestor is fixed or sticky is decided once.
  const styles = new Map<Element, CSSStyleDeclaration>();
  const style = (e: Element) => {
    let s = styles.get(e);
    if (!s) styles.set(e, (s = getComputedStyle(e)));
    return s;
  };
  const pinned = new Map<Element, boolean>();
  const pinnedUp = (el: Element): boolean => {
    const chain: Element[] = [];
    let known = false;
    for (let up: Element | null = el; up; up = up.parentElement) {
      const v = pinned.get(up);
      if (v !== undefined) {
        known = v;
        break;
      }
      chain.push(up);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const pos = style(chain[i]!).position;
      known = known || pos === 'fixed' || pos === 'sticky';
      pinned.set(chain[i]!, known);
    }
    return known;
  };
  const out: Placed[] = [];
  for (const id of arg.ids.slice(0, arg.cap)) {
    const el = k.el(id);
    if (!el || !el.isConnected || el.ownerDocument !== document) continue;
    const r = el.getBoundingClientRect();
    let container: Element | null = el.parentElement;
    while (container && container !== document.body && /^inline/.test(style(container).display)) container = container.parentElement;
    const skip = r.width < 1 || r.height < 1 || r.right < 0 || r.bottom + scrollY < 0 || style(el).direction === 'rtl' || pinnedUp(el);
    out.push({ id, x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height, container: container ? k.idFor(container) : -1, skip });
  }
  return out;
}
