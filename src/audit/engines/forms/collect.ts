import type { FormPageFacts } from './facts.ts';
import type { AuditWindow } from '../page-helpers.ts';

/** Bounds of one collection: a huge page costs no more than a form-heavy normal one. */
export interface CollectOptions {
  maxControls: number;
  maxWidgets: number;
  maxFieldsets: number;
  maxTextNodes: number;
  maxMessages: number;
  /** `ERROR_TEXT_SOURCE` (case-insensitive). */
  errorText: string;
  /** Longest text kept per item. */
  textMax: number;
}

/**
 * Runs in the page (after `ensureInPage`): reads the facts the forms checks need in one pass. It
 * may use nothing from this module's scope, only `window.__a11yAudit` and axe's commons. Every
 * element is read inside its own try/catch, so an odd node is skipped, never fatal.
 */
export function collectFormFacts(o: CollectOptions): FormPageFacts {
  const w = window as unknown as AuditWindow & {
    axe: { commons: { aria: { getRole(el: Element, opts?: unknown): string | null } } };
  };
  const h = w.__a11yAudit;
  const axe = w.axe;
  return h.withTree(() => {
    const clip = (s: string, max = o.textMax) => {
      const t = s.replace(/\s+/g, ' ').trim();
      return t.length > max ? t.slice(0, max) : t;
    };
    const ref = (el: Element) => {
      const d = h.describe(el);
      return { selector: d.selector, html: d.html.length > 600 ? `${d.html.slice(0, 600)}…` : d.html };
    };
    const styles = new Map<Element, CSSStyleDeclaration>();
    const cs = (el: Element) => {
      let s = styles.get(el);
      if (!s) {
        s = getComputedStyle(el);
        styles.set(el, s);
      }
      return s;
    };
    const roleOf = (el: Element) => {
      try {
        return axe.commons.aria.getRole(el) ?? '';
      } catch {
        return '';
      }
    };

    // ---- what is visible ------------------------------------------------------------------------
    const hiddenMemo = new Map<Element, boolean>();
    /** Not displayed, transparent, or clipped to (almost) nothing, itself or by an ancestor. */
    const clippedAway = (el: Element | null): boolean => {
      if (!el || el === document.documentElement) return false;
      const memo = hiddenMemo.get(el);
      if (memo !== undefined) return memo;
      const s = cs(el);
      let hidden = s.display === 'none' || s.opacity === '0';
      if (!hidden && (s.clipPath !== 'none' || (s.clip && s.clip !== 'auto') || /hidden|clip/.test(`${s.overflowX} ${s.overflowY}`))) {
        const r = el.getBoundingClientRect();
        hidden =
          r.width <= 1 ||
          r.height <= 1 ||
          /inset\(\s*50%/.test(s.clipPath) ||
          /rect\(\s*0(px)?[\s,]+0(px)?[\s,]+0(px)?[\s,]+0(px)?\s*\)/.test(s.clip);
      }
      if (!hidden) hidden = clippedAway(el.parentElement);
      hiddenMemo.set(el, hidden);
      return hidden;
    };
    const offscreen = (r: DOMRect) => r.right + window.scrollX <= 0 || r.bottom + window.scrollY <= 0;
    const shown = (el: Element) => {
      if (!h.rendered(el) || clippedAway(el)) return false;
      const r = el.getBoundingClientRect();
      return !offscreen(r) || r.width === 0;
    };
    const range = document.createRange();
    const textShown = (t: Text) => {
      const p = t.parentElement;
      if (!p || cs(p).visibility !== 'visible' || clippedAway(p)) return false;
      range.selectNodeContents(t);
      for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0 && !offscreen(r)) return true;
      return false;
    };
    /** Text in an icon font, or private-use glyphs: not text a user reads. */
    const iconText = (p: Element, t: string) => /icon|glyph|awesome|fontello|symbol/i.test(cs(p).fontFamily) || /^[\s\uE000-\uF8FF]+$/.test(t);
    const SKIP_TAGS = new Set(['script', 'style', 'template', 'noscript']);
    const FIELD_TAGS = new Set(['input', 'select', 'textarea', 'button']);
    /** The text a sighted user sees in `root`, blocks and line breaks as spaces. */
    const visibleText = (root: Element, skipFields: boolean): string => {
      const parts: string[] = [];
      let size = 0;
      const walk = (n: Node) => {
        if (size > 800) return;
        if (n.nodeType === Node.TEXT_NODE) {
          const t = (n as Text).data;
          if (!t.trim()) parts.push(' ');
          else if (textShown(n as Text) && !iconText((n as Text).parentElement!, t)) {
            parts.push(t);
            size += t.length;
          }
          return;
        }
        if (n.nodeType !== Node.ELEMENT_NODE) return;
        const el = n as Element;
        const tag = el.localName;
        if (SKIP_TAGS.has(tag)) return;
        if (skipFields && el !== root && FIELD_TAGS.has(tag)) return;
        if (tag === 'br') {
          parts.push(' ');
          return;
        }
        const d = cs(el).display;
        if (d === 'none') return;
        const block = !/^(inline|contents)/.test(d);
        if (block) parts.push(' ');
        for (let c = el.firstChild; c; c = c.nextSibling) walk(c);
        if (block) parts.push(' ');
      };
      walk(root);
      return clip(parts.join(''));
    };
    const idrefs = (el: Element, attr: string): Element[] =>
      (el.getAttribute(attr) ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => document.getElementById(id))
        .filter((x): x is HTMLElement => !!x);

    // Ids that name or describe something: text inside them is tied to a field.
    const referenced = new Set<string>();
    for (const el of document.querySelectorAll('[aria-describedby], [aria-errormessage], [aria-labelledby]')) {
      for (const a of ['aria-describedby', 'aria-errormessage', 'aria-labelledby']) for (const id of (el.getAttribute(a) ?? '').split(/\s+/)) if (id) referenced.add(id);
    }

    // ---- fields, in document order with the headings before them ----------------------------------
    const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'listbox', 'switch', 'slider', 'spinbutton']);
    const SKIP_TYPES = new Set(['hidden', 'submit', 'button', 'reset', 'image']);
    const CONTROL_SEL =
      'input, select, textarea, [role="textbox"], [role="searchbox"], [role="combobox"], [role="checkbox"], [role="radio"], [role="listbox"], [role="switch"], [role="slider"], [role="spinbutton"]';
    const ordered = document.querySelectorAll(`h1, h2, h3, h4, h5, h6, [role="heading"], ${CONTROL_SEL}`);
    const containers = new Map<Element, number>();
    const containerOf = (el: Element) => el.closest('form') ?? el.parentElement?.parentElement ?? document.body;
    const formIndex = (c: Element) => {
      let i = containers.get(c);
      if (i === undefined) {
        i = containers.size;
        containers.set(c, i);
      }
      return i;
    };
    const meaningfulSibling = (n: Node, dir: 'previousSibling' | 'nextSibling'): Node | null => {
      let p = n[dir];
      while (p && ((p.nodeType === Node.TEXT_NODE && !(p as Text).data.trim()) || p.nodeType === Node.COMMENT_NODE || (p.nodeType === Node.ELEMENT_NODE && (p as Element).localName === 'br')))
        p = p[dir];
      return p;
    };
    const LABEL_LIKE = new Set(['span', 'p', 'div', 'strong', 'b', 'em', 'i', 'font', 'dt', 'td', 'th', 'small']);
    /** The text a node shows, if it could be a short visual label of a field (or a marker next to it). */
    const shortText = (n: Node | null, max: number): { text: string; label: HTMLLabelElement | null } | null => {
      if (!n) return null;
      if (n.nodeType === Node.TEXT_NODE) {
        const t = clip((n as Text).data);
        return t && t.length <= max && textShown(n as Text) ? { text: t, label: null } : null;
      }
      if (n.nodeType !== Node.ELEMENT_NODE) return null;
      const el = n as Element;
      if (el.localName === 'label') return { text: visibleText(el, true), label: el as HTMLLabelElement };
      if (!LABEL_LIKE.has(el.localName) || el.querySelector(CONTROL_SEL + ', button, a[href], img, label')) return null;
      if (el.id && referenced.has(el.id)) return null;
      const t = visibleText(el, true);
      return t && t.length <= max ? { text: t, label: null } : null;
    };

    const facts: FormPageFacts = { controls: [], widgets: [], fieldsets: [], messages: [], asteriskExplained: false, examined: 0, capped: false };
    let heading = '';
    const groupRequired = new Map<string, boolean>();
    const groupKeyOf: Array<string | null> = [];
    for (const el of ordered) {
      if (facts.controls.length >= o.maxControls) {
        facts.capped = true;
        break;
      }
      try {
        const tag = el.localName;
        if (/^h[1-6]$/.test(tag) || el.getAttribute('role') === 'heading') {
          if (shown(el)) heading = clip(visibleText(el, false), 120);
          continue;
        }
        facts.examined++;
        const type = tag === 'input' ? ((el as HTMLInputElement).type || 'text').toLowerCase() : '';
        if (tag === 'input' && SKIP_TYPES.has(type)) continue;
        const role = roleOf(el);
        const native = tag === 'input' || tag === 'select' || tag === 'textarea';
        if (native ? role === 'none' || role === 'presentation' || (el.hasAttribute('role') && !FIELD_ROLES.has(role) && role !== '') : !FIELD_ROLES.has(role)) continue;
        if (!h.rendered(el) || el.closest('[aria-hidden="true"]')) continue;
        // The popup list of a combobox shares the combobox's label: it is part of that field.
        if (role === 'listbox' && el.id && document.querySelector(`[aria-controls~="${CSS.escape(el.id)}"], [aria-owns~="${CSS.escape(el.id)}"]`)) continue;
        const choice = type === 'checkbox' || type === 'radio' || role === 'checkbox' || role === 'radio' || role === 'switch';
        const labels = native ? [...((el as HTMLInputElement).labels ?? [])] : [];
        const labelText = clip(labels.map((l) => visibleText(l, true)).join(' '));
        if (!shown(el) && !(choice && labelText)) continue;

        const name = clip(h.name(el));
        const labelledby = idrefs(el, 'aria-labelledby');
        let nameFrom: FormPageFacts['controls'][number]['nameFrom'] = 'other';
        if (!name) nameFrom = 'none';
        else if (labelledby.some((r) => (r.textContent ?? '').trim() || r.getAttribute('aria-label'))) nameFrom = 'aria-labelledby';
        else if ((el.getAttribute('aria-label') ?? '').trim()) nameFrom = 'aria-label';
        else if (labels.some((l) => (l.textContent ?? '').trim())) nameFrom = 'label';
        else if ((el.getAttribute('title') ?? '').trim()) nameFrom = 'title';
        else if ((el.getAttribute('placeholder') ?? '').trim()) nameFrom = 'placeholder';
        const description = clip(idrefs(el, 'aria-describedby').map((r) => r.textContent ?? '').join(' '));
        const invalidAttr = (el.getAttribute('aria-invalid') ?? '').trim().toLowerCase();
        const errorMessage = clip(
          idrefs(el, 'aria-errormessage')
            .map((r) => visibleText(r, false))
            .join(' '),
        );
        const groupName = choice && native ? ((el as HTMLInputElement).name ?? '') : '';
        const form = formIndex(containerOf(el));
        const formEl = el.closest('form');
        const formElement = formEl ? [...document.forms].indexOf(formEl) : -1;
        const required = (native && (el as HTMLInputElement).required) || el.getAttribute('aria-required') === 'true';
        const gk = groupName ? `${form}\u0000${type}\u0000${groupName}` : null;
        if (gk && required) groupRequired.set(gk, true);

        // The closest fieldset or ARIA group, and its name.
        const fs = el.closest('fieldset');
        const grp = el.closest('[role="group"], [role="radiogroup"]');
        const holder = fs && grp ? (fs.contains(grp) ? grp : fs) : (fs ?? grp);
        const groupLabel = holder ? clip(h.name(holder), 120) : null;
        const inUnnamedFieldset = !!holder && holder === fs && groupLabel === '' && shown(fs!);

        // Visible text that looks like this field's label but is not tied to it.
        let orphanLabel: FormPageFacts['controls'][number]['orphanLabel'] = null;
        let crossedLabel: FormPageFacts['controls'][number]['crossedLabel'] = null;
        if (!labelText && !labelledby.length) {
          let start: Element = el;
          let prev = meaningfulSibling(el, 'previousSibling');
          if (!prev && el.parentElement && el.parentElement !== document.body && el.parentElement.children.length === 1) {
            start = el.parentElement;
            prev = meaningfulSibling(start, 'previousSibling');
          }
          const candidates = [prev, choice ? meaningfulSibling(start, 'nextSibling') : null];
          for (const c of candidates) {
            const s = shortText(c, 80);
            if (!s || !s.text) continue;
            if (s.label) {
              if (s.label.control) {
                // Another field's label. When that field has a label of its own besides this
                // one, this label was meant for the field it sits before and is tied to the
                // wrong one (H44's test: the label describes the field it is tied to).
                const other = s.label.control;
                if (other !== el && ((other as HTMLInputElement).labels?.length ?? 0) >= 2 && !crossedLabel) crossedLabel = { text: s.text, field: ref(other) };
                continue;
              }
              const f = s.label.getAttribute('for');
              orphanLabel = { text: s.text, kind: f === null ? 'label-wraps-nothing' : document.getElementById(f) ? 'label-for-other' : 'label-for-missing' };
            } else if (c === prev) orphanLabel = { text: s.text, kind: 'text-before' };
            if (orphanLabel) break;
          }
        }

        // Visible text between the field's (only) label and the field.
        let hint = '';
        if (labels.length === 1 && !labels[0]!.contains(el) && labels[0]!.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) {
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          walker.currentNode = labels[0]!;
          const bits: string[] = [];
          let reached = false;
          let i = 0;
          for (let n = walker.nextNode(); ; i++, n = walker.nextNode()) {
            if (!n || !(el.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_PRECEDING)) {
              reached = true;
              break;
            }
            if (i >= 40) break;
            if (labels[0]!.contains(n)) continue;
            const p = n.parentElement;
            if (!p || p.closest('label, select, textarea, button, script, style, template')) continue;
            if ((n as Text).data.trim() && textShown(n as Text)) bits.push((n as Text).data);
          }
          if (!reached) bits.length = 0; // too far apart to be one field's parts
          hint = clip(bits.join(' '));
        }

        // How far the field sits from its label's text, when both are on one row.
        let labelGap: number | null = null;
        if (labels.length === 1 && !labels[0]!.contains(el) && labelText) {
          const f = el.getBoundingClientRect();
          range.selectNodeContents(labels[0]!);
          let right = -Infinity;
          let top = Infinity;
          let bottom = -Infinity;
          for (const r of range.getClientRects()) {
            if (r.width <= 0 || r.height <= 0) continue;
            right = Math.max(right, r.right);
            top = Math.min(top, r.top);
            bottom = Math.max(bottom, r.bottom);
          }
          const sameRow = Math.min(bottom, f.bottom) - Math.max(top, f.top) > 0;
          if (Number.isFinite(right) && sameRow && f.left >= right) labelGap = Math.round(f.left - right);
        }

        // A required marker next to the field or its label (not inside either).
        const near: string[] = [];
        for (const anchor of [el, labels.length === 1 && !labels[0]!.contains(el) ? labels[0]! : null]) {
          if (!anchor) continue;
          for (const dir of ['previousSibling', 'nextSibling'] as const) {
            const s = shortText(meaningfulSibling(anchor, dir), 12);
            if (s && !s.label && s.text) near.push(s.text);
          }
        }
        const labelish = labelText || (nameFrom === 'aria-labelledby' ? name : '');
        let marker: FormPageFacts['controls'][number]['marker'] = null;
        if (/[*\u2217\uff0a]|\b(required|mandatory)\b/i.test(labelish)) marker = { text: clip(labelish, 80), where: 'label' };
        else {
          const m = near.find((t) => /^\W*([*\u2217\uff0a]|\(?\s*(required|mandatory)\s*\)?)\W*$/i.test(t));
          if (m) marker = { text: m, where: 'adjacent' };
        }

        groupKeyOf.push(gk);
        facts.controls.push({
          ref: ref(el),
          tag,
          type,
          role,
          choice,
          name,
          nameFrom,
          labelText,
          description,
          required,
          invalid: invalidAttr !== '' && invalidAttr !== 'false',
          errorMessage,
          form,
          formElement,
          groupName,
          groupLabel,
          inUnnamedFieldset,
          heading,
          orphanLabel,
          crossedLabel,
          hint,
          labelGap,
          marker,
        });
      } catch {
        // a detached or odd node: skip it
      }
    }
    facts.controls.forEach((c, i) => {
      const gk = groupKeyOf[i];
      if (gk && groupRequired.get(gk)) c.required = true;
    });

    // ---- elements named from their content that have aria-label / aria-labelledby ---------------
    const NAME_FROM_CONTENT = new Set(['button', 'checkbox', 'gridcell', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'switch', 'tab', 'treeitem']);
    let widgets = 0;
    for (const el of document.querySelectorAll('[aria-label], [aria-labelledby]')) {
      if (widgets >= o.maxWidgets) {
        facts.capped = true;
        break;
      }
      try {
        const tag = el.localName;
        if (tag === 'select' || tag === 'textarea') continue;
        const type = tag === 'input' ? ((el as HTMLInputElement).type || 'text').toLowerCase() : '';
        if (tag === 'input' && type !== 'button' && type !== 'submit' && type !== 'reset') continue;
        const role = roleOf(el);
        if (!NAME_FROM_CONTENT.has(role)) continue;
        widgets++;
        if (!shown(el) || el.closest('[aria-hidden="true"]')) continue;
        const visible = tag === 'input' ? clip((el as HTMLInputElement).getAttribute('value') ?? '') : visibleText(el, false);
        // No visible text (an image, an icon font): nothing to compare, recorded so the pass is known.
        facts.widgets.push({ ref: ref(el), role, visibleText: visible, name: clip(h.name(el)) });
      } catch {
        // skip
      }
    }

    // ---- fieldsets -----------------------------------------------------------------------------
    let fieldsets = 0;
    for (const fs of document.querySelectorAll('fieldset')) {
      if (fieldsets++ >= o.maxFieldsets) {
        facts.capped = true;
        break;
      }
      try {
        if (!shown(fs) || fs.closest('[aria-hidden="true"]')) continue;
        const legend = fs.querySelector(':scope > legend');
        facts.fieldsets.push({
          ref: ref(fs),
          name: clip(h.name(fs), 120),
          legend: !legend ? 'none' : visibleText(legend, false) ? 'text' : 'empty',
          controls: fs.querySelectorAll(CONTROL_SEL).length,
        });
      } catch {
        // skip
      }
    }

    // ---- text that reads like an error message, in the forms (or regions) of the fields ---------
    const errorText = new RegExp(o.errorText, 'i');
    const seen = new Set<Element>();
    let textNodes = 0;
    for (const [container, form] of containers) {
      if (facts.messages.length >= o.maxMessages || textNodes >= o.maxTextNodes) break;
      const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (++textNodes > o.maxTextNodes) {
          facts.capped = true;
          break;
        }
        try {
          const t = (n as Text).data;
          if (t.length < 3 || !errorText.test(t)) continue;
          const p = n.parentElement;
          if (!p || seen.has(p) || p.closest('select, option, textarea, button, script, style, template, legend, [role="option"]')) continue;
          seen.add(p);
          if (!textShown(n as Text)) continue;
          const text = visibleText(p, true);
          if (!text || text.length > 300) continue;
          let associated = !!p.closest('label')?.control;
          for (let a: Element | null = p; a && !associated && a !== container.parentElement; a = a.parentElement) if (a.id && referenced.has(a.id)) associated = true;
          if (!associated) for (const d of p.querySelectorAll('[id]')) if (referenced.has(d.id)) associated = true;
          facts.messages.push({ ref: ref(p), text, associated, hiddenFromAT: !!p.closest('[aria-hidden="true"]'), form });
          if (facts.messages.length >= o.maxMessages) break;
        } catch {
          // skip
        }
      }
    }

    // ---- does the page explain an asterisk? ----------------------------------------------------------
    const all = (document.body?.textContent ?? '').slice(0, 200_000);
    facts.asteriskExplained = /[*\u2217\uff0a][^*\n]{0,60}\b(required|mandatory|must)\b|\b(required|mandatory)\b[^*\n]{0,60}[*\u2217\uff0a]/i.test(all);
    return facts;
  });
}
