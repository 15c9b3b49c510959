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
 *   link that goes nowhere.
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
  const MATCH = 'summary, details, [aria-expanded="false"], [role~="tab"], [aria-haspopup], [popovertarget], [commandfor]';
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
    return undefined;
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
