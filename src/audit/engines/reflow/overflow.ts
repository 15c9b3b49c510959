import type { reflowRegistry } from './registry.ts';
/**
 * 1.4.10 in the page (sent as source by the reflow engine, so it must stay self-contained): at
 * the current (narrow) viewport, the elements where content starts to stick out past the right
 * edge of the viewport or of a box that scrolls sideways, and whether text lies past that edge.
 * Element ids are kept in `window.__a11yReflow`, shared with the clipping scans.
 */

export interface OverflowHit {
  id: number;
  exempt: boolean;
  textBeyond: boolean;
  lineWider: boolean;
  inScroller: boolean;
  right: number;
  width: number;
  viewWidth: number;
  text: string;
}

/** Runs in the page: where content sticks out past the right edge of the viewport or of a box that scrolls sideways. */
export function scanOverflow(registry: typeof reflowRegistry, opts: { maxElements: number; maxTexts: number }): { docWidth: number; viewWidth: number; rootClips: boolean; hits: OverflowHit[] } {
  const { idOf } = registry();
  const root = document.scrollingElement ?? document.documentElement;
  const vw = document.documentElement.clientWidth;
  const docWidth = root.scrollWidth;
  const hides = (v: string) => v === 'hidden' || v === 'clip';
  const rootCs = getComputedStyle(document.documentElement);
  const bodyCs = document.body ? getComputedStyle(document.body) : null;
  const rootClips = hides(rootCs.overflowX) || (rootCs.overflowX === 'visible' && !!bodyCs && hides(bodyCs.overflowX));
  const pageOverflows = docWidth > vw + 1 || rootClips;
  const styles = new Map<Element, CSSStyleDeclaration>();
  const style = (el: Element) => {
    let cs = styles.get(el);
    if (!cs) {
      cs = getComputedStyle(el);
      styles.set(el, cs);
    }
    return cs;
  };
  // The box an element's horizontal overflow belongs to: the page (null), a box that scrolls
  // sideways, or 'gone' (clipped by a hidden-overflow box, or fixed to the viewport).
  const ctxCache = new Map<Element, Element | null | 'gone'>();
  const ctxOf = (el: Element): Element | null | 'gone' => {
    const hit = ctxCache.get(el);
    if (hit !== undefined) return hit;
    let res: Element | null | 'gone';
    if (style(el).position === 'fixed') res = 'gone';
    else {
      const p = el.parentElement;
      if (!p || p === document.body || p === document.documentElement) res = null;
      else {
        const ox = style(p).overflowX;
        res = ox === 'visible' ? ctxOf(p) : hides(ox) ? 'gone' : p;
      }
    }
    ctxCache.set(el, res);
    return res;
  };
  const edgeOf = (ctx: Element | null): number => {
    if (!ctx) return vw;
    const r = ctx.getBoundingClientRect();
    return r.left + ctx.clientLeft + ctx.clientWidth;
  };
  const scrollerOverflows = (s: Element) => s.scrollWidth > s.clientWidth + 1;
  const exemptSel =
    'table, pre, code, samp, kbd, math, svg, canvas, video, audio, iframe, object, embed, img, picture, map, [role="img"], [role="table"], [role="grid"], [role="treegrid"], [role="toolbar"], [role="math"], [role="application"]';
  interface Group {
    el: Element;
    ctx: Element | null;
    exempt: boolean;
    textBeyond: boolean;
    lineWider: boolean;
    right: number;
    text: string;
  }
  const groups = new Map<Element, Group>();
  const groupFor = (el: Element, ctx: Element | null): Group => {
    let g = groups.get(el);
    if (!g) {
      g = { el, ctx, exempt: !!el.closest(exemptSel), textBeyond: false, lineWider: false, right: el.getBoundingClientRect().right, text: '' };
      groups.set(el, g);
    }
    return g;
  };
  // Where an overflow starts: the highest box of the unbroken run of boxes crossing the edge,
  // from the element up (its parent fits). Memoised: a fixed-width body makes every box cross.
  const crossCache = new Map<Element, boolean>();
  const crosses = (el: Element, edge: number) => {
    let c = crossCache.get(el);
    if (c === undefined) {
      c = el.getBoundingClientRect().right > edge + 1;
      crossCache.set(el, c);
    }
    return c;
  };
  const originCache = new Map<Element, Element>();
  const originOf = (el: Element, ctx: Element | null, edge: number): Element | null => {
    if (!crosses(el, edge)) return null;
    const hit = originCache.get(el);
    if (hit) return hit;
    const p = el.parentElement;
    const o = p && p !== ctx && p !== document.documentElement && crosses(p, edge) ? (originOf(p, ctx, edge) ?? el) : el;
    originCache.set(el, o);
    return o;
  };
  if (!document.body) return { docWidth, viewWidth: vw, rootClips, hits: [] };
  const all = document.body.getElementsByTagName('*');
  // Elements whose box crosses the edge of their context.
  for (let i = 0; i < all.length && i < opts.maxElements; i++) {
    const el = all[i]!;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const ctx = ctxOf(el);
    if (ctx === 'gone') continue;
    if (ctx === null ? !pageOverflows : !scrollerOverflows(ctx)) continue;
    const edge = edgeOf(ctx);
    if (r.right <= edge + 1) continue;
    const o = originOf(el, ctx, edge);
    if (o) groupFor(o, ctx);
  }
  // Text past the edge: whose is it, and can it be seen.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let texts = 0;
  for (let n = walker.nextNode(); n && texts < opts.maxTexts; n = walker.nextNode()) {
    const t = n as Text;
    if (!t.data.trim()) continue;
    texts++;
    const p = t.parentElement;
    if (!p) continue;
    const ctx = ctxOf(p);
    if (ctx === 'gone') continue;
    if (ctx === null ? !pageOverflows : !scrollerOverflows(ctx)) continue;
    const pcs = style(p);
    if (pcs.visibility !== 'visible' || parseFloat(pcs.opacity) === 0) continue;
    const range = document.createRange();
    range.selectNodeContents(t);
    const rects = Array.from(range.getClientRects()).filter((q) => q.width > 0 && q.height > 0);
    const edge = edgeOf(ctx);
    const past = rects.filter((q) => q.right > edge + 1);
    if (past.length === 0) continue;
    const o = originOf(p, ctx, edge) ?? p;
    if (!o) continue;
    const g = groupFor(o, ctx);
    if (p.closest(exemptSel)) {
      // Text of a table or code inside a wider element: two-dimensional content.
      continue;
    }
    g.textBeyond = true;
    const viewWidth = ctx ? ctx.clientWidth : vw;
    if (rects.some((q) => q.width > viewWidth + 1)) g.lineWider = true;
    if (!g.text) g.text = t.data.replace(/\s+/g, ' ').trim().slice(0, 80);
  }
  const hits: OverflowHit[] = [];
  for (const g of groups.values()) {
    // A wrapper sticking out only because of two-dimensional content inside it.
    const exempt = g.exempt || (!g.textBeyond && !!g.el.querySelector(exemptSel));
    const r = g.el.getBoundingClientRect();
    hits.push({
      id: idOf(g.el),
      exempt,
      textBeyond: g.textBeyond,
      lineWider: g.lineWider,
      inScroller: g.ctx !== null,
      right: Math.round(g.right),
      width: Math.round(r.width),
      viewWidth: g.ctx ? g.ctx.clientWidth : vw,
      text: g.text,
    });
  }
  return { docWidth, viewWidth: vw, rootClips, hits };
}
