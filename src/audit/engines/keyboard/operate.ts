import type { Page } from 'playwright';
import { contextChanged, somethingHappened, type Effects, type EffectsRecorder } from './effects.ts';
import { startAt } from './presses.ts';
import { probe, type Probe } from './probe.ts';

/**
 * Operating controls from the keyboard, with real key presses, and watching what happens
 * (effects.ts):
 * - custom buttons and links (`role="button"`, `role="link"`, a link acting as a button) that
 *   keys do not activate while a click does something (WCAG 2.1.1; ARIA's button takes Enter
 *   and Space);
 * - select lists, radio buttons and check boxes whose change by the keyboard sends a form,
 *   navigates or opens a window (WCAG 3.2.2, failures F36 and F37).
 * Each is capped (elements) and bounded in time by the caller's budget.
 */

// ---- in the page ---------------------------------------------------------------------------------

export interface ActivationCandidate {
  id: number;
  /** What the control is to assistive technology: a button takes Space and Enter, a link Enter. */
  role: 'button' | 'link';
}

/** In the page: focusable custom buttons and links (not native buttons and fields), in tree order, at most `cap`. */
export function activationCandidates(k: Probe, cap: number): ActivationCandidate[] {
  const out: ActivationCandidate[] = [];
  const els = Array.from(document.querySelectorAll('[role]')).slice(0, 3000);
  for (const el of els) {
    if (out.length >= cap) break;
    const role = (el.getAttribute('role') || '').trim().toLowerCase().split(/\s+/)[0];
    if (role !== 'button' && role !== 'link') continue;
    const h = el as HTMLElement;
    // Native buttons and fields take Enter and Space from the browser itself.
    if (/^(BUTTON|INPUT|SELECT|TEXTAREA|SUMMARY|OPTION)$/.test(el.tagName)) continue;
    // A real link is a link: Enter is the browser's.
    if (role === 'link' && el.matches('a[href], area[href]')) continue;
    if (h.tabIndex < 0 || el.closest('[inert], [aria-disabled="true"], [disabled]')) continue;
    const e = el as Element & { checkVisibility?: (o: object) => boolean };
    if (e.checkVisibility && !e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 4 || r.height < 4) continue;
    out.push({ id: k.idFor(el), role });
  }
  return out;
}

export interface ChoiceCandidate {
  id: number;
  kind: 'select' | 'radio' | 'checkbox';
  /** The key that changes its value. */
  key: string;
}

/**
 * In the page: select lists, radio buttons and check boxes to change, in tree order, at most
 * `cap`: those with a change handler in their markup first. One radio button per group.
 */
export function choiceCandidates(k: Probe, cap: number): ChoiceCandidate[] {
  const all = Array.from(document.querySelectorAll('select, input[type="radio" i], input[type="checkbox" i]')).slice(0, 500);
  const groups = new Set<string>();
  const picked: Array<{ el: Element; c: ChoiceCandidate; marked: boolean }> = [];
  for (const el of all) {
    const f = el as HTMLInputElement | HTMLSelectElement;
    if (f.disabled || f.tabIndex < 0 || el.closest('[inert], fieldset[disabled]')) continue;
    const e = el as Element & { checkVisibility?: (o: object) => boolean };
    if (e.checkVisibility && !e.checkVisibility({ checkVisibilityCSS: true })) continue;
    let kind: ChoiceCandidate['kind'];
    let key: string;
    if (el.tagName === 'SELECT') {
      const s = el as HTMLSelectElement;
      if (s.multiple || s.options.length < 2) continue;
      kind = 'select';
      key = s.selectedIndex >= s.options.length - 1 ? 'ArrowUp' : 'ArrowDown';
    } else if ((f as HTMLInputElement).type.toLowerCase() === 'radio') {
      const name = (f as HTMLInputElement).name;
      const key0 = `${(f as HTMLInputElement).form ? 'f' : 'd'}:${name}`;
      if (name && groups.has(key0)) continue;
      if (name) groups.add(key0);
      kind = 'radio';
      key = 'ArrowDown';
    } else {
      kind = 'checkbox';
      key = 'Space';
    }
    const marked = el.hasAttribute('onchange') || el.hasAttribute('onclick') || el.hasAttribute('oninput') || (!!(f as HTMLInputElement).form && (f as HTMLInputElement).form!.hasAttribute('onchange'));
    picked.push({ el, c: { id: k.idFor(el), kind, key }, marked });
  }
  return [...picked.filter((p) => p.marked), ...picked.filter((p) => !p.marked)].slice(0, cap).map((p) => p.c);
}

