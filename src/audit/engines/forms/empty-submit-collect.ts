import type { EmptySubmitField, EmptySubmitForm, EmptySubmitText } from './empty-submit.ts';
import type { AuditWindow } from '../page-helpers.ts';

/** Bounds of the in-page work of one empty submission. */
export interface EmptySubmitOptions {
  /** Forms sent empty per page. */
  maxForms: number;
  /** Fields examined per form. */
  maxFields: number;
  /** Text nodes compared before and after (the whole page, document order). */
  maxTextNodes: number;
  textMax: number;
}

interface Armed {
  forms: HTMLFormElement[];
  texts: Map<Element, string>;
  styles: Map<Element, string>;
  icons: Set<Element>;
  invalid: Event[];
  submitted: number;
  stop: () => void;
}

/**
 * Runs in the page (after `ensureInPage`): the forms worth sending empty, each with at least one
 * field that looks required (`required`, `aria-required`, or a label ending in "*" / saying
 * "required") and a way to submit it. Returns how many there are (at most `maxForms`).
 */
export function findEmptySubmitForms(o: EmptySubmitOptions): number {
  const w = window as unknown as AuditWindow & { __a11yEmptySubmit?: { forms: HTMLFormElement[] } };
  const forms: HTMLFormElement[] = [];
  const required = (f: Element) => {
    if (f.hasAttribute('required') || f.getAttribute('aria-required') === 'true') return true;
    const labels = (f as HTMLInputElement).labels;
    const text = labels && labels.length ? Array.from(labels, (l) => l.textContent ?? '').join(' ') : '';
    return /\*\s*$|\(required\)|\brequired\b/i.test(text.trim());
  };
  for (const form of Array.from(document.forms).slice(0, 50)) {
    try {
      if (!w.__a11yAudit.rendered(form)) continue;
      const fields = Array.from(form.elements).filter((e) => /^(input|textarea|select)$/.test(e.localName) && !/^(hidden|submit|button|reset|image)$/.test((e as HTMLInputElement).type)).slice(0, o.maxFields);
      if (!fields.some((f) => required(f) && w.__a11yAudit.rendered(f))) continue;
      // A search box alone is not a form a person fills in.
      if (fields.length === 1 && ((fields[0] as HTMLInputElement).type === 'search' || form.getAttribute('role') === 'search')) continue;
      forms.push(form);
      if (forms.length >= o.maxForms) break;
    } catch {
      // an odd form is skipped
    }
  }
  w.__a11yEmptySubmit = { forms };
  return forms.length;
}

/**
 * Runs in the page: empties form `i`'s text fields, records what the page shows, stops every
 * submission the page would make (a capturing `submit` listener that cancels the default: no
 * navigation, the page's own handlers still run) and presses its submit button. The network is
 * blocked by the caller for as long as this lasts.
 */
