import type { Page } from 'playwright';
import { noteShown } from './dialogs.ts';
import { probe, type Probe } from './probe.ts';

/**
 * Content only the mouse pointer shows (WCAG 2.1.1, failure F54: functionality only on
 * mouseover): a sub-menu a `:hover` style or a mouseover script shows, a tooltip on an element
 * keyboard focus cannot reach. Each candidate is hovered with the real mouse; what appears
 * (displayed, where it was not) is noted; the pointer leaves; then keyboard focus goes to the
 * element (or the first focusable thing inside it) and, for a button, Enter is pressed. Content
 * that appeared under the mouse but neither on focus nor on Enter is reported.
 */

export interface HoverCandidate {
  id: number;
  /** The style rule (its selector) or the kind of listener that makes it a candidate. */
  source: string;
}

/**
 * In the page: elements with a `:hover` style rule that shows something (display, visibility,
 * opacity) and no `:focus`/`:focus-within` selector in the same rule, then elements with their
 * own mouseover/mouseenter listeners (`listenerIds`); shown, at most `cap`, at most two per rule.
 */
export function hoverCandidates(k: Probe, arg: { listenerIds: number[]; cap: number }): HoverCandidate[] {
  const out: HoverCandidate[] = [];
  const taken = new Set<Element>();
  const shown = (el: Element) => {
    const e = el as Element & { checkVisibility?: (o: object) => boolean };
    if (e.checkVisibility && !e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width >= 4 && r.height >= 4;
  };
  const add = (el: Element, source: string) => {
    if (out.length >= arg.cap || taken.has(el) || el === document.body || el === document.documentElement || !shown(el)) return false;
    const r = el.getBoundingClientRect();
    // The whole page (a wrapper's hover style) is no control.
    if (r.width * r.height > 0.5 * innerWidth * innerHeight) return false;
    taken.add(el);
    out.push({ id: k.idFor(el), source });
    return true;
  };
  const hasContent = (t: Element) => ((t as HTMLElement).innerText || t.textContent || '').trim().length >= 2 || !!t.querySelector('a[href], button, input, select, img, svg') || t.matches('a[href], button, input, select');
  // A link to the element itself or a section around it (a heading's permalink): the place is there without it.
  const selfLink = (t: Element, base: Element) => {
    const links = t.matches('a[href^="#"]') ? [t] : Array.from(t.querySelectorAll('a[href]'));
    if (links.length === 0 || links.length !== t.querySelectorAll('a[href], button, input, select').length + (t.matches('a[href]') ? 1 : 0)) return false;
    return links.every((a) => {
      const href = (a.getAttribute('href') || '').trim();
      if (!href.startsWith('#') || href.length < 2) return false;
      let target: Element | null = null;
      try {
        target = document.getElementById(decodeURIComponent(href.slice(1)));
      } catch {
        target = null;
      }
      return !!target && (target === base || target.contains(base));
    });
  };
  const reveals = (st: CSSStyleDeclaration) =>
    (st.display !== '' && st.display !== 'none') || st.visibility === 'visible' || (st.opacity !== '' && parseFloat(st.opacity) > 0);
  let seen = 0;
  const visit = (rules: CSSRuleList) => {
    for (const rule of Array.from(rules)) {
      if (out.length >= arg.cap || ++seen > 5000) return;
      const grouped = (rule as CSSGroupingRule).cssRules;
      if (grouped && !(rule instanceof CSSStyleRule)) {
        // @media and @supports that apply now; other at-rules are left.
        if (rule instanceof CSSMediaRule && !matchMedia(rule.conditionText).matches) continue;
        visit(grouped);
        continue;
      }
      if (!(rule instanceof CSSStyleRule)) continue;
      const text = rule.selectorText;
      if (!text.includes(':hover') || /:focus/.test(text) || !reveals(rule.style)) continue;
      for (const sel of text.split(',')) {
        // The hovered element: the selector up to the compound with :hover, which must come before something else.
        const m = /^(.*?:hover)(?=[\s>+~])/.exec(sel.trim());
        if (!m) continue;
        const subject = m[1]!.replace(/:hover/g, '').trim() || '*';
        let els: Element[] = [];
        let targets: Element[] = [];
        try {
          els = Array.from(document.querySelectorAll(subject)).slice(0, 50);
          // What the rule shows: hidden now, with something in it to read or use.
          targets = Array.from(document.querySelectorAll(sel.replace(/:hover/g, '').replace(/::?(before|after)\b/g, ''))).slice(0, 100).filter((t) => !shown(t) && hasContent(t));
        } catch {
          continue;
        }
        if (targets.length === 0) continue;
        let n = 0;
        for (const el of els) {
          if (n >= 2 || out.length >= arg.cap) break;
          const scope = el.parentElement ?? el;
          if (!targets.some((t) => t !== el && scope.contains(t) && !selfLink(t, el))) continue;
          if (add(el, sel.trim().slice(0, 120))) n++;
        }
      }
    }
  };
  for (const sheet of Array.from(document.styleSheets).slice(0, 50)) {
    try {
      visit(sheet.cssRules);
    } catch {
      // a cross-origin style sheet cannot be read
    }
  }
  for (const id of arg.listenerIds) {
    const el = k.el(id);
    if (el) add(el, 'a mouseover listener');
  }
  return out;
}

type Revealed = { ids: number[]; controls: boolean; text: string };

/**
 * In the page: what is shown now that was not at `noteShown`, as top-level roots (at most 20),
 * leaving out links to the hovered element itself or a section around it (a heading's permalink).
 */
export function newlyShown(k: Probe, hovered: number): Revealed {
  const before = (window as unknown as { __a11yKbdDlg?: { before: WeakSet<Element> } }).__a11yKbdDlg?.before;
  const base = k.el(hovered);
  if (!before || !base) return { ids: [], controls: false, text: '' };
  const all = document.body ? Array.from(document.body.getElementsByTagName('*')).slice(0, 8000) : [];
  const fresh = new Set<Element>();
  for (const el of all) {
    if (before.has(el)) continue;
    const e = el as Element & { checkVisibility?: (o: object) => boolean };
    if (e.checkVisibility && !e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    fresh.add(el);
  }
  const permalink = (el: Element) => {
    const href = el.localName === 'a' ? (el.getAttribute('href') || '').trim() : '';
    if (!href.startsWith('#') || href.length < 2) return false;
    let target: Element | null = null;
    try {
      target = document.getElementById(decodeURIComponent(href.slice(1)));
    } catch {
      target = null;
    }
    return !!target && (target === base || target.contains(base));
  };
  const roots = [...fresh].filter((el) => !(el.parentElement && fresh.has(el.parentElement)) && !permalink(el) && !el.closest('[aria-hidden="true"]'));
  const controlSel = 'a[href], button, input, select, textarea, [role="menuitem"], [role="button"], [role="link"], [tabindex]';
  const kept = roots.filter((el) => el.matches(controlSel) || el.querySelector(controlSel) || ((el as HTMLElement).innerText || '').trim().length >= 2).slice(0, 20);
  const controls = kept.some((el) => (el.matches(controlSel) && !permalink(el)) || Array.from(el.querySelectorAll(controlSel)).some((c) => !permalink(c)));
  const text = kept
    .map((el) => ((el as HTMLElement).innerText || '').replace(/\s+/g, ' ').trim())
    .join(' ')
    .slice(0, 80);
  return { ids: kept.map((el) => k.idFor(el)), controls, text };
}

/** In the page: whether any of these elements is shown. */
export function anyShown(k: Probe, ids: number[]): boolean {
  return ids.some((id) => {
    const el = k.el(id);
    if (!el || !el.isConnected) return false;
    const e = el as Element & { checkVisibility?: (o: object) => boolean };
    if (e.checkVisibility && !e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width >= 2 && r.height >= 2;
  });
}

/** In the page: where to point the mouse at the element (its centre, scrolled into view), if the element is what is there. */
export function pointAt(k: Probe, id: number): { x: number; y: number } | null {
  const el = k.el(id);
  if (!el) return null;
  el.scrollIntoView({ block: 'center', inline: 'nearest' });
  const r = el.getBoundingClientRect();
  const x = r.left + Math.min(r.width / 2, 20);
  const y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return hit && (hit === el || el.contains(hit)) ? { x, y } : null;
}

/** In the page: the element keyboard focus can go to for this one (itself, or the first focusable thing inside); and whether it is a button. */
export function focusTarget(k: Probe, id: number): { id: number; button: boolean } | null {
  const el = k.el(id) as HTMLElement | undefined;
  if (!el) return null;
  const focusable = (e: Element) => (e as HTMLElement).tabIndex >= 0 && !(e as HTMLButtonElement).disabled && (!(e.localName === 'a') || e.hasAttribute('href'));
  const sel = 'a[href], button, input, select, textarea, summary, [tabindex]';
  const shown = (e: Element) => {
    const c = e as Element & { checkVisibility?: (o: object) => boolean };
    return !c.checkVisibility || c.checkVisibility({ checkVisibilityCSS: true });
  };
  const t = focusable(el) && el.matches(sel) ? el : Array.from(el.querySelectorAll(sel)).slice(0, 200).find((e) => focusable(e) && shown(e));
  if (!t) return null;
  const button = t.localName === 'button' || t.localName === 'summary' || (t.getAttribute('role') || '').trim() === 'button';
  return { id: k.idFor(t), button };
}

export interface HoverOnly {
  id: number;
  source: string;
  /** What appeared: controls (a sub-menu's links) or only text (a tooltip). */
  controls: boolean;
  text: string;
  /** The element keyboard focus could go to for it, if any. */
  focusable: boolean;
}

/** Time for what the pointer or focus shows to appear (a short transition) or go. */
const SHOW_MS = 150;
const wait = (page: Page, ms: number) => probe(page, (_k, t: number) => new Promise((r) => setTimeout(r, t)), ms);

/**
 * Waits for what styles alone show or hide: a new frame's style, then the transitions and
 * animations it started (a `transition-delay` included), up to `ms`. Enough where no script
 * listens to the pointer: what `:hover` shows is there as soon as they end.
 */
const styleSettled = (page: Page, ms: number) =>
  probe(
    page,
    (_k, t: number) =>
      new Promise<void>((resolve) => {
        const end = performance.now() + t;
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            const running = document.getAnimations().filter((a) => a.playState === 'running' || a.pending);
            if (running.length === 0) return resolve();
            const left = Math.max(0, end - performance.now());
            void Promise.race([Promise.all(running.map((a) => a.finished.catch(() => {}))), new Promise((r) => setTimeout(r, left))]).then(() => resolve());
          }),
        );
      }),
    ms,
  );

