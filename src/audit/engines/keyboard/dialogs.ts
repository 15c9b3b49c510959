import type { Page } from 'playwright';
import { somethingHappened, type EffectsRecorder } from './effects.ts';
import { startAt } from './presses.ts';
import { probe, type Probe } from './probe.ts';

/**
 * Dialogs opened from the keyboard (WCAG 2.4.3 and 2.1.1; the ARIA Authoring Practices' dialog
 * pattern, failure F85): a control that opens a dialog is focused and Enter pressed (a click
 * when Enter does nothing). When a dialog appears: did focus move into it, or does Tab reach it
 * next (F85: a dialog next to its control in the focus order)? For a modal dialog (`<dialog>`
 * shown modally, `aria-modal="true"`, or a box fixed over the page, as a lightbox),
 * does Tab keep focus inside while it is open? Does Escape close it? The clickable things inside
 * that Tab cannot reach (a close "×" without tabindex) are found by the caller with the dialog open.
 */

// ---- in the page ---------------------------------------------------------------------------------

/**
 * In the page: focusable controls that announce or look like they open a dialog, in tree order,
 * at most `cap`: `aria-haspopup="dialog"`, `command="show-modal"`, a popover target or an
 * `aria-controls`/fragment link pointing at a dialog, a Bootstrap-style `data-toggle="modal"`, a
 * link to an image file or a control whose class or data attribute names a lightbox or modal.
 */
