import type { CDPSession, Page } from 'playwright';
import type { FocusLook } from './focus-visible.ts';
import type { KeyListeners } from './presses.ts';
import { probe, type Probe } from './probe.ts';
import type { AuditWindow } from '../page-helpers.ts';

/**
 * What the keyboard checks measure in the page, through the probe: the functions serialised into
 * the page (each runs there and may use nothing from this module), the screenshots of focus, and
 * the event listeners DevTools reports. The findings are decided from these in checks.ts.
 */

const BOX_MARGIN = 8;

// ---- 2.1.2 ---------------------------------------------------------------------------------------

/** In the page: what the elements of a loop focus cannot leave are, and what the page says about keys. */
export const trapFacts = (k: Probe, { ids, exitSource }: { ids: number[]; exitSource: string }) => {
  const els = ids.map((i) => k.el(i)).filter((e): e is Element => !!e);
  const inOrder = els.slice().sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  const first = inOrder[0];
  const last = inOrder.at(-1);
  const textEntry = els.some((e) => {
    const t = e.tagName;
    if (t === 'TEXTAREA' || (e as HTMLElement).isContentEditable) return true;
    if (t === 'INPUT') return !/^(button|submit|reset|checkbox|radio|image|file|range|color)$/i.test((e as HTMLInputElement).type);
    return /^(textbox|application|searchbox|combobox)$/.test(e.getAttribute('role') || '');
  });
  const own = els
    .flatMap((e) => ['aria-label', 'aria-description', 'title', 'placeholder'].map((a) => e.getAttribute(a) || ''))
    .concat(
      els.flatMap((e) =>
        (e.getAttribute('aria-describedby') || '')
          .split(/\s+/)
          .filter(Boolean)
          .map((r) => document.getElementById(r)?.textContent || ''),
      ),
    )
    .join(' ');
  const text = `${(document.body?.innerText || '').slice(0, 20000)} ${own}`;
  const inDialog = els.some((e) => e.closest('[role="dialog"],[role="alertdialog"],[aria-modal="true"],dialog') !== null);
  // Tabbable elements on both sides of the loop that focus never reaches: the loop cuts the page
  // off. A loop at the page's start or end may let Shift+Tab or Tab reach the browser's own UI.
  const tabbables = k
    .tabbable()
    .filter((id) => !ids.includes(id))
    .map((id) => k.el(id))
    .filter((e): e is Element => !!e);
  const cutsOff =
    !!first && !!last && tabbables.some((e) => e.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING) && tabbables.some((e) => e.compareDocumentPosition(last) & Node.DOCUMENT_POSITION_PRECEDING);
  const exit = new RegExp(exitSource, 'i');
  const exitControl = els.some((e) => ['aria-label', 'title', 'value', 'alt'].map((a) => e.getAttribute(a) || '').concat((e as HTMLElement).innerText || e.textContent || '').some((t) => exit.test(t)));
  const A = (window as unknown as AuditWindow).__a11yAudit;
  const described = A.withTree(() => els.map((e) => A.describe(e)));
  return { firstIndex: first ? els.indexOf(first) : 0, textEntry, text, inDialog, exitControl, cutsOff, described, firstId: first ? ids[els.indexOf(first)] : ids[0] };
};

export type LoopFacts = Awaited<ReturnType<typeof trapFacts>>;

/** Whether the element, an ancestor (through shadow roots), the document or the window listens to key events. */
export async function hasKeyListeners(page: Page, cdp: CDPSession | null, id: number): Promise<boolean> {
  if (!cdp) return true;
  try {
    const { result } = await cdp.send('Runtime.evaluate', {
      expression: `(() => { const k = window.__a11yKbd; const out = []; let n = k && k.el(${Number(id)}); while (n) { out.push(n); n = n.parentNode || n.host || null; } out.push(window); return out; })()`,
    });
    if (!result.objectId) return true;
    const props = await cdp.send('Runtime.getProperties', { objectId: result.objectId, ownProperties: true });
    const objs = props.result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId).map((p) => p.value!.objectId!);
    for (const objectId of objs.slice(0, 60)) {
      const l = await cdp.send('DOMDebugger.getEventListeners', { objectId });
      if (l.listeners.some((x) => KEY_EVENTS.has(x.type))) return true;
    }
    return false;
  } catch {
    return true;
  }
}

// ---- 2.4.7 ---------------------------------------------------------------------------------------