/**
 * Hovers each candidate and keeps those whose content only the mouse shows (`found`). Stops at
 * `endAt`. `noPointerScripts`: the page has no pointer listener anywhere, so what pointing shows
 * or hides is waited for by its styles' transitions rather than a fixed time. `pressed`: Enter was pressed on a button (which may have acted on the page); pointing
 * and focusing alone do not operate anything.
 */
export async function tryHover(
  page: Page,
  candidates: readonly HoverCandidate[],
  endAt: number,
  noPointerScripts = false,
): Promise<{ found: HoverOnly[]; pressed: boolean }> {
  const out: HoverOnly[] = [];
  let pressed = false;
  // With no pointer listener anywhere on the page, only styles answer the pointer.
  const pointerSettled = () => (noPointerScripts ? styleSettled(page, SHOW_MS) : wait(page, SHOW_MS));
  for (const c of candidates) {
    if (performance.now() > endAt) break;
    try {
      await page.mouse.move(0, 0);
      const at = await probe(page, pointAt, c.id);
      if (!at) continue;
      await probe(page, noteShown);
      await page.mouse.move(at.x, at.y);
      await pointerSettled();
      const rev = await probe(page, newlyShown, c.id);
      await page.mouse.move(0, 0);
      await pointerSettled();
      if (rev.ids.length === 0) continue;
      // Shown without the pointer too (a click-toggled menu, a timer): not the pointer's doing.
      if (await probe(page, anyShown, rev.ids)) continue;
      const target = await probe(page, focusTarget, c.id);
      if (target) {
        await probe(page, (k, i: number) => k.focus(i, false), target.id);
        await wait(page, SHOW_MS);
        let shownByKeys = await probe(page, anyShown, rev.ids);
        if (!shownByKeys && target.button) {
          pressed = true;
          await page.keyboard.press('Enter');
          await wait(page, SHOW_MS);
          shownByKeys = await probe(page, anyShown, rev.ids);
          await page.keyboard.press('Escape');
        }
        await probe(page, (k) => k.blur());
        if (shownByKeys) continue;
      }
      out.push({ id: c.id, source: c.source, controls: rev.controls, text: rev.text, focusable: !!target });
    } catch {
      // gone
    }
  }
  await page.mouse.move(0, 0).catch(() => {});
  return { found: out, pressed };
}
