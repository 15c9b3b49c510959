import type { reflowRegistry } from './registry.ts';
/**
 * WCAG 1.4.12 Text Spacing, measured: the page is given the criterion's spacing (line height 1.5
 * times the font size, 2 em after paragraphs, letter spacing 0.12 em, word spacing 0.16 em, as the
 * W3C's text-spacing bookmarklet sets them: author styles with `!important`, so that inline
 * `!important` spacing still wins, which is what ACT 24afc2, 9e45ec and 78fd32 and axe's
 * `avoid-inline-spacing` report), laid out once, and measured for text that is lost (F104): cut by
 * a box that hides its overflow (the zoom check's `scanClips`), or spilling out of a box of fixed
 * height over the text that follows it. The in-page functions are sent as source: they use nothing
 * from outside themselves.
 */

/** The spacing of 1.4.12, as author styles. */
export const TEXT_SPACING_CSS =
  '*, *::before, *::after { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }';

/**
 * Runs in the page: adds (`on`) or removes the spacing as a constructed style sheet (no element
 * is added to the page, and a Content Security Policy does not apply to it). Returns whether the
 * spacing is on.
 */
export function setTextSpacing(css: string, on: boolean): boolean {
  const w = window as unknown as { __a11ySpacing?: CSSStyleSheet };
  const d = document as Document & { adoptedStyleSheets: CSSStyleSheet[] };
  if (on) {
    if (w.__a11ySpacing) return true;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    d.adoptedStyleSheets = [...d.adoptedStyleSheets, sheet];
    Object.defineProperty(w, '__a11ySpacing', { value: sheet, configurable: true, enumerable: false });
    return true;
  }
  const sheet = w.__a11ySpacing;
  if (sheet) {
    d.adoptedStyleSheets = d.adoptedStyleSheets.filter((s) => s !== sheet);
    delete w.__a11ySpacing;
  }
  return false;
}

/**
 * Runs in the page before the spacing: how far each element's content already reaches below its
 * box (`scrollHeight - clientHeight`), kept for `scanSpill`. Only reads layout (no styles).
 */
export function recordSpill(opts: { maxElements: number }): number {
  const w = window as unknown as { __a11ySpillBefore?: WeakMap<Element, number> };
  const before = new WeakMap<Element, number>();
  Object.defineProperty(w, '__a11ySpillBefore', { value: before, configurable: true, enumerable: false, writable: true });
  const all = document.body ? document.body.getElementsByTagName('*') : ([] as unknown as HTMLCollectionOf<Element>);
  let n = 0;
  for (let i = 0; i < all.length && i < opts.maxElements; i++) {
    const el = all[i]!;
    const spill = el.scrollHeight - el.clientHeight;
    if (spill > 0) {
      before.set(el, spill);
      n++;
    }
  }
  return n;
}

export interface SpillHit {
  id: number;
  /** The element whose text the spilled text runs over. */
  otherId: number;
  text: string;
  otherText: string;
  width: number;
  height: number;
  /** How far the text now reaches below the box, in px. */
  spill: number;
  /** The text run over belongs to an absolutely positioned box (an overlay, maybe meant to cover). */
  positioned: boolean;
}

/**
 * Runs in the page with the spacing on: boxes whose text now reaches below them (and did not
 * before, by more than a few pixels) over visible text that follows them. Only the innermost such
 * box is looked at (a box that spills makes every ancestor of auto height report overflow too).
 */