/** In the page: the values of a field and of its radio group, to put back. */
export function saveChoice(k: Probe, id: number): Array<[number, number | boolean]> {
  const el = k.el(id) as HTMLInputElement | HTMLSelectElement | undefined;
  if (!el) return [];
  if (el.tagName === 'SELECT') return [[id, (el as HTMLSelectElement).selectedIndex]];
  const i = el as HTMLInputElement;
  if (i.type.toLowerCase() === 'radio' && i.name) {
    const scope: ParentNode = i.form ?? document;
    return Array.from(scope.querySelectorAll(`input[type="radio" i]`))
      .filter((r) => (r as HTMLInputElement).name === i.name)
      .slice(0, 50)
      .map((r) => [k.idFor(r), (r as HTMLInputElement).checked]);
  }
  return [[id, i.checked]];
}

/** In the page: puts the values back, without events. */
export function restoreChoice(k: Probe, saved: Array<[number, number | boolean]>): void {
  for (const [id, v] of saved) {
    const el = k.el(id) as HTMLInputElement | HTMLSelectElement | undefined;
    if (!el) continue;
    if (typeof v === 'number') (el as HTMLSelectElement).selectedIndex = v;
    else (el as HTMLInputElement).checked = v;
  }
}

// ---- key presses ---------------------------------------------------------------------------------

export interface Activation {
  id: number;
  role: 'button' | 'link';
  /** Space (buttons only) and Enter did something. */
  space: boolean | null;
  enter: boolean;
  /** What a click did, when no key did anything (null: not clicked). */
  click: Effects | null;
}

/**
 * Presses Space (a button) and Enter on each candidate, and clicks it when neither did anything.
 * Stops at `endAt`. Returns one result per candidate tried; `changed`: the page may not be as it was.
 */
export async function tryActivation(page: Page, fx: EffectsRecorder, candidates: readonly ActivationCandidate[], endAt: number): Promise<{ results: Activation[]; changed: boolean }> {
  const results: Activation[] = [];
  let changed = false;
  const press = async (id: number, key: string): Promise<boolean> => {
    await startAt(page, id);
    await fx.start(id);
    await page.keyboard.press(key);
    const e = await fx.read();
    if (somethingHappened(e)) changed = true;
    return somethingHappened(e);
  };
  for (const c of candidates) {
    if (performance.now() > endAt) break;
    try {
      const space = c.role === 'button' ? await press(c.id, 'Space') : null;
      // A button that works with Space: it is operable, Enter is not needed to tell.
      if (space) continue;
      const enter = await press(c.id, 'Enter');
      let click: Effects | null = null;
      if (!enter) {
        await startAt(page, c.id);
        const handle = await page.evaluateHandle((i) => (window as unknown as { __a11yKbd: Probe }).__a11yKbd.el(i) ?? null, c.id);
        const el = handle.asElement();
        if (el) {
          await fx.start(c.id);
          await el.click({ timeout: 1000, noWaitAfter: true }).catch(() => {});
          // The click itself reaches the element: only what it did counts.
          click = { ...(await fx.read()), clicked: false };
          if (somethingHappened(click)) changed = true;
        }
        await handle.dispose().catch(() => {});
      }
      results.push({ id: c.id, role: c.role, space, enter, click });
    } catch {
      // gone, or the page navigated: nothing to say about it
    }
  }
  return { results, changed };
}

export interface ChoiceChange {
  id: number;
  kind: ChoiceCandidate['kind'];
  key: string;
  effects: Effects;
}

/** Changes each candidate with its key and notes those whose change sent a form, navigated or opened a window. */
export async function tryChoices(page: Page, fx: EffectsRecorder, candidates: readonly ChoiceCandidate[], endAt: number): Promise<{ results: ChoiceChange[]; changed: boolean }> {
  const results: ChoiceChange[] = [];
  let changed = false;
  for (const c of candidates) {
    if (performance.now() > endAt) break;
    try {
      const saved = await probe(page, saveChoice, c.id);
      await startAt(page, c.id);
      await fx.start(c.id);
      await page.keyboard.press(c.key);
      const effects = await fx.read(300);
      await probe(page, restoreChoice, saved);
      if (somethingHappened(effects)) changed = true;
      if (contextChanged(effects)) results.push({ ...c, effects });
    } catch {
      // gone, or the page navigated
    }
  }
  return { results, changed };
}