export interface StyleCheck {
  id: number;
  changed: boolean;
  animates: boolean;
  textEntry: boolean;
}

/** Focuses each element (keyboard modality is on after the walk, so `:focus-visible` applies) and compares styles focused and blurred. */
export function compareStyles(k: Probe, ids: number[]): StyleCheck[] {
  const props = [
    'outline-style', 'outline-width', 'outline-color', 'outline-offset', 'box-shadow',
    'border-top-style', 'border-top-width', 'border-top-color', 'border-right-style', 'border-right-width', 'border-right-color',
    'border-bottom-style', 'border-bottom-width', 'border-bottom-color', 'border-left-style', 'border-left-width', 'border-left-color',
    'background-color', 'background-image', 'color', 'text-decoration-line', 'text-decoration-color', 'text-decoration-style',
    'text-decoration-thickness', 'text-underline-offset', 'opacity', 'transform', 'filter', 'font-weight', 'font-style',
    'text-shadow', 'visibility', 'display', 'width', 'height', 'content', 'clip-path',
  ];
  const sig1 = (el: Element, pseudo: string | null): string => {
    const cs = getComputedStyle(el, pseudo);
    if (pseudo && (cs.content === 'none' || cs.content === 'normal')) return '';
    const v: Record<string, string> = {};
    for (const p of props) v[p] = cs.getPropertyValue(p);
    // A line that is not drawn has no colour.
    if (v['outline-style'] === 'none' || parseFloat(v['outline-width']!) === 0) v['outline-style'] = v['outline-width'] = v['outline-color'] = v['outline-offset'] = 'none';
    for (const side of ['top', 'right', 'bottom', 'left']) {
      const s = v[`border-${side}-style`];
      if (s === 'none' || s === 'hidden' || parseFloat(v[`border-${side}-width`]!) === 0) v[`border-${side}-style`] = v[`border-${side}-width`] = v[`border-${side}-color`] = 'none';
    }
    if (v['text-decoration-line'] === 'none') v['text-decoration-color'] = v['text-decoration-style'] = v['text-decoration-thickness'] = v['text-underline-offset'] = 'none';
    return JSON.stringify(v);
  };
  const sig = (el: Element) => [sig1(el, null), sig1(el, '::before'), sig1(el, '::after'), el.parentElement ? sig1(el.parentElement, null) : ''].join('|');
  const out: StyleCheck[] = [];
  for (const id of ids) {
    try {
      const el = k.el(id);
      if (!el || !el.isConnected || el.ownerDocument !== document) continue;
      const before = new Set(el.getAnimations?.({ subtree: true }) ?? []);
      const unfocused0 = sig(el);
      if (k.focus(id, false) !== id) continue; // focus went elsewhere (a script): not measurable
      const focused = sig(el);
      const anims = (el.getAnimations?.({ subtree: true }) ?? []).filter((a) => !before.has(a) && a.playState === 'running');
      k.blur();
      const unfocused = sig(el);
      const t = el.tagName;
      const textEntry =
        t === 'TEXTAREA' ||
        (el as HTMLElement).isContentEditable ||
        (t === 'INPUT' && !/^(button|submit|reset|checkbox|radio|image|file|range|color)$/i.test((el as HTMLInputElement).type));
      out.push({ id, changed: focused !== unfocused || focused !== unfocused0, animates: anims.length > 0, textEntry });
    } catch {
      // detached, or a style that cannot be read
    }
  }
  return out;
}

async function shot(page: Page, clip?: { x: number; y: number; width: number; height: number }): Promise<Buffer | null> {
  try {
    return await page.screenshot({ clip, caret: 'hide', scale: 'css', timeout: 5000 });
  } catch {
    return null;
  }
}

/** What focus looks like on an element whose styles do not change with it. */
export interface FocusMeasure {
  id: number;
  look: FocusLook;
  /** The element's size; `null` when it was not compared in screenshots. */
  rect: { w: number; h: number } | null;
}

/**
 * Compares screenshots of each element's box (and, where that shows no difference, of the whole
 * viewport) focused and not focused; past the first `pixelCap` elements, nothing is measured.
 */
