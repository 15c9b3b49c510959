import type { Page } from 'playwright';
import type { FocusPos } from './focus-walk.ts';

/**
 * The keyboard engine's hands in the page: the probe installed as `window.__a11yKbd` (where focus
 * lands after each key press, which `focus()` calls the page's own scripts make, whether they
 * cancel Tab, and the computed Tab order it can step along) and the runner that calls it. The key
 * presses that drive it are in presses.ts.
 */

export const debug = process.env.KBD_DEBUG ? (...a: unknown[]) => console.error('[kbd]', ...a) : () => {};

// ---- in the page ---------------------------------------------------------------------------------

/**
 * What the in-page walk did: the positions after each step, and why it stopped. `key`: focus is
 * on an element where a script listens to keys (on it or an ancestor): the next Tab must be
 * pressed for real. `unknown`: focus is somewhere the computed order does not cover (a shadow
 * tree, a frame, an element outside the order), or the page has something the computation does
 * not model: real presses from here. `late`: a script moved focus outside any event handler.
 */
export interface StepWalk {
  positions: FocusPos[];
  stop: 'end' | 'cap' | 'key' | 'unknown' | 'late';
  /** Why the page's order could not be computed, when it could not. */
  why?: string;
}

export interface ProbeApi {
  take(from: number): FocusPos[];
  /** How many presses the log holds (where a walk of real presses starts reading it). */
  logged(): number;
  here(): FocusPos;
  /**
   * Tab presses the page cannot tell from focus moves (see `tabWalk`): from where focus is, focus
   * goes to the next element of the sequential focus order as the platform computes it, while
   * nothing but focus and blur events can answer; it stops where a real press is needed.
   */
  stepWalk(cap: number, keyIds: number[]): StepWalk;
  tabbable(): number[];
  /** Elements the page's scripts focused; `late`: how many of those calls came from a timer or promise, not from an event handler. */
  state(): { scripted: number[]; late: number; prevented: FocusPos[] };
  /** Waits until focus has not moved for `quietMs` (true), or `maxMs` passed (false). */
  settle(quietMs: number, maxMs: number): Promise<boolean>;
  focus(id: number, scroll: boolean): FocusPos;
  blur(): void;
  el(id: number): Element | undefined;
  idFor(el: Element): number;
  /**
   * Shift+Tab on this element (the first of the tab order) leaves the page in a real browser,
   * while headless Chromium wraps round to the last element: from now on, unless the page's own
   * handlers cancel that key press, the probe cancels it and takes focus away from the element,
   * as the browser's controls would. `null` turns this off.
   */
  edge(first: number | null): void;
  restore(x: number, y: number): void;
}

/**
 * The in-page probe, `window.__a11yKbd`. Runs in the page: uses nothing from this module.
 * Returns the scroll position to put back.
 */