export function sendFormEmpty(args: { i: number; o: EmptySubmitOptions }): { ok: boolean; cleared: boolean } {
  const w = window as unknown as { __a11yEmptySubmit?: { forms: HTMLFormElement[]; armed?: Armed } };
  const st = w.__a11yEmptySubmit;
  const form = st?.forms[args.i];
  if (!st || !form || !form.isConnected) return { ok: false, cleared: false };
  const texts = new Map<Element, string>();
  const styles = new Map<Element, string>();
  const sig = (el: Element) => {
    const s = getComputedStyle(el);
    return [s.borderTopColor, s.borderBottomColor, s.borderLeftColor, s.borderTopWidth, s.outlineColor, s.outlineStyle, s.boxShadow, s.backgroundColor, s.color, s.backgroundImage].join('|');
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let n = 0;
  for (let t = walker.nextNode(); t && n < args.o.maxTextNodes; t = walker.nextNode(), n++) {
    const p = t.parentElement;
    if (!p || !t.textContent?.trim()) continue;
    // A hidden message (display:none, visibility:hidden) counts as no text: showing it is new.
    const shownNow = typeof p.checkVisibility !== 'function' || p.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    texts.set(p, shownNow ? (p.innerText ?? '').trim().slice(0, args.o.textMax) : '');
  }
  const fields = Array.from(form.elements).filter((e) => /^(input|textarea|select)$/.test(e.localName)).slice(0, args.o.maxFields);
  for (const f of fields) {
    styles.set(f, `${sig(f)}#${f.className}`);
    const label = (f as HTMLInputElement).labels?.[0];
    if (label) styles.set(label, `${sig(label)}#${label.className}`);
  }
  const icons = new Set<Element>();
  for (const f of fields) for (const i of Array.from(f.parentElement?.querySelectorAll('img,svg,[class*=icon]') ?? [])) icons.add(i);
  const invalid: Event[] = [];
  const onInvalid = (e: Event) => void invalid.push(e);
  const armed: Armed = { forms: st.forms, texts, styles, icons, invalid, submitted: 0, stop: () => {} };
  const onSubmit = (e: Event) => {
    armed.submitted++;
    e.preventDefault();
  };
  window.addEventListener('submit', onSubmit, true);
  document.addEventListener('invalid', onInvalid, true);
  armed.stop = () => {
    window.removeEventListener('submit', onSubmit, true);
    document.removeEventListener('invalid', onInvalid, true);
  };
  st.armed = armed;
  let cleared = false;
  for (const f of fields) {
    const el = f as HTMLInputElement;
    if (/^(text|email|tel|url|number|password|search|date|month|week|time|datetime-local)$/.test(el.type) || el.localName === 'textarea') {
      if (el.value) {
        el.value = '';
        cleared = true;
      }
    }
  }
  const submit = form.querySelector<HTMLElement>('button:not([type]), button[type=submit], input[type=submit], input[type=image]')
    ?? (form.id ? document.querySelector<HTMLElement>(`button[form="${CSS.escape(form.id)}"], input[type=submit][form="${CSS.escape(form.id)}"]`) : null);
  try {
    if (submit) submit.click();
    else form.requestSubmit();
  } catch {
    // a throwing handler of the page: what it did so far is still read
  }
  return { ok: true, cleared };
}

/**
 * Runs in the page after `sendFormEmpty` and a short settle: what the page now shows that it did
 * not before, per field and page-wide. Stops the submit listener.
 */
export function readEmptySubmit(args: { i: number; o: EmptySubmitOptions }): EmptySubmitForm | null {
  const w = window as unknown as AuditWindow & {
    __a11yEmptySubmit?: { forms: HTMLFormElement[]; armed?: Armed };
  };
  const h = w.__a11yAudit;
  const st = w.__a11yEmptySubmit;
  const armed = st?.armed;
  const form = st?.forms[args.i];
  if (!st || !armed || !form) return null;
  armed.stop();
  return h.withTree(() => {
  const clip = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, args.o.textMax);
  const ref = (el: Element) => {
    const d = h.describe(el);
    return { selector: d.selector, html: d.html.length > 600 ? `${d.html.slice(0, 600)}…` : d.html };
  };
  const sig = (el: Element) => {
    const s = getComputedStyle(el);
    return [s.borderTopColor, s.borderBottomColor, s.borderLeftColor, s.borderTopWidth, s.outlineColor, s.outlineStyle, s.boxShadow, s.backgroundColor, s.color, s.backgroundImage].join('|');
  };
  const visible = (el: Element) => {
    if (!h.rendered(el)) return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && getComputedStyle(el).visibility === 'visible' && getComputedStyle(el).opacity !== '0';
  };
  const fields = Array.from(form.elements).filter((e) => /^(input|textarea|select)$/.test(e.localName) && !/^(hidden|submit|button|reset|image)$/.test((e as HTMLInputElement).type)).slice(0, args.o.maxFields);
  const describedBy = new Map<Element, number>();
  fields.forEach((f, idx) => {
    for (const attr of ['aria-describedby', 'aria-errormessage', 'aria-labelledby']) {
      for (const id of (f.getAttribute(attr) ?? '').split(/\s+/).filter(Boolean)) {
        const t = document.getElementById(id);
        if (t) describedBy.set(t, idx);
      }
    }
    for (const l of Array.from((f as HTMLInputElement).labels ?? [])) describedBy.set(l, idx);
  });
  const fieldOf = (el: Element): number | undefined => {
    for (let a: Element | null = el; a; a = a.parentElement) {
      const i = describedBy.get(a);
      if (i !== undefined) return i;
    }
    return undefined;
  };
  const live = (el: Element) => !!el.closest('[role=alert],[role=alertdialog],[role=status],[role=log],[aria-live=polite],[aria-live=assertive],output');
  const active = document.activeElement;

  // New or changed visible texts (elements that hold text directly), in document order.
  const newTexts: EmptySubmitText[] = [];
  const textEls: Element[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let n = 0;
  const seen = new Set<Element>();
  const before = new Set(armed.texts.values());
  for (let t = walker.nextNode(); t && n < args.o.maxTextNodes; t = walker.nextNode(), n++) {
    const p = t.parentElement;
    if (!p || seen.has(p) || !t.textContent?.trim() || /^(script|style|noscript|template|option)$/.test(p.localName)) continue;
    seen.add(p);
    const now = (p.innerText ?? '').trim().slice(0, args.o.textMax);
    if (!now || armed.texts.get(p) === now || !visible(p)) continue;
    // A block whose text was already there, only inside a new wrapper, is not new either.
    if (before.has(now)) continue;
    // Only the outermost changed element of a message.
    if (textEls.some((e) => e.contains(p))) continue;
    textEls.push(p);
    if (newTexts.length >= 40) break;
    const owner = fieldOf(p);
    newTexts.push({
      ref: ref(p),
      text: clip(now),
      field: owner ?? null,
      live: live(p),
      focused: !!active && active !== document.body && (p.contains(active) || active.contains(p)),
      hiddenFromAT: !!p.closest('[aria-hidden=true]'),
    });
  }
  // The field each unassociated text is nearest to, in the same row or right below/above it.
  const rects = fields.map((f) => f.getBoundingClientRect());
  for (const t of newTexts) {
    if (t.field !== null) continue;
    const el = textEls[newTexts.indexOf(t)];
    if (!el) continue;
    const r = el.getBoundingClientRect();
    let best = -1;
    let bestD = 80;
    rects.forEach((fr, idx) => {
      if (fr.width === 0) return;
      const dx = Math.max(0, fr.left - r.right, r.left - fr.right);
      const dy = Math.max(0, fr.top - r.bottom, r.top - fr.bottom);
      const d = Math.hypot(dx, dy);
      if (d < bestD) {
        bestD = d;
        best = idx;
      }
    });
    t.near = best >= 0 ? best : null;
  }

  const out: EmptySubmitField[] = [];
  const invalidTargets = new Map<Element, boolean>();
  for (const e of armed.invalid) if (e.target instanceof Element) invalidTargets.set(e.target, (invalidTargets.get(e.target) ?? false) || !e.defaultPrevented);
  fields.forEach((f, idx) => {
    try {
      if (!visible(f)) return;
      const label = (f as HTMLInputElement).labels?.[0];
      const marks: string[] = [];
      const beforeF = armed.styles.get(f);
      const nowF = `${sig(f)}#${f.className}`;
      if (beforeF !== undefined && beforeF !== nowF) marks.push(beforeF.split('#')[0] !== nowF.split('#')[0] ? 'style' : 'class');
      if (label) {
        const beforeL = armed.styles.get(label);
        if (beforeL !== undefined && beforeL.split('#')[0] !== sig(label)) marks.push('label-style');
      }
      const ai = f.getAttribute('aria-invalid');
      if (ai && ai !== 'false') marks.push('aria-invalid');
      // A new image or icon next to the field (inside its wrapper).
      const wrap = f.parentElement;
      if (wrap && Array.from(wrap.querySelectorAll('img,svg,[class*=icon]')).some((i) => !armed.icons.has(i) && visible(i) && !i.closest('button'))) marks.push('icon');
      const autocomplete = (f.getAttribute('autocomplete') ?? '').toLowerCase();
      const native = invalidTargets.get(f);
      out.push({
        index: idx,
        ref: ref(f),
        name: clip(h.name(f)),
        type: (f as HTMLInputElement).type ?? f.localName,
        autocomplete,
        required: f.hasAttribute('required') || f.getAttribute('aria-required') === 'true',
        nativeBubble: native === true,
        marks,
        focused: active === f,
      });
    } catch {
      // skipped
    }
  });
  return { ref: ref(form), submitted: armed.submitted, fields: out, texts: newTexts };
  });
}