export async function focusMeasures(page: Page, plain: StyleCheck[], pixelCap: number): Promise<FocusMeasure[]> {
  const vp = page.viewportSize() ?? { width: 1280, height: 800 };
  // Does the viewport change by itself? Then a difference in it proves nothing.
  await probe(page, (k) => k.blur());
  const a = await shot(page);
  const b = await shot(page);
  const pageAnimates = !a || !b || !a.equals(b);
  const out: FocusMeasure[] = [];
  for (const [i, s] of plain.entries()) {
    const base: FocusLook = { styleChanged: false, animates: false, boxChanged: null, viewportChanged: null, pageAnimates, onScreen: true, textEntry: s.textEntry };
    if (i >= pixelCap) {
      out.push({ id: s.id, look: base, rect: null });
      continue;
    }
    try {
      const place = async () => {
        await probe(page, (k, id: number) => k.focus(id, true), s.id);
        return probe(
          page,
          (k, id: number) => {
            const el = k.el(id);
            if (!el) return null;
            const r = el.getBoundingClientRect();
            const cs = getComputedStyle(el);
            return { x: r.x, y: r.y, w: r.width, h: r.height, vw: innerWidth, vh: innerHeight, hidden: cs.opacity === '0' || cs.visibility !== 'visible' };
          },
          s.id,
        );
      };
      const r = await place();
      if (!r) continue;
      const onScreen = !r.hidden && r.w >= 1 && r.h >= 1 && r.x + r.w > 0 && r.y + r.h > 0 && r.x < r.vw && r.y < r.vh;
      const x0 = Math.max(0, Math.floor(r.x - BOX_MARGIN));
      const y0 = Math.max(0, Math.floor(r.y - BOX_MARGIN));
      const x1 = Math.min(vp.width, Math.ceil(r.x + r.w + BOX_MARGIN));
      const y1 = Math.min(vp.height, Math.ceil(r.y + r.h + BOX_MARGIN));
      const clip = x1 - x0 >= 1 && y1 - y0 >= 1 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : undefined;
      let boxChanged: boolean | null = false;
      if (clip) {
        const f = await shot(page, clip);
        await probe(page, (k) => k.blur());
        const u = await shot(page, clip);
        boxChanged = f && u ? !f.equals(u) : null;
      }
      let viewportChanged: boolean | null = null;
      if (boxChanged === false || !clip) {
        await place();
        const f = await shot(page);
        await probe(page, (k) => k.blur());
        const u = await shot(page);
        viewportChanged = f && u ? !f.equals(u) : null;
        if (!clip) boxChanged = false;
      }
      await probe(page, (k) => k.blur());
      out.push({ id: s.id, look: { ...base, boxChanged, viewportChanged, onScreen }, rect: { w: Math.round(r.w), h: Math.round(r.h) } });
    } catch {
      // gone
    }
  }
  return out;
}

/** In the page: the description of each element, or null for one that is gone (axe's tree is built only when there is one to describe). */
export const describeIds = (k: Probe, ids: number[]) => {
  const A = (window as unknown as AuditWindow).__a11yAudit;
  if (ids.length === 0) return [];
  return A.withTree(() => ids.map((id) => (k.el(id) ? A.describe(k.el(id)!) : null)));
};

// ---- 2.1.1 ---------------------------------------------------------------------------------------

const POINTER_EVENTS = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend', 'dblclick']);

/** Ids (in the probe) of elements with their own click-like listeners, via DevTools; capped. */
export async function clickListenerIds(page: Page, cdp: CDPSession | null): Promise<number[]> {
  return (await listenerIds(page, cdp, { click: POINTER_EVENTS })).ids.click ?? [];
}

/** Events a script that holds focus listens to: focus sent back on blur, Tab cancelled on keydown. */
export const FOCUS_GUARD_EVENTS: ReadonlySet<string> = new Set(['blur', 'focusout', 'keydown']);
/** Events of a script that shows something under the mouse pointer. */
export const HOVER_EVENTS: ReadonlySet<string> = new Set(['mouseover', 'mouseenter']);
/** Every listener a script could answer the pointer's moves with (showing or hiding something). */
export const POINTER_MOVE_EVENTS: ReadonlySet<string> = new Set(['mouseover', 'mouseenter', 'mousemove', 'mouseout', 'mouseleave', 'pointerover', 'pointerenter', 'pointermove', 'pointerout', 'pointerleave']);
export { POINTER_EVENTS };

/**
 * Per group of event types, the elements (probe ids, at most 40) with a listener of one of them;
 * `nowhere`: the groups of `absent` of which the page has no listener at all, on any node, the
 * document or the window (unset when DevTools could not be asked: then nothing is known).
 */
