import type { JSHandle, Page } from 'playwright';
import { inPage, type Probe, type TriggerInfo, type TriggerKind } from './probe.ts';

export interface FindTriggersLimits {
  /** Triggers kept at most (in tree order, before they are interleaved by kind). */
  maxTriggers: number;
  /** Matching elements looked at, at most: a page with 100,000 buttons costs no more than one with a few. */
  maxExamined: number;
  /** Characters of a trigger's label. */
  maxLabel: number;
}

/**
 * The controls that open a state on this page, visible and enabled, one per element and one per
 * controlled element (two buttons opening the same menu are one state):
 * - `<details>` (its first `<summary>`, or the element itself without one) that is closed;
 * - tabs (`role="tab"`) not selected;
 * - popover and dialog triggers: `popovertarget` (unless its action is `hide`), `commandfor` with
 *   `show-modal`, `show-popover` or `toggle-popover`, `aria-haspopup` (`dialog`, or `menu`/`true`
 *   and the other popup kinds);
 * - disclosure buttons: `aria-expanded="false"` on a button, `role="button"`, a `<summary>` or a
 *   link that goes nowhere;
 * - the widget libraries' data-attribute triggers, which need no aria state: Bootstrap's
 *   `data-bs-toggle` / `data-toggle` (`modal` and `offcanvas` open a dialog, `collapse` a
 *   disclosure, `dropdown` a menu, `tab` / `pill` / `list` a tab, `popover` a popover), Foundation's
 *   `data-open` (a reveal dialog) and `data-toggle="<id>"` (a disclosure);
 * - then, kind `script`, the visible controls a script listens to for clicks and that carry no
 *   aria state: a listener added on the element itself (click-listeners.ts), an `onclick`
 *   attribute or property, first; then buttons and `role="button"` (not a link with an `href`: a
 *   fragment link without a listener of its own is an anchor), whose listener a library may hold on
 *   the document (React). Only small elements (at most 30 descendants), never `<html>` or
 *   `<body>`. Whether the click reveals anything is what the state finds out.
 * Never: a link that navigates (anything but an empty or same-page fragment or `javascript:`
 * address; a route-like `#/` or `#!` fragment navigates), a submit or reset button of a form,
 * `input` other than `type=button`, text fields, anything disabled, inert or hidden.
 */
export async function findTriggers(page: Page, probe: JSHandle<Probe>, limits: FindTriggersLimits): Promise<TriggerInfo[]> {
  return inPage(page, findTriggersInPage, { probe, limits });
}