export function scanSpill(registry: typeof reflowRegistry, opts: { maxElements: number; maxCandidates: number; maxTexts: number }): SpillHit[] {
  const w = window as unknown as { __a11ySpillBefore?: WeakMap<Element, number> };
  const { idOf } = registry();
  const before = w.__a11ySpillBefore ?? new WeakMap<Element, number>();
  if (!document.body) return [];
  const all = document.body.getElementsByTagName('*');
  const TOL = 4;
  const found: Element[] = [];
  for (let i = 0; i < all.length && i < opts.maxElements; i++) {
    const el = all[i]!;
    const ch = el.clientHeight;
    if (ch <= 2) continue;
    const spill = el.scrollHeight - ch;
    if (spill <= TOL || spill - (before.get(el) ?? 0) <= TOL) continue;
    const cs = getComputedStyle(el);
    if (cs.overflowY !== 'visible' || cs.position === 'fixed') continue;
    found.push(el);
    if (found.length >= opts.maxCandidates * 4) break;
  }
  // Innermost only: a box with a spilling box inside it spills because of it.
  const inner = found.filter((el) => !found.some((o) => o !== el && el.contains(o))).slice(0, opts.maxCandidates);
  const visible = (el: Element) => {
    const e = el as Element & { checkVisibility?: (o: object) => boolean };
    return !e.checkVisibility || e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  };
  const linesOf = (t: Text) => {
    const range = document.createRange();
    range.selectNodeContents(t);
    return Array.from(range.getClientRects()).filter((q) => q.width > 0 && q.height > 0);
  };
  const sample = (t: Text) => t.data.replace(/\s+/g, ' ').trim().slice(0, 80);
  const out: SpillHit[] = [];
  let texts = 0;
  for (const c of inner) {
    try {
      if (c.closest('[aria-hidden="true"]') || !visible(c)) continue;
      const r = c.getBoundingClientRect();
      const bottom = r.top + c.clientTop + c.clientHeight;
      // Its lines of text that now lie below it, by more than a quarter of a line.
      const spilled: DOMRect[] = [];
      let text = '';
      const own = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
      for (let n = own.nextNode(); n && texts < opts.maxTexts; n = own.nextNode()) {
        const t = n as Text;
        if (!t.data.trim() || !t.parentElement || !visible(t.parentElement)) continue;
        texts++;
        for (const q of linesOf(t)) {
          if (q.bottom > bottom + TOL && q.bottom - bottom > 0.25 * q.height) {
            spilled.push(q);
            if (!text) text = sample(t);
          }
        }
      }
      if (spilled.length === 0) continue;
      // Visible text after it, in document order, that those lines run over.
      const next = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      next.currentNode = c;
      let looked = 0;
      let hit: { el: Element; text: string; positioned: boolean } | null = null;
      for (let n = next.nextNode(); n && looked < 300 && texts < opts.maxTexts && !hit; n = next.nextNode()) {
        const t = n as Text;
        if (c.contains(t) || !t.data.trim()) continue;
        const p = t.parentElement;
        if (!p || !visible(p) || p.closest('[aria-hidden="true"]')) continue;
        looked++;
        texts++;
        for (const q of linesOf(t)) {
          const over = spilled.some((s) => {
            const ix = Math.min(s.right, q.right) - Math.max(s.left, q.left);
            const iy = Math.min(s.bottom, q.bottom) - Math.max(s.top, q.top);
            return ix >= 8 && iy >= 0.4 * Math.min(s.height, q.height);
          });
          if (!over) continue;
          let positioned = false;
          let fixed = false;
          for (let a: Element | null = p; a && a !== document.body; a = a.parentElement) {
            if (a.contains(c)) break;
            const pos = getComputedStyle(a).position;
            if (pos === 'fixed' || pos === 'sticky') fixed = true;
            if (pos === 'absolute') positioned = true;
          }
          if (!fixed) hit = { el: p, text: sample(t), positioned };
          break;
        }
      }
      if (!hit) continue;
      const lowest = Math.max(...spilled.map((s) => s.bottom));
      out.push({
        id: idOf(c),
        otherId: idOf(hit.el),
        text,
        otherText: hit.text,
        width: Math.round(r.width),
        height: Math.round(r.height),
        spill: Math.round(lowest - bottom),
        positioned: hit.positioned,
      });
    } catch {
      // detached, odd box: skip it
    }
  }
  return out;
}