export function installProbe(): { x: number; y: number } {
  const w = window as unknown as { __a11yKbd?: ProbeApi };
  const at = { x: window.scrollX, y: window.scrollY };
  if (w.__a11yKbd) return at;
  const ids = new WeakMap<Element, number>();
  const refs: Array<WeakRef<Element>> = [];
  const idOf = (el: Element): number => {
    let id = ids.get(el);
    if (id === undefined) {
      id = refs.length;
      refs.push(new WeakRef(el));
      ids.set(el, id);
    }
    return id;
  };
  const deepEl = (): Element | 'page' | 'opaque' => {
    let a: Element | null = document.activeElement;
    for (let i = 0; i < 20 && a; i++) {
      const sr = (a as Element).shadowRoot;
      if (sr && sr.activeElement) {
        a = sr.activeElement;
        continue;
      }
      if (a.tagName === 'IFRAME' || a.tagName === 'FRAME') {
        let doc: Document | null = null;
        try {
          doc = (a as HTMLIFrameElement).contentDocument;
        } catch {
          doc = null;
        }
        if (!doc) return 'opaque';
        const inner = doc.activeElement;
        if (!inner || inner === doc.body || inner === doc.documentElement) break;
        a = inner;
        continue;
      }
      break;
    }
    if (!a || a === document.body || a === document.documentElement) return 'page';
    return a;
  };
  const here = (): FocusPos => {
    const d = deepEl();
    return typeof d === 'string' ? d : idOf(d);
  };
  const st = { log: [] as FocusPos[], changes: 0, lastChange: 0, scripted: [] as number[], late: 0, prevented: [] as FocusPos[], ours: false, lastDown: null as KeyboardEvent | null, first: null as number | null };
  // Named: the page's key listeners are told from the probe's by these names (page-facts.ts).
  const onDown = function a11yKbdProbeKeyDown(e: Event) {
    st.lastDown = e as KeyboardEvent;
  };
  let noted: Event | null = null;
  const onUp = function a11yKbdProbeKeyUp() {
    const d = st.lastDown;
    st.lastDown = null;
    const p = here();
    if (d && d.key === 'Tab' && d.defaultPrevented && d !== noted) st.prevented.push(p);
    st.log.push(p);
  };
  // Runs after the page's own handlers (window, bubbling phase): sees whether they cancelled the key.
  const onDownLast = function a11yKbdProbeKeyDownLast(e: Event) {
    const ke = e as KeyboardEvent;
    // Noted here too: a handler that opens a window on keydown can keep the keyup from arriving.
    if (ke.key === 'Tab' && ke.defaultPrevented && ke !== noted) {
      noted = ke;
      st.prevented.push(here());
    }
    if (st.first === null || ke.key !== 'Tab' || !ke.shiftKey || ke.defaultPrevented) return;
    const d = deepEl();
    if (typeof d === 'string' || ids.get(d) !== st.first) return;
    ke.preventDefault();
    (d as HTMLElement).blur?.();
  };
  const onChange = () => {
    st.changes++;
    st.lastChange = performance.now();
  };
  const wins: Window[] = [];
  const attach = (win: Window) => {
    try {
      win.addEventListener('keydown', onDown, true);
      win.addEventListener('keyup', onUp, true);
      win.addEventListener('keydown', onDownLast, false);
      win.addEventListener('focusin', onChange, true);
      win.addEventListener('focusout', onChange, true);
      wins.push(win);
    } catch {
      // a frame that went away
    }
  };
  attach(window);
  for (const f of Array.from(document.querySelectorAll('iframe, frame')).slice(0, 20)) {
    try {
      const cw = (f as HTMLIFrameElement).contentWindow;
      if (cw && cw.document) attach(cw);
    } catch {
      // cross-origin: its keys are not seen (positions there are "opaque")
    }
  }
  // Focus moved by the page's own scripts: every call of focus() not made by the probe.
  const patched: Array<[object, PropertyDescriptor]> = [];
  type FocusFn = (this: Element, o?: FocusOptions) => void;
  /** The platform's own focus methods (HTML, SVG, MathML elements each have one). */
  const nativeFocus: Array<[object, FocusFn]> = [];
  const focusNatively = (el: Element, o: FocusOptions): void => {
    const f = nativeFocus.find(([proto]) => Object.prototype.isPrototypeOf.call(proto, el));
    if (f) f[1].call(el, o);
  };
  const mathml = (globalThis as unknown as { MathMLElement?: { prototype: object } }).MathMLElement;
  for (const proto of [HTMLElement.prototype, SVGElement.prototype, mathml?.prototype]) {
    if (!proto) continue;
    const d = Object.getOwnPropertyDescriptor(proto, 'focus');
    if (!d || typeof d.value !== 'function') continue;
    const orig = d.value as (this: Element, ...a: unknown[]) => unknown;
    nativeFocus.push([proto, orig as FocusFn]);
    patched.push([proto, d]);
    Object.defineProperty(proto, 'focus', {
      ...d,
      value: function (this: Element, ...args: unknown[]) {
        if (!st.ours) {
          st.scripted.push(idOf(this));
          // Outside any event handler: a timer, which can race with key presses sent quickly.
          if ((window as unknown as { event?: Event }).event === undefined) st.late++;
          onChange();
        }
        return orig.apply(this, args);
      },
    });
  }
  const visible = (el: Element): boolean => {
    const e = el as Element & { checkVisibility?: (o: object) => boolean };
    if (e.checkVisibility && !e.checkVisibility({ checkVisibilityCSS: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0;
  };

  // ---- the sequential focus order, computed as the platform decides it -------------------------
  // HTML's sequential focus navigation as Chromium implements it: elements with a positive
  // tabindex first (ascending, then in tree order), then those with tabindex 0 or focusable by
  // default, in tree order; never what is disabled, inert, `display: none` or
  // `visibility: hidden`; one stop per radio group (its checked button, else the first reached);
  // a scrolling box with no keyboard-focusable element inside it (Chromium's keyboard-focusable
  // scrollers). What this does not model (shadow trees, frames, plugins, image maps, media
  // controls, a modal dialog, an editable document) makes the page's order unknown.
  type Order = { list: Element[]; at: Map<Element, number>; why?: string };
  const tabAttr = (el: Element): number | null => {
    const a = el.getAttribute('tabindex');
    if (a === null) return null;
    const m = /^\s*([+-]?\d+)/.exec(a);
    return m ? Math.max(-1e9, Math.min(1e9, parseInt(m[1]!, 10))) : null;
  };
  const FORM = new Set(['button', 'input', 'select', 'textarea']);
  const focusableByDefault = (el: Element): boolean => {
    switch (el.localName) {
      case 'a':
        return el.hasAttribute('href') || el.hasAttributeNS('http://www.w3.org/1999/xlink', 'href');
      case 'button':
      case 'select':
      case 'textarea':
        return el instanceof HTMLElement;
      case 'input':
        return (el as HTMLInputElement).type !== 'hidden';
      case 'summary': {
        const d = el.parentElement;
        return !!d && d.localName === 'details' && d.querySelector(':scope > summary') === el;
      }
    }
    // An editing host: an element made editable whose parent is not.
    return el.hasAttribute('contenteditable') && (el as HTMLElement).isContentEditable === true && !(el.parentElement as HTMLElement | null)?.isContentEditable;
  };
  const shown = (el: Element): boolean => {
    const e = el as Element & { checkVisibility?: (o: object) => boolean };
    return e.checkVisibility ? e.checkVisibility({ visibilityProperty: true }) : (el as HTMLElement).offsetParent !== null || getComputedStyle(el).position === 'fixed';
  };
  const SCROLLS = /^(auto|scroll|overlay)$/;
  const scrollsByKeys = (el: Element): boolean => {
    if (el === document.documentElement || !(el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth)) return false;
    const cs = getComputedStyle(el);
    return (SCROLLS.test(cs.overflowY) && el.scrollHeight > el.clientHeight) || (SCROLLS.test(cs.overflowX) && el.scrollWidth > el.clientWidth);
  };
  const ORDER_LIMIT = 20000;
  const unknownOrder = (why: string): Order => ({ list: [], at: new Map(), why });
  const computeOrder = (): Order => {
    if (document.designMode === 'on') return unknownOrder('the document is editable');
    if (document.querySelector(':modal')) return unknownOrder('a modal dialog is open');
    const all = document.documentElement.getElementsByTagName('*');
    if (all.length > ORDER_LIMIT) return unknownOrder(`more than ${ORDER_LIMIT} elements`);
    const items: Array<{ el: Element; seq: number; scroller: boolean }> = [];
    for (let i = 0; i < all.length; i++) {
      const el = all[i]!;
      const ln = el.localName;
      if (el.shadowRoot) return unknownOrder('a shadow tree');
      if (ln.includes('-') && customElements.get(ln)) return unknownOrder('a custom element');
      // An image map's areas have no box of their own: any link area makes the order unknown.
      if (ln === 'area' && el.hasAttribute('href')) return unknownOrder('an image map');
      if (ln === 'iframe' || ln === 'frame' || ln === 'object' || ln === 'embed' || ((ln === 'video' || ln === 'audio') && el.hasAttribute('controls')) || (ln === 'details' && !el.querySelector(':scope > summary'))) {
        if (shown(el)) return unknownOrder(`a visible <${ln}>`);
        continue;
      }
      const own = tabAttr(el);
      const byDefault = focusableByDefault(el);
      if (FORM.has(ln) && el.matches(':disabled')) continue;
      if (own === null && !byDefault) {
        if (ln !== 'body' && scrollsByKeys(el)) items.push({ el, seq: 0, scroller: true });
        continue;
      }
      const seq = own ?? 0;
      if (seq >= 0) items.push({ el, seq, scroller: false });
    }
    // A scrolling box is a stop only when no keyboard-focusable element is inside it: the next
    // item in tree order is then not one of its descendants.
    const kept = items.filter((it, i) => !it.scroller || !(items[i + 1] && it.el.contains(items[i + 1]!.el)));
    const sorted = kept.map((it, i) => ({ ...it, i })).sort((a, b) => (a.seq > 0 ? a.seq : Infinity) - (b.seq > 0 ? b.seq : Infinity) || a.i - b.i);
    const list = sorted.map((it) => it.el);
    return { list, at: new Map(list.map((el, i) => [el, i])) };
  };
  const radioGroup = (r: HTMLInputElement): HTMLInputElement[] =>
    r.name ? (Array.from(r.getRootNode() instanceof Document ? document.getElementsByName(r.name) : []) as HTMLInputElement[]).filter((x) => x.localName === 'input' && x.type === 'radio' && x.form === r.form) : [r];
  const focusableNow = (el: Element, from: Element | null): boolean => {
    if (!el.isConnected || (FORM.has(el.localName) && el.matches(':disabled'))) return false;
    const own = tabAttr(el);
    if (own !== null && own < 0) return false;
    if (el.closest('[inert]') || !shown(el)) return false;
    if (el.localName === 'input' && (el as HTMLInputElement).type === 'radio' && (el as HTMLInputElement).name) {
      const group = radioGroup(el as HTMLInputElement);
      if (from && group.includes(from as HTMLInputElement)) return false;
      const checked = group.find((x) => x.checked);
      if (checked && checked !== el) return false;
    }
    return true;
  };
  let order: Order | null = null;
  const ORDER_ATTRIBUTES = ['tabindex', 'href', 'disabled', 'contenteditable', 'type', 'open', 'inert', 'controls', 'name'];
  // The page's own scripts may change what is focusable as focus moves (a roving tabindex, a menu
  // filled in on focus), also between two calls (a key handler a real press set off): watched
  // from the first computation until the probe is removed, and the order computed again.
  let orderChanged = false;
  const changes = new MutationObserver(() => {
    orderChanged = true;
  });
  const stepWalk = (cap: number, keyIds: number[]): StepWalk => {
    const positions: FocusPos[] = [];
    if (!order) {
      changes.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ORDER_ATTRIBUTES });
      order = computeOrder();
    }
    if (order.why) return { positions, stop: 'unknown', why: order.why };
    const keyEls = new Set(keyIds.map((id) => refs[id]?.deref()).filter((e): e is Element => !!e));
    const listensToKeys = (el: Element): boolean => {
      for (let n: Element | null = el; n; n = n.parentElement) if (keyEls.has(n)) return true;
      return false;
    };
    let recomputed = 0;
    let cur = here();
    while (positions.length < cap) {
      if (changes.takeRecords().length > 0 || orderChanged) {
        orderChanged = false;
        if (++recomputed > 5) return { positions, stop: 'unknown', why: 'the page keeps changing what can take focus' };
        order = computeOrder();
        if (order.why) return { positions, stop: 'unknown', why: order.why };
      }
      let curEl: Element | null = null;
      let from = -1;
      if (cur === 'opaque') return { positions, stop: 'unknown', why: 'focus is in a frame' };
      if (cur !== 'page') {
        curEl = refs[cur]?.deref() ?? null;
        if (!curEl) return { positions, stop: 'unknown', why: 'the focused element went away' };
        if (listensToKeys(curEl)) return { positions, stop: 'key' };
        const i = order.at.get(curEl);
        if (i === undefined) return { positions, stop: 'unknown', why: 'focus is on an element outside the computed order' };
        from = i;
      }
      let next: Element | null = null;
      for (let j = from + 1; j < order.list.length && !next; j++) if (focusableNow(order.list[j]!, curEl)) next = order.list[j]!;
      if (next) focusNatively(next, { preventScroll: true });
      // Past the last element, focus leaves the document for the browser's own controls.
      else (curEl as HTMLElement | null)?.blur?.();
      cur = here();
      positions.push(cur);
      if (st.late > 0) return { positions, stop: 'late' };
      if (!next && cur === 'page') return { positions, stop: 'end' };
    }
    return { positions, stop: 'cap' };
  };
  const api: ProbeApi = {
    take: (from) => st.log.slice(from),
    logged: () => st.log.length,
    stepWalk: (cap, keyIds) => (nativeFocus.length > 0 ? stepWalk(cap, keyIds) : { positions: [], stop: 'unknown', why: 'focus() could not be wrapped' }),
    here,
    tabbable() {
      const sel = 'a[href], area[href], button, input, select, textarea, iframe, summary, audio[controls], video[controls], [tabindex], [contenteditable]';
      const out: number[] = [];
      for (const el of Array.from(document.querySelectorAll(sel)).slice(0, 3000)) {
        const h = el as HTMLElement & { disabled?: boolean };
        if (h.tabIndex < 0 || h.disabled || (el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'hidden')) continue;
        if (el.closest('[inert]') || !visible(el)) continue;
        out.push(idOf(el));
      }
      return out;
    },
    state: () => ({ scripted: st.scripted.slice(0, 200), late: st.late, prevented: st.prevented.slice(0, 50) }),
    settle(quietMs, maxMs) {
      const start = performance.now();
      return new Promise<boolean>((resolve) => {
        const tick = () => {
          const now = performance.now();
          if (now - start >= quietMs && now - st.lastChange >= quietMs) resolve(true);
          else if (now - start >= maxMs) resolve(false);
          else setTimeout(tick, 10);
        };
        setTimeout(tick, 10);
      });
    },
    focus(id, scroll) {
      const el = refs[id]?.deref() as HTMLElement | undefined;
      if (!el || !el.isConnected) return here();
      st.ours = true;
      try {
        if (scroll) el.scrollIntoView({ block: 'center', inline: 'nearest' });
        el.focus({ preventScroll: true });
      } finally {
        st.ours = false;
      }
      return here();
    },
    blur() {
      st.ours = true;
      try {
        const d = deepEl();
        if (typeof d !== 'string') (d as HTMLElement).blur?.();
        (document.activeElement as HTMLElement | null)?.blur?.();
      } finally {
        st.ours = false;
      }
    },
    el: (id) => refs[id]?.deref(),
    idFor: idOf,
    edge(first) {
      st.first = first;
    },
    restore(x, y) {
      api.blur();
      for (const win of wins) {
        try {
          win.removeEventListener('keydown', onDown, true);
          win.removeEventListener('keyup', onUp, true);
          win.removeEventListener('keydown', onDownLast, false);
          win.removeEventListener('focusin', onChange, true);
          win.removeEventListener('focusout', onChange, true);
        } catch {
          // gone
        }
      }
      for (const [proto, d] of patched) Object.defineProperty(proto, 'focus', d);
      changes.disconnect();
      window.scrollTo(x, y);
      delete w.__a11yKbd;
      delete (window as unknown as { __a11yKbdDlg?: unknown }).__a11yKbdDlg;
    },
  };
  w.__a11yKbd = api;
  return at;
}

export type Probe = ProbeApi;
/**
 * Runs `fn(probe, arg)` in the page. `fn` is sent as source (it may use nothing from this
 * module) and evaluated through DevTools, so a page's Content-Security-Policy does not block it.
 */
export const probe = <A, T>(page: Page, fn: (k: Probe, arg: A) => T, arg?: A): Promise<Awaited<T>> =>
  page.evaluate(
    `(() => { const k = window.__a11yKbd; if (!k) throw new Error('keyboard probe is gone (the page navigated)'); return (${fn.toString()})(k, ${JSON.stringify(arg ?? null)}); })()`,
  ) as Promise<Awaited<T>>;