export interface Listeners<G extends string, A extends string = never> {
  ids: Partial<Record<G, number[]>>;
  nowhere?: ReadonlySet<A>;
  /**
   * The groups of which the window or the document has a listener (it hears the events of every
   * element), or more elements than `ids` lists.
   */
  everywhere?: ReadonlySet<G>;
}

const LISTENER_CAP = 40;
/** Key events: where a script listens to them, a Tab press may do something else than move focus. */
export const KEY_EVENTS: ReadonlySet<string> = new Set(['keydown', 'keyup', 'keypress']);

/** What `tabWalk` needs of the page's key listeners (the `keys` group), or null when DevTools could not say. */
export function keyListenersOf(l: Listeners<'keys' | (string & {}), string>): KeyListeners | null {
  return l.everywhere ? { ids: l.ids.keys ?? [], everywhere: l.everywhere.has('keys') } : null;
}

/**
 * Ids (in the probe) of elements with their own listeners, per group of event types, from one
 * DevTools call for the document (it costs tens to hundreds of ms on a page with many listeners)
 * and one for the window; at most 40 elements per group.
 */

export async function listenerIds<G extends string, A extends string = never>(
  page: Page,
  cdp: CDPSession | null,
  groups: Record<G, ReadonlySet<string>>,
  absent?: Record<A, ReadonlySet<string>>,
): Promise<Listeners<G, A>> {
  if (!cdp) return { ids: {} };
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'document' });
    if (!result.objectId) return { ids: {} };
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId, depth: -1, pierce: true });
    // The window's own listeners, and the document's (no element to point at, as delegation uses).
    // The keyboard probe's own listeners on the window (named a11yKbdProbe…) are not the page's.
    const win = await cdp.send('Runtime.evaluate', { expression: 'window', objectGroup: 'a11y-listeners' });
    const onWindow = win.result.objectId
      ? (await cdp.send('DOMDebugger.getEventListeners', { objectId: win.result.objectId, depth: 0 })).listeners.filter((l) => !/a11yKbdProbe/.test(l.handler?.description ?? ''))
      : [];
    await cdp.send('Runtime.releaseObjectGroup', { objectGroup: 'a11y-listeners' }).catch(() => {});
    const nowhere = new Set<A>();
    for (const a of Object.keys(absent ?? {}) as A[]) if (![...listeners, ...onWindow].some((l) => absent![a].has(l.type))) nowhere.add(a);
    const byGroup = new Map<G, number[]>();
    const everywhere = new Set<G>();
    for (const g of Object.keys(groups) as G[]) {
      const nodes = [...new Set(listeners.filter((l) => groups[g].has(l.type) && l.backendNodeId).map((l) => l.backendNodeId!))];
      if (nodes.length > LISTENER_CAP || onWindow.some((l) => groups[g].has(l.type))) everywhere.add(g);
      byGroup.set(g, nodes.slice(0, LISTENER_CAP));
    }
    const nodes = [...new Set([...byGroup.values()].flat())];
    const ids = new Map<number, number>();
    await Promise.all(
      nodes.map(async (backendNodeId) => {
        try {
          const { object } = await cdp.send('DOM.resolveNode', { backendNodeId });
          if (!object.objectId) return;
          const r = await cdp.send('Runtime.callFunctionOn', {
            objectId: object.objectId,
            // The document hears every element's events; a shadow root those of its host's tree.
            functionDeclaration:
              'function () { const k = window.__a11yKbd; if (!k) return -1; if (this === document) return -2; const el = this instanceof ShadowRoot ? this.host : this; return el instanceof Element ? k.idFor(el) : -1; }',
            returnByValue: true,
          });
          if (typeof r.result.value === 'number' && r.result.value >= -2) ids.set(backendNodeId, r.result.value);
          await cdp.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
        } catch {
          // a node that went away
        }
      }),
    );
    const out: Listeners<G, A> = { ids: {}, nowhere, everywhere };
    for (const [g, ns] of byGroup) {
      const found = ns.map((n) => ids.get(n)).filter((i): i is number => i !== undefined);
      if (found.includes(-2)) everywhere.add(g);
      out.ids[g] = found.filter((i) => i >= 0);
    }
    return out;
  } catch {
    return { ids: {} };
  }
}