export function dialogTriggers(k: Probe, cap: number): number[] {
  const dialogish = (el: Element | null) => !!el && (el.localName === 'dialog' || /^(dialog|alertdialog)$/.test((el.getAttribute('role') || '').trim()) || el.getAttribute('aria-modal') === 'true');
  const byId = (v: string | null) => (v ? document.getElementById(v.replace(/^#/, '')) : null);
  const out: number[] = [];
  const els = Array.from(document.querySelectorAll('a[href], button, [role="button"], [tabindex]')).slice(0, 3000);
  for (const el of els) {
    if (out.length >= cap) break;
    const h = el as HTMLElement;
    if (h.tabIndex < 0 || el.closest('[inert], [aria-disabled="true"], dialog, [role="dialog"], [aria-modal="true"]')) continue;
    if ((h as HTMLButtonElement).disabled) continue;
    const a = (n: string) => el.getAttribute(n) || '';
    const href = el.localName === 'a' ? a('href').trim() : '';
    const marker = `${a('class')} ${Array.from(el.attributes).filter((x) => x.name.startsWith('data-')).map((x) => `${x.name}=${x.value}`).join(' ')}`;
    const opens =
      /^dialog$/i.test(a('aria-haspopup')) ||
      /^show-modal$/i.test(a('command')) ||
      dialogish(byId(a('popovertarget'))) ||
      dialogish(byId(a('aria-controls'))) ||
      (href.startsWith('#') && href.length > 1 && dialogish(byId(href))) ||
      /\bdata-(bs-)?toggle=(modal|lightbox)\b/i.test(marker) ||
      /\b(lightbox|fancybox|modal-trigger|open-modal|glightbox|magnific)/i.test(marker) ||
      (!!href && /\.(jpe?g|png|gif|webp|avif)(\?|#|$)/i.test(href) && !!el.querySelector('img'));
    if (!opens) continue;
    const e = el as Element & { checkVisibility?: (o: object) => boolean };
    if (e.checkVisibility && !e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    out.push(k.idFor(el));
  }
  return out;
}

type DlgApi = { before: WeakSet<Element> };

/** In the page: notes which elements are shown now. */
export function noteShown(): void {
  const w = window as unknown as { __a11yKbdDlg?: DlgApi };
  const before = new WeakSet<Element>();
  const all = document.body ? Array.from(document.body.getElementsByTagName('*')).slice(0, 8000) : [];
  for (const el of all) {
    const e = el as Element & { checkVisibility?: (o: object) => boolean };
    if (!e.checkVisibility || e.checkVisibility({ checkVisibilityCSS: true })) before.add(el);
  }
  w.__a11yKbdDlg = { before };
}

export interface OpenedDialog {
  id: number;
  /** Modal (shown modally, `aria-modal`, or a box over the page): focus should stay inside while it is open. */
  modal: boolean;
  /** Tabbable elements inside, at most 30. */
  inside: number[];
}

/**
 * In the page: the dialog that appeared since `noteShown`, if any: a newly shown `<dialog>`,
 * `role="dialog"`/`alertdialog` or `aria-modal="true"` element, or else a newly shown box fixed
 * over the page (at least 2% of the window) or an absolute one covering 40% of it (a lightbox
 * without a role). Only the controls `dialogTriggers` found are pressed, so such a box is what
 * they open.
 */
export function openedDialog(k: Probe): OpenedDialog | null {
  const w = window as unknown as { __a11yKbdDlg?: DlgApi };
  const before = w.__a11yKbdDlg?.before;
  if (!before) return null;
  const shown = (el: Element) => {
    const e = el as Element & { checkVisibility?: (o: object) => boolean };
    if (e.checkVisibility && !e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const dialogish = (el: Element) => el.localName === 'dialog' || /^(dialog|alertdialog)$/.test((el.getAttribute('role') || '').trim()) || el.getAttribute('aria-modal') === 'true';
  const all = document.body ? Array.from(document.body.getElementsByTagName('*')).slice(0, 8000) : [];
  let root: Element | null = null;
  let overlay: Element | null = null;
  for (const el of all) {
    if (before.has(el) && !dialogish(el)) continue;
    if (dialogish(el)) {
      // A dialog shown before is new only if it was hidden then (before holds shown elements).
      if (before.has(el) || !shown(el)) continue;
      root = el;
      break;
    }
    if (overlay || !shown(el)) continue;
    const cs = getComputedStyle(el);
    if (cs.position !== 'fixed' && cs.position !== 'absolute') continue;
    const r = el.getBoundingClientRect();
    const share = (r.width * r.height) / (innerWidth * innerHeight);
    // A box fixed over the page (a lightbox, with or without a backdrop), or a large absolute one.
    if ((cs.position === 'fixed' && share >= 0.02) || share >= 0.4) overlay = el;
  }
  const dlg = root ?? overlay;
  if (!dlg) return null;
  const modal = (dlg.localName === 'dialog' && dlg.matches(':modal')) || dlg.getAttribute('aria-modal') === 'true' || dlg === overlay || (!!overlay && overlay.contains(dlg));
  const sel = 'a[href], area[href], button, input, select, textarea, iframe, summary, [tabindex], [contenteditable]';
  const inside = Array.from(dlg.querySelectorAll(sel))
    .filter((el) => {
      const h = el as HTMLElement & { disabled?: boolean };
      if (h.tabIndex < 0 || h.disabled || (el.localName === 'input' && (el as HTMLInputElement).type === 'hidden')) return false;
      return shown(el);
    })
    .slice(0, 30)
    .map((el) => k.idFor(el));
  return { id: k.idFor(dlg), modal, inside };
}

/** In the page: whether focus (through shadow roots and same-origin frames: the probe's position) is inside the element. */
export function focusWithin(k: Probe, id: number): 'inside' | 'outside' | 'page' {
  const root = k.el(id);
  const p = k.here();
  if (typeof p !== 'number') return 'page';
  let el: Node | null | undefined = k.el(p);
  while (el) {
    if (el === root) return 'inside';
    el = el.parentNode ?? (el as ShadowRoot).host ?? null;
  }
  return 'outside';
}

/** In the page: whether the element is still shown (and, for a `<dialog>`, open). */
export function stillOpen(k: Probe, id: number): boolean {
  const el = k.el(id);
  if (!el || !el.isConnected) return false;
  if (el.localName === 'dialog' && !(el as HTMLDialogElement).open) return false;
  const e = el as Element & { checkVisibility?: (o: object) => boolean };
  if (e.checkVisibility && !e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

// ---- key presses ---------------------------------------------------------------------------------

export interface DialogProbe {
  trigger: number;
  dialog: number;
  modal: boolean;
  /** What opened it: Enter on the focused control, or (Enter doing nothing) a click. */
  openedBy: 'Enter' | 'click';
  /** Where focus was once it opened; `tabReaches`: whether one Tab from there went inside. */
  focusAfterOpen: 'inside' | 'outside' | 'page';
  tabReaches: boolean | null;
  /** Modal only: Tab from inside reached an element of the page behind it. */
  tabLeaves: boolean | null;
  /** Escape (with focus inside) closed it. */
  escapeCloses: boolean | null;
  /** Still open when the probe ended. */
  leftOpen: boolean;
}

const wait = (page: Page, ms: number) => probe(page, (_k, t: number) => new Promise((r) => setTimeout(r, t)), ms);
const OPEN_WAIT_MS = 350;

/**
 * Opens each trigger's dialog and probes it (see the module's comment); `withOpen` runs while
 * the dialog is open (the caller looks for clickable things Tab cannot reach inside). Stops at
 * `endAt`, and after a dialog that could not be closed.
 */
export async function probeDialogs(
  page: Page,
  fx: EffectsRecorder,
  triggers: readonly number[],
  endAt: number,
  withOpen: (d: { dialog: number }) => Promise<void>,
): Promise<{ results: DialogProbe[]; changed: boolean }> {
  const results: DialogProbe[] = [];
  let changed = false;
  for (const trigger of triggers) {
    if (performance.now() > endAt) break;
    try {
      await probe(page, noteShown);
      await startAt(page, trigger);
      await fx.start(trigger);
      await page.keyboard.press('Enter');
      const fromEnter = await fx.read(OPEN_WAIT_MS);
      let openedBy: DialogProbe['openedBy'] = 'Enter';
      let opened = await probe(page, openedDialog);
      if (somethingHappened(fromEnter)) changed = true;
      if (!opened && !somethingHappened(fromEnter)) {
        // Enter did nothing: does a click open it (a control only the mouse can use)?
        const handle = await page.evaluateHandle((i) => (window as unknown as { __a11yKbd: Probe }).__a11yKbd.el(i) ?? null, trigger);
        const el = handle.asElement();
        if (el) {
          await el.click({ timeout: 1000, noWaitAfter: true }).catch(() => {});
          changed = true;
          await wait(page, OPEN_WAIT_MS);
          opened = await probe(page, openedDialog);
          openedBy = 'click';
        }
        await handle.dispose().catch(() => {});
      }
      if (!opened) continue;
      const { id: dialog, modal, inside } = opened;
      const r: DialogProbe = { trigger, dialog, modal, openedBy, focusAfterOpen: await probe(page, focusWithin, dialog), tabReaches: null, tabLeaves: null, escapeCloses: null, leftOpen: true };
      // F85: focus moved in, or the dialog is next in the focus order.
      if (r.focusAfterOpen !== 'inside' && openedBy === 'Enter') {
        await page.keyboard.press('Tab');
        await wait(page, 50);
        r.tabReaches = (await probe(page, focusWithin, dialog)) === 'inside';
      }
      await withOpen({ dialog });
      if (modal && inside.length > 0) {
        await startAt(page, inside[0]!);
        r.tabLeaves = false;
        for (let i = 0; i < Math.min(inside.length + 2, 16); i++) {
          await page.keyboard.press('Tab');
          await wait(page, 30);
          if (!(await probe(page, stillOpen, dialog))) break;
          if ((await probe(page, focusWithin, dialog)) === 'outside') {
            r.tabLeaves = true;
            break;
          }
        }
      }
      if (await probe(page, stillOpen, dialog)) {
        await startAt(page, inside[0] ?? dialog);
        await page.keyboard.press('Escape');
        await wait(page, OPEN_WAIT_MS);
        r.escapeCloses = !(await probe(page, stillOpen, dialog));
      }
      r.leftOpen = await probe(page, stillOpen, dialog);
      results.push(r);
      // A dialog still open covers the page: the next trigger cannot be tried fairly.
      if (r.leftOpen) break;
    } catch {
      // gone, or the page navigated
    }
  }
  return { results, changed };
}
