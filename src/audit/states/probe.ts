import type { JSHandle, Page } from 'playwright';

/**
 * The state explorer's in-page side. `createProbe` runs once per document through
 * `page.evaluateHandle` and returns an object that only the scan holds (no global refers to it, so
 * the page's scripts cannot reach or replace it). Every call is bounded: a page has at most
 * `MAX_ELEMENTS` elements looked at, and waits end at their limit whatever the page does.
 */

/** What the Node side reads of one trigger the probe found. */
export interface TriggerInfo {
  /** Index in the probe's own list (valid until the document changes). */
  index: number;
  kind: TriggerKind;
  /** axe's unique selector of the control (the same identity findings have). */
  selector: string;
  /** Its accessible name, else its text, trimmed and bounded. */
  label: string;
}

/**
 * What a trigger opens. `script`: a control with a click listener and no aria state (a script's
 * toggle); whether its click reveals anything is found by what the click changes.
 */
export type TriggerKind = 'details' | 'tab' | 'dialog' | 'popover' | 'menu' | 'disclosure' | 'script';

/** Whether the page is back where it was when `snapshot` was taken, and if not, what differs. */
export interface RestoredCheck {
  same: boolean;
  why: string;
}

/** The probe as seen from Node: an opaque handle whose methods run in the page. */
export interface Probe {
  /** All elements of the document and its open shadow roots, in tree order, at most `max`. */
  all(): Element[];
  visible(el: Element): boolean;
  triggers: Array<{ el: Element; kind: TriggerKind; selectedTab: Element | null }>;
  /** The revealed roots of the last `revealed` call. */
  roots: Element[];
  snapshot(): void;
  settle(quietMs: number, maxMs: number): Promise<void>;
  revealed(maxRoots: number, maxChangedSubtree: number): number;
  restored(): RestoredCheck;
  closeNew(): void;
  restoreDetails(): void;
  setDetails(index: number, open: boolean): void;
  expanded(index: number): string | null;
  modalOpen(): boolean;
  blur(): void;
  /** Puts the page's local and session storage back as `snapshot` found them (a click may write there). */
  restoreStorage(): void;
}