/** In the page (self-contained): fills `probe.triggers` and describes each. */
function findTriggersInPage({ probe, limits }: { probe: Probe; limits: FindTriggersLimits }): TriggerInfo[] {
  type Helpers = { withTree<T>(fn: () => T): T; describe(el: Element): { selector: string }; name(el: Element): string; rendered(el: Element): boolean };
  const h = (window as unknown as { __a11yAudit?: Helpers }).__a11yAudit;
  probe.triggers = [];
  if (!h) return [];
  const MATCH = 'summary, details, [aria-expanded="false"], [role~="tab"], [aria-haspopup], [popovertarget], [commandfor], [data-bs-toggle], [data-toggle], [data-open]';
  /** Bootstrap's toggle types, by the kind of state they open (`button` and `tooltip` open none). */
  const TOGGLES: Record<string, TriggerKind> = { modal: 'dialog', offcanvas: 'dialog', collapse: 'disclosure', dropdown: 'menu', tab: 'tab', pill: 'tab', list: 'tab', popover: 'popover' };
  /** The id a Bootstrap trigger names: `data-bs-target` / `data-target`, else its `href`, as `#id`. */
  const targetId = (el: Element) => {
    const ref = (el.getAttribute('data-bs-target') ?? el.getAttribute('data-target') ?? el.getAttribute('href') ?? '').trim();
    return /^#[^\s#.,>:[\]]+$/.test(ref) ? ref.slice(1) : '';
  };
  const role = (el: Element) => (el.getAttribute('role') ?? '').trim().toLowerCase().split(/\s+/)[0] ?? '';
  const fragmentOnly = (href: string | null) => {
    const v = (href ?? '').trim();
    return v === '' || /^javascript:/i.test(v) || (v.startsWith('#') && !/^#[!/]/.test(v));
  };
  const navigates = (el: Element) => {
    const link = el.closest('a[href], area[href]');
    return !!link && !fragmentOnly(link.getAttribute('href'));
  };
  const submits = (el: Element) => {
    if (el.localName === 'input') return !/^button$/i.test((el as HTMLInputElement).type);
    if (el.localName === 'button') {
      const b = el as HTMLButtonElement;
      return (b.type === 'submit' || b.type === 'reset') && (!!b.form || !!el.closest('form'));
    }
    return el.localName === 'select' || el.localName === 'textarea' || (el as HTMLElement).isContentEditable === true;
  };
  const buttonLike = (el: Element) =>
    el.localName === 'button' || el.localName === 'summary' || role(el) === 'button' || (el.localName === 'input' && /^button$/i.test((el as HTMLInputElement).type)) || (el.localName === 'a' && fragmentOnly(el.getAttribute('href')));
  const usable = (el: Element) => {
    if (navigates(el) || submits(el)) return false;
    if (el.closest('[inert], [aria-disabled="true"]')) return false;
    try {
      if (el.matches(':disabled')) return false;
    } catch {
      // not a form control
    }
    return probe.visible(el) && h.rendered(el);
  };
  /** The kind of state `el` opens, and the element it controls (for de-duplication), or undefined. */
  const classify = (el: Element): { kind: TriggerKind; controls: string; selectedTab: Element | null } | undefined => {
    const attr = (n: string) => (el.getAttribute(n) ?? '').trim();
    const parent = el.parentElement;
    if (el.localName === 'summary' && parent?.localName === 'details' && parent.querySelector(':scope > summary') === el) {
      return (parent as HTMLDetailsElement).open ? undefined : { kind: 'details', controls: '', selectedTab: null };
    }
    if (el.localName === 'details') {
      return (el as HTMLDetailsElement).open || el.querySelector(':scope > summary') ? undefined : { kind: 'details', controls: '', selectedTab: null };
    }
    if (role(el) === 'tab') {
      if (attr('aria-selected') === 'true') return undefined;
      const list = el.closest('[role~="tablist"]') ?? el.parentElement;
      const selected = list ? Array.from(list.querySelectorAll('[role~="tab"][aria-selected="true"]')).find((t) => t.closest('[role~="tablist"]') === el.closest('[role~="tablist"]')) ?? null : null;
      return { kind: 'tab', controls: attr('aria-controls'), selectedTab: selected };
    }
    if (el.hasAttribute('popovertarget')) {
      const target = (el as HTMLButtonElement & { popoverTargetElement?: Element | null }).popoverTargetElement ?? document.getElementById(attr('popovertarget'));
      if (!target || /^hide$/i.test(attr('popovertargetaction'))) return undefined;
      return { kind: target.localName === 'dialog' ? 'dialog' : 'popover', controls: attr('popovertarget'), selectedTab: null };
    }
    if (el.hasAttribute('commandfor')) {
      const command = attr('command').toLowerCase();
      if (!['show-modal', 'show-popover', 'toggle-popover'].includes(command) || !document.getElementById(attr('commandfor'))) return undefined;
      return { kind: command === 'show-modal' ? 'dialog' : 'popover', controls: attr('commandfor'), selectedTab: null };
    }
    const popup = attr('aria-haspopup').toLowerCase();
    if (popup && popup !== 'false' && buttonLike(el)) {
      return { kind: popup === 'dialog' ? 'dialog' : 'menu', controls: attr('aria-controls'), selectedTab: null };
    }
    if (attr('aria-expanded') === 'false' && buttonLike(el)) return { kind: 'disclosure', controls: attr('aria-controls'), selectedTab: null };
    const toggle = (el.getAttribute('data-bs-toggle') ?? el.getAttribute('data-toggle') ?? '').trim();
    const toggleKind = TOGGLES[toggle.toLowerCase()];
    if (toggleKind) {
      const controls = targetId(el);
      if (toggleKind !== 'tab') return { kind: toggleKind, controls, selectedTab: null };
      if (el.classList.contains('active')) return undefined;
      const nav = el.closest('.nav, .list-group, [role~="tablist"]') ?? el.parentElement?.parentElement ?? null;
      const selected = nav ? Array.from(nav.querySelectorAll('[data-bs-toggle].active, [data-toggle].active')).find((t) => t !== el) ?? null : null;
      return { kind: 'tab', controls, selectedTab: selected };
    }
    // Foundation: `data-toggle` / `data-open` name the panel or reveal dialog by its id.
    if (toggle && document.getElementById(toggle)) return { kind: 'disclosure', controls: toggle, selectedTab: null };
    if (attr('data-open') && document.getElementById(attr('data-open'))) return { kind: 'dialog', controls: attr('data-open'), selectedTab: null };
    return undefined;
  };
  /** A control a script listens to for clicks, with no aria state: `direct` when the listener is on it. */
  const listened = (window as unknown as { __a11yClickListened?: (el: Element) => boolean }).__a11yClickListened;
  const ARIA_STATE = ['aria-expanded', 'aria-haspopup', 'aria-selected', 'aria-pressed', 'aria-checked', 'popovertarget', 'commandfor'];
  const scripted = (el: Element): 'direct' | 'control' | undefined => {
    if (el === document.documentElement || el === document.body || el.namespaceURI !== 'http://www.w3.org/1999/xhtml') return undefined;
    if (ARIA_STATE.some((a) => el.hasAttribute(a))) return undefined;
    const direct = (!!listened && listened(el)) || el.hasAttribute('onclick') || typeof (el as HTMLElement).onclick === 'function';
    // Without a listener of its own, only a button: a link to a fragment ("#", "#contents") is an anchor, not a script's control.
    if (!direct && (!buttonLike(el) || el.localName === 'summary' || (el.localName === 'a' && el.hasAttribute('href')))) return undefined;
    if (el.getElementsByTagName('*').length > 30) return undefined;
    return direct ? 'direct' : 'control';
  };

  const found: Array<{ el: Element; kind: TriggerKind; selectedTab: Element | null }> = [];
  const controlled = new Set<string>();
  let examined = 0;
  // The document's candidates, then each open shadow root's: the browser's selector matching, not
  // a test per element (most pages have none, and pay for little more than the walk).
  const roots: Array<Document | ShadowRoot> = [document, ...probe.all().flatMap((el) => (el.shadowRoot ? [el.shadowRoot] : []))];
  scan: for (const root of roots) {
    const candidates = root.querySelectorAll(MATCH);
    for (let i = 0; i < candidates.length; i++) {
      if (found.length >= limits.maxTriggers || examined >= limits.maxExamined) break scan;
      examined++;
      const el = candidates[i]!;
      const c = classify(el);
      if (!c || !usable(el)) continue;
      if (c.controls) {
        if (controlled.has(c.controls)) continue;
        controlled.add(c.controls);
      }
      found.push({ el, kind: c.kind, selectedTab: c.selectedTab });
    }
  }
  // Then the controls a script listens to, those with their own listener first, each not already a trigger.
  if (found.length < limits.maxTriggers) {
    const taken = new Set(found.map((f) => f.el));
    const direct: Element[] = [];
    const controls: Element[] = [];
    for (const el of probe.all()) {
      if (direct.length + found.length >= limits.maxTriggers || examined >= limits.maxExamined * 5) break;
      if (taken.has(el)) continue;
      const how = scripted(el);
      if (!how) continue;
      examined++;
      if (!usable(el) || classify(el)) continue;
      (how === 'direct' ? direct : controls).push(el);
    }
    for (const el of [...direct, ...controls].slice(0, limits.maxTriggers - found.length)) found.push({ el, kind: 'script', selectedTab: null });
  }
  probe.triggers = found;
  if (found.length === 0) return [];
  const bound = (s: string) => {
    const t = s.replace(/\s+/g, ' ').trim();
    return t.length > limits.maxLabel ? `${t.slice(0, limits.maxLabel - 1)}…` : t;
  };
  return h.withTree(() =>
    found.map((t, index) => {
      let label = '';
      try {
        label = h.name(t.el);
      } catch {
        // axe cannot name it: its text below
      }
      return {
        index,
        kind: t.kind,
        selector: h.describe(t.el).selector,
        label: bound(label || t.el.textContent || t.el.getAttribute('title') || ''),
      };
    }),
  );
}

/**
 * The order states are opened in: one of each kind in turn (in tree order within a kind), so a
 * page with twenty accordion sections still has its menu, its tabs and its dialog opened within a
 * small count.
 */
export function interleaveByKind(triggers: readonly TriggerInfo[]): TriggerInfo[] {
  const byKind = new Map<TriggerKind, TriggerInfo[]>();
  for (const t of triggers) byKind.set(t.kind, [...(byKind.get(t.kind) ?? []), t]);
  const queues = [...byKind.values()];
  const out: TriggerInfo[] = [];
  for (let i = 0; out.length < triggers.length; i++) for (const q of queues) if (q[i]) out.push(q[i]!);
  return out;
}