export interface FakeControl {
  selector: string;
  html: string;
  evidence: string[];
  text: string;
  /**
   * Decided: its own click listener (or `onclick`) and a pointer cursor on it say it is
   * a control, it shows text, and no link or button Tab reaches bears that text: a mouse-only
   * control (F42, F54), not one whose function the keyboard reaches elsewhere.
   */
  sole?: boolean;
  /**
   * Not a fake control but its cousin: in the tab order (`tabindex` 0 or more), not a
   * native control and no role that says what it is. `listens`: a script listens to its clicks, so
   * it is a control without a role (F59).
   */
  roleless?: { listens: boolean };
}

/**
 * In the page: things that look clickable and that Tab cannot reach; with `within`, only those
 * inside that element. Without `within`, also (first, marked `roleless`) up to five elements in the
 * tab order with no role that says what they are.
 */
export function findFakeControls(k: Probe, arg: { listenerIds: number[]; cap: number; within?: number }): FakeControl[] {
  const ROLELESS_CAP = 5;
  const within = typeof arg.within === 'number' ? k.el(arg.within) : undefined;
  const interactiveSel =
    'a[href], area[href], button, input, select, textarea, summary, label, option, iframe, audio[controls], video[controls], [contenteditable]:not([contenteditable="false"]), [tabindex]';
  const composite = '[role="listbox"], [role="menu"], [role="menubar"], [role="tree"], [role="treegrid"], [role="grid"], [role="tablist"], [role="radiogroup"], [aria-activedescendant]';
  const controlRoles = /^(button|link|checkbox|switch|menuitem|menuitemcheckbox|menuitemradio|tab|option|radio|treeitem|slider|spinbutton)$/;
  const vw = innerWidth;
  const vh = innerHeight;
  const candidates = new Map<Element, Set<string>>();
  const add = (el: Element, why: string) => {
    if (!candidates.has(el)) candidates.set(el, new Set());
    candidates.get(el)!.add(why);
  };
  const clickIds = new Set<Element>();
  for (const id of arg.listenerIds) {
    const el = k.el(id);
    if (el) {
      add(el, 'a click listener');
      clickIds.add(el);
    }
  }
  for (const el of Array.from(document.querySelectorAll('[onclick], [onmousedown], [role]')).slice(0, 3000)) {
    if (el.hasAttribute('onclick') || el.hasAttribute('onmousedown')) add(el, 'an onclick attribute');
    const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0] || '';
    if (controlRoles.test(role)) add(el, `role="${role}"`);
  }
  const all = document.body ? Array.from(document.body.getElementsByTagName('*')).slice(0, 5000) : [];
  const cursors = new Map<Element, string>();
  const cursor = (e: Element) => {
    let c = cursors.get(e);
    if (c === undefined) {
      c = getComputedStyle(e).cursor;
      cursors.set(e, c);
    }
    return c;
  };
  for (const el of all) {
    const p = el.parentElement;
    // Where a pointer cursor starts (it is inherited by everything inside).
    if (p && cursor(el) === 'pointer' && cursor(p) !== 'pointer') add(el, 'a pointer cursor');
  }
  const out: FakeControl[] = [];
  const A = (window as unknown as AuditWindow).__a11yAudit;
  const keep: Array<[Element, string[], string, boolean]> = [];
  const norm = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase();
  /** An element's rendered text, white space collapsed. */
  const textOf = (el: Element) => ((el as HTMLElement).innerText || el.textContent || '').replace(/\s+/g, ' ').trim();
  /** The texts of the links and buttons Tab reaches (what the keyboard can already do), read once. */
  let offered: Set<string> | undefined;
  const offeredTexts = () =>
    (offered ??= new Set(
      Array.from(document.querySelectorAll('a[href], area[href], button, summary, input[type="button"], input[type="submit"], [role="button"], [role="link"], [role="menuitem"], [role="tab"]'))
        .slice(0, 5000)
        .filter((e) => (e as HTMLElement).tabIndex >= 0)
        .map((e) => norm((e as HTMLElement).innerText || (e as HTMLInputElement).value || e.getAttribute('aria-label') || e.getAttribute('title') || ''))
        .filter(Boolean),
    ));
  for (const [el, why] of candidates) {
    if (keep.length >= arg.cap) break;
    if (within && !within.contains(el)) continue;
    try {
      if (el === document.body || el === document.documentElement || !(el instanceof HTMLElement || el instanceof SVGElement)) continue;
      const h = el as HTMLElement;
      if (el.hasAttribute('tabindex') || h.tabIndex >= 0 || el.matches(interactiveSel)) continue;
      if (el.closest('[aria-disabled="true"], [disabled], [inert]')) continue;
      // Inside something focusable or a widget that manages focus itself.
      let up: Element | null = el.parentElement;
      let inside = false;
      while (up && !inside) {
        if (up.matches(interactiveSel) && (up as HTMLElement).tabIndex >= 0) inside = true;
        else if (up.matches('label, [role="button"], [role="link"]')) inside = true;
        up = up.parentElement;
      }
      if (inside || el.closest(composite)) continue;
      // A wrapper of a real control (a card around a link) is reached through that control.
      if (Array.from(el.querySelectorAll(interactiveSel)).some((d) => (d as HTMLElement).tabIndex >= 0)) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility !== 'visible' || cs.display === 'none' || parseFloat(cs.opacity) === 0) continue;
      const eh = el as Element & { checkVisibility?: (o: object) => boolean };
      if (eh.checkVisibility && !eh.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 8 || r.height < 8) continue;
      // A big region with a listener is delegation, not a control.
      if (r.width * r.height > 0.25 * vw * vh) continue;
      const text = textOf(el);
      if (text.length > 150) continue;
      const reasons = [...why];
      // A pointer cursor alone says little when the element shows nothing: icons and text only.
      if (reasons.length === 1 && reasons[0] === 'a pointer cursor' && text === '' && !el.querySelector('img, svg')) continue;
      const listens = why.has('a click listener') || why.has('an onclick attribute');
      const sole = listens && cursor(el) === 'pointer' && text !== '' && text.length <= 80 && !offeredTexts().has(norm(text));
      keep.push([el, reasons, text.slice(0, 80), sole]);
    } catch {
      // detached
    }
  }
  // Elements put in the tab order that say nothing of what they are (not inside a dialog's check).
  const roleless: Array<[Element, string[], string, boolean]> = [];
  if (!within) {
    const listened = (window as unknown as { __a11yClickListened?: (el: Element) => boolean }).__a11yClickListened;
    const NATIVE = 'a[href], area[href], button, input, select, textarea, summary, iframe, object, embed, audio[controls], video[controls], [contenteditable]:not([contenteditable="false"])';
    /** Elements whose own role is none or generic: what a tabindex alone leaves unnamed as a thing. */
    const GENERIC = /^(div|span|p|i|b|em|strong|small|font|center|u|s|label|figure|code|pre|blockquote)$/;
    for (const el of Array.from(document.querySelectorAll('[tabindex]')).slice(0, 2000)) {
      if (roleless.length >= ROLELESS_CAP) break;
      try {
        if (!/^\s*\d+\s*$/.test(el.getAttribute('tabindex') ?? '') || el.matches(NATIVE) || el === document.body || el === document.documentElement) continue;
        const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0]!.toLowerCase();
        if (role && role !== 'generic' && role !== 'none' && role !== 'presentation') continue;
        if (!GENERIC.test(el.localName) || el.closest('[aria-hidden="true"], [inert], ' + composite)) continue;
        // Inside a link or button, the control around it says what it is (ACT 307n5z's inapplicable case 2).
        if (el.parentElement?.closest(NATIVE)) continue;
        const cs = getComputedStyle(el);
        // A scrolling region is made focusable so that the keyboard can scroll it: it needs no role.
        const scrolls = /(auto|scroll)/.test(cs.overflowX + cs.overflowY) && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
        if (scrolls) continue;
        const eh = el as Element & { checkVisibility?: (o: object) => boolean };
        if (eh.checkVisibility && !eh.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
        const listens = clickIds.has(el) || (!!listened && listened(el)) || el.hasAttribute('onclick') || typeof (el as HTMLElement).onclick === 'function';
        const text = textOf(el);
        roleless.push([el, [`tabindex="${el.getAttribute('tabindex')!.trim()}"`, ...(listens ? ['a click listener'] : [])], text.slice(0, 80), listens]);
      } catch {
        // detached
      }
    }
  }
  // axe's tree of the whole page is built only when there is something to describe.
  if (keep.length > 0 || roleless.length > 0) {
    A.withTree(() => {
      for (const [el, evidence, text, listens] of roleless) {
        const d = A.describe(el);
        out.push({ selector: d.selector, html: d.html, evidence, text, roleless: { listens } });
      }
      for (const [el, evidence, text, sole] of keep) {
        const d = A.describe(el);
        out.push({ selector: d.selector, html: d.html, evidence, text, ...(sole ? { sole } : {}) });
      }
    });
  }
  return out;
}