/** In the page: the probe (see `Probe`). Self-contained: Playwright sends its source. */
export function createProbe(maxElements: number): Probe {
  const STATEFUL = '[aria-expanded],[aria-selected],[aria-pressed],[aria-hidden],[aria-current],details,dialog,[inert],[popover]';
  let before = new WeakSet<Element>();
  let beforeCount = 0;
  let beforeStateful: Array<[Element, string]> = [];
  let beforeOpenDialogs: Element[] = [];
  let beforePopovers: Element[] = [];
  let beforeDetails: Array<[HTMLDetailsElement, boolean]> = [];
  let beforeUrl = '';
  let beforeStorage: Array<[Storage, Array<[string, string]>]> = [];
  let changed = new Set<Element>();
  let observer: MutationObserver | undefined;

  const probe: Probe = {
    triggers: [],
    roots: [],
    all() {
      const out: Element[] = [];
      const walk = (root: Document | ShadowRoot) => {
        for (const el of Array.from(root.querySelectorAll('*'))) {
          if (out.length >= maxElements) return;
          out.push(el);
          if (el.shadowRoot) walk(el.shadowRoot);
        }
      };
      walk(document);
      return out;
    },
    visible(el) {
      const check = (el as Element & { checkVisibility?: (o: unknown) => boolean }).checkVisibility;
      if (typeof check === 'function') return check.call(el, { visibilityProperty: true });
      const cs = getComputedStyle(el);
      return cs.display !== 'none' && cs.visibility !== 'hidden' && el.getClientRects().length > 0;
    },
    snapshot() {
      observer?.disconnect();
      before = new WeakSet();
      beforeCount = 0;
      const all = probe.all();
      for (const el of all) {
        if (probe.visible(el)) {
          before.add(el);
          beforeCount++;
        }
      }
      beforeStateful = statefulOf(all);
      beforeStorage = storageOf();
      beforeOpenDialogs = Array.from(document.querySelectorAll('dialog[open]'));
      beforePopovers = all.filter(popoverOpen);
      beforeDetails = Array.from(document.querySelectorAll('details')).map((d) => [d, d.open]);
      beforeUrl = location.href;
      changed = new Set();
      // Elements whose attributes or text change while the state opens: the trigger itself, a
      // container whose class shows its menu (see `revealed` for which of them are checked).
      observer = new MutationObserver((records) => {
        for (const r of records) {
          const el = r.type === 'characterData' ? r.target.parentElement : r.target instanceof Element ? r.target : null;
          if (el && changed.size < 10_000) changed.add(el);
        }
      });
      observer.observe(document, { subtree: true, attributes: true, characterData: true, childList: true });
    },
    async settle(quietMs, maxMs) {
      const t0 = performance.now();
      let last = t0;
      const mo = new MutationObserver(() => void (last = performance.now()));
      mo.observe(document, { subtree: true, attributes: true, characterData: true, childList: true });
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      // Two frames: what the click scheduled for the next frame has run.
      await Promise.race([new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))), sleep(100)]);
      try {
        while (performance.now() - t0 < maxMs) {
          // A transition or animation that ends (a menu sliding in, a dialog fading in) is waited
          // for: colours half-way are not what a person reads. Endless ones (spinners) are not.
          const moving = document.getAnimations().some((a) => {
            if (a.playState !== 'running') return false;
            const t = a.effect?.getComputedTiming();
            return !!t && t.iterations !== Infinity && Number.isFinite(Number(t.endTime));
          });
          // Content a click fetches (a menu filled from the server) is waited for too, within the bound.
          const busy = (window as unknown as { __a11yBusy?: () => boolean }).__a11yBusy;
          if (!moving && performance.now() - last >= quietMs && !(typeof busy === 'function' && busy())) return;
          await sleep(25);
        }
      } finally {
        mo.disconnect();
      }
    },
    revealed(maxRoots, maxChangedSubtree) {
      observer?.disconnect();
      observer = undefined;
      const mark = new Set<Element>();
      for (const el of probe.all()) if (!before.has(el) && probe.visible(el)) mark.add(el);
      // An element shown before whose attributes or text changed: checked again when it is small
      // (a trigger now expanded, a list now styled open), not a page-wide container whose class
      // changed (its newly shown parts are checked on their own).
      for (const el of changed) {
        if (mark.has(el) || !before.has(el) || el === document.documentElement || el === document.body || !el.isConnected) continue;
        if (el.getElementsByTagName('*').length <= maxChangedSubtree && probe.visible(el)) mark.add(el);
      }
      const parentOf = (el: Element): Element | null => el.parentElement ?? ((el.getRootNode() as ShadowRoot).host || null);
      const roots: Element[] = [];
      for (const el of mark) {
        let p = parentOf(el);
        let inside = false;
        while (p) {
          if (mark.has(p)) {
            inside = true;
            break;
          }
          p = parentOf(p);
        }
        if (!inside) roots.push(el);
        if (roots.length >= maxRoots) break;
      }
      probe.roots = roots;
      return roots.length;
    },
    restored() {
      if (location.href !== beforeUrl) return { same: false, why: 'the address changed' };
      const all = probe.all();
      let count = 0;
      for (const el of all) {
        if (!probe.visible(el)) continue;
        if (!before.has(el)) return { same: false, why: `a <${el.localName}> is shown that was not` };
        count++;
      }
      if (count !== beforeCount) return { same: false, why: `${beforeCount - count} elements shown before are hidden or gone` };
      const stateful = statefulOf(all);
      if (stateful.length !== beforeStateful.length || stateful.some(([el, v], i) => el !== beforeStateful[i]![0] || v !== beforeStateful[i]![1])) {
        return { same: false, why: 'an expanded, selected, pressed or hidden state differs' };
      }
      return { same: true, why: '' };
    },
    closeNew() {
      for (const d of Array.from(document.querySelectorAll('dialog[open]'))) if (!beforeOpenDialogs.includes(d)) (d as HTMLDialogElement).close();
      for (const el of probe.all()) {
        if (popoverOpen(el) && !beforePopovers.includes(el)) {
          try {
            (el as HTMLElement).hidePopover();
          } catch {
            // not a popover any more
          }
        }
      }
    },
    restoreDetails() {
      for (const [d, open] of beforeDetails) if (d.isConnected && d.open !== open) d.open = open;
    },
    setDetails(index, open) {
      const el = probe.triggers[index]?.el;
      const details = el?.localName === 'details' ? (el as HTMLDetailsElement) : (el?.parentElement as HTMLDetailsElement | null);
      if (details?.localName === 'details') details.open = open;
    },
    expanded(index) {
      return probe.triggers[index]?.el.getAttribute('aria-expanded') ?? null;
    },
    modalOpen() {
      return !!document.querySelector('dialog:modal') || Array.from(document.querySelectorAll('[aria-modal="true"]')).some((el) => probe.visible(el));
    },
    blur() {
      const active = document.activeElement as HTMLElement | null;
      if (active && active !== document.body) active.blur?.();
    },
    restoreStorage() {
      for (const [store, entries] of beforeStorage) {
        try {
          const keep = new Map(entries);
          for (let i = store.length - 1; i >= 0; i--) {
            const key = store.key(i);
            if (key !== null && !keep.has(key)) store.removeItem(key);
          }
          for (const [key, value] of entries) if (store.getItem(key) !== value) store.setItem(key, value);
        } catch {
          // storage denied or full: left as it is
        }
      }
    },
  };

  /** The page's local and session storage, each when readable and small (≤ 500 keys, ≤ 1 M characters). */
  function storageOf(): Array<[Storage, Array<[string, string]>]> {
    const out: Array<[Storage, Array<[string, string]>]> = [];
    for (const name of ['localStorage', 'sessionStorage'] as const) {
      try {
        const store = window[name];
        if (!store || store.length > 500) continue;
        const entries: Array<[string, string]> = [];
        let size = 0;
        for (let i = 0; i < store.length; i++) {
          const key = store.key(i);
          const value = key === null ? null : store.getItem(key);
          if (key === null || value === null) continue;
          size += key.length + value.length;
          entries.push([key, value]);
        }
        if (size <= 1_000_000) out.push([store, entries]);
      } catch {
        // storage denied (sandboxed, opaque origin): nothing to put back
      }
    }
    return out;
  }

  function popoverOpen(el: Element): boolean {
    if (!el.hasAttribute('popover')) return false;
    try {
      return el.matches(':popover-open');
    } catch {
      return false;
    }
  }

  /** Elements that carry an open, expanded, selected or hidden state, with that state as a string. */
  function statefulOf(all: Element[]): Array<[Element, string]> {
    const out: Array<[Element, string]> = [];
    for (const el of all) {
      if (!el.matches(STATEFUL)) continue;
      const a = (n: string) => el.getAttribute(n) ?? '-';
      const open = (el as HTMLDetailsElement).open === true || popoverOpen(el);
      out.push([el, `${a('aria-expanded')}|${a('aria-selected')}|${a('aria-pressed')}|${a('aria-hidden')}|${a('aria-current')}|${el.hasAttribute('inert')}|${open}`]);
    }
    return out;
  }

  return probe;
}

/**
 * `page.evaluate` with an argument that holds the probe's handle: Playwright unwraps the handle in
 * the page, but its typing of that unwrapping recurses too deep for the DOM's types.
 */
export function inPage<A, R>(page: Page, fn: (arg: A) => R | Promise<R>, arg: unknown): Promise<R> {
  return (page.evaluate as unknown as (f: unknown, a: unknown) => Promise<R>).call(page, fn, arg);
}

/** `page.evaluateHandle`, typed as `inPage` is. */
export function handleIn<A>(page: Page, fn: (arg: A) => unknown, arg: unknown): Promise<JSHandle> {
  return (page.evaluateHandle as unknown as (f: unknown, a: unknown) => Promise<JSHandle>).call(page, fn, arg);
}
