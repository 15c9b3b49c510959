import type { AuditWindow } from '../page-helpers.ts';
/**
 * What the colour checks (1.4.1 Use of Color) read in the page: links whose only mark is their
 * colour (F73), and form fields told apart from the others of their form only by colours (F81).
 * `scanColour` runs in the page (it uses nothing from outside itself, and the service's helpers
 * `window.__a11yAudit` and axe); the verdicts are pure functions, tested on their own.
 */

export interface LinkFacts {
  /** The selector of axe's `link-in-text-block` finding this link is, if any. */
  axeSelector: string | null;
  id: number;
  /** axe's own test: the link sits in a block of text (not on a line of its own); read only where it decides (see `needsTextBlock`). */
  inTextBlock: boolean;
  linkColour: string;
  textColour: string;
  /** The link and its inline ancestors up to the block have no background of their own. */
  sameBackground: boolean;
  /** A mark other than colour: underline, border, outline, shadow, background image, another font, weight, style or size. */
  distinct: boolean;
  /** Content generated before or after it (an icon, maybe). */
  pseudo: boolean;
  text: string;
}

export interface FieldFacts {
  id: number;
  group: number;
  /** The colours told apart: property name → value of this field (its border, background, label colour). */
  colours: Record<string, string>;
  /** What else tells fields apart: border widths (to 2 px), background image, shadow, label font. */
  shape: string;
  /** Text near it says required or wrong (an asterisk, "required", "error", a described-by text). */
  textCue: boolean;
  label: string;
}

export interface ColourFacts {
  links: LinkFacts[];
  fields: FieldFacts[];
}

/** Runs in the page. */
export function scanColour(opts: { axeSelectors: string[]; skipSelectors: string[]; maxLinks: number; maxFields: number }): ColourFacts {
  const w = window as unknown as AuditWindow;
  const A = w.__a11yAudit;
  const blockish = (d: string) => ['block', 'list-item', 'table', 'flex', 'grid', 'inline-block', 'flow-root'].includes(d) || d.startsWith('table-');
  const cs = (el: Element, pseudo?: string) => getComputedStyle(el, pseudo);
  const clip = (s: string, n: number) => s.replace(/\s+/g, ' ').trim().slice(0, n);
  const find = (sel: string): Element | null => {
    try {
      return sel.includes(' >>> ') ? null : document.querySelector(sel);
    } catch {
      return null;
    }
  };
  const blockOf = (el: Element): Element | null => {
    let p = el.parentElement;
    while (p && !blockish(cs(p).display)) p = p.parentElement;
    return p;
  };
  const visibleLine = (s: CSSStyleDeclaration, edge: string) =>
    s.getPropertyValue(`${edge}-style`) !== 'none' && parseFloat(s.getPropertyValue(`${edge}-width`)) > 0 && !/^(transparent|rgba\([^)]*,\s*0\))$/.test(s.getPropertyValue(`${edge}-color`));
  const fontDiffers = (a: CSSStyleDeclaration, b: CSSStyleDeclaration) =>
    a.fontFamily.split(',')[0] !== b.fontFamily.split(',')[0] ||
    a.fontWeight !== b.fontWeight ||
    a.fontStyle !== b.fontStyle ||
    a.fontSize !== b.fontSize ||
    a.textDecorationLine !== b.textDecorationLine ||
    a.textTransform !== b.textTransform;
  const distinctFrom = (el: Element, block: CSSStyleDeclaration): boolean => {
    const s = cs(el);
    if (s.backgroundImage !== 'none' || s.boxShadow !== 'none' || (s.textShadow !== 'none' && s.textShadow !== block.textShadow)) return true;
    if (['border-top', 'border-bottom', 'border-left', 'border-right', 'outline'].some((e) => visibleLine(s, e))) return true;
    return fontDiffers(s, block);
  };
  const transparent = (s: CSSStyleDeclaration) => s.backgroundImage === 'none' && /^(transparent|rgba\([^)]*,\s*0\))$/.test(s.backgroundColor);

  {
    const links: LinkFacts[] = [];
    const axeSet = new Set(opts.axeSelectors);
    const seen = new Set<Element>();
    const otherText = new Map<Element, boolean>();
    const skip = new Set(opts.skipSelectors.map(find).filter((e): e is Element => !!e));
    const candidates: Array<{ el: Element; axeSelector: string | null }> = [
      ...[...axeSet].map((s) => ({ el: find(s), axeSelector: s })).filter((c): c is { el: Element; axeSelector: string } => !!c.el),
      ...Array.from(document.querySelectorAll('a[href], [role="link"]'))
        .slice(0, opts.maxLinks)
        .map((el) => ({ el, axeSelector: null })),
    ];
    for (const { el, axeSelector } of candidates) {
      if (seen.has(el) || skip.has(el)) continue;
      seen.add(el);
      try {
        const s = cs(el);
        // The colour of the text around it, most often its parent's: the same colour, no colour cue.
        if (!axeSelector && el.parentElement && s.color === cs(el.parentElement).color) continue;
        if (blockish(s.display) || !A.rendered(el)) continue;
        const text = clip(el.textContent ?? '', 80);
        if (!text) continue;
        const block = blockOf(el);
        if (!block) continue;
        const bs = cs(block);
        if (!axeSelector && s.color === bs.color) continue;
        // Text of the block outside its links: a link alone in its block is not in text.
        let other = otherText.get(block);
        if (other === undefined) {
          let words = '';
          const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(), k = 0; n && k < 300 && words.length < 40; n = walker.nextNode(), k++) {
            const p = n.parentElement;
            if (p && !p.closest('a[href], [role="link"], button, [role="button"]') && A.rendered(p)) words += ` ${(n as Text).data.trim()}`;
          }
          // Words, not separators ("|", "·") between links.
          other = /[\p{L}\p{N}]{2,}/u.test(words);
          otherText.set(block, other);
        }
        if (!axeSelector && !other) continue;
        let distinct = distinctFrom(el, bs);
        // A mark on the element that holds its text (<a><strong>…</strong></a>).
        if (!distinct && el.children.length > 0 && el.children.length <= 5) {
          distinct = Array.from(el.children).some((c) => clip(c.textContent ?? '', 80) === text && distinctFrom(c, bs));
        }
        let sameBackground = true;
        for (let a: Element | null = el; a && a !== block; a = a.parentElement) if (!transparent(cs(a))) sameBackground = false;
        const pseudo = ['::before', '::after'].some((p) => {
          const c = cs(el, p).content;
          return c !== 'none' && c !== 'normal' && c !== '""' && c !== "''";
        });
        links.push({
          axeSelector,
          id: A.remember(el),
          inTextBlock: !!axeSelector,
          linkColour: s.color,
          textColour: bs.color,
          sameBackground,
          distinct,
          pseudo,
          text,
        });
      } catch {
        // an odd element: skip it
      }
    }

    // Fields of each form (or of the page outside forms), told apart by their colours.
    const fields: FieldFacts[] = [];
    const ACTIVE = document.activeElement;
    const groups = new Map<string, number>();
    const CUE = /[*\u2217\uff0a!\u26a0\u2716\u2717\u2718]|\b(required|mandatory|error|invalid|wrong|missing|must|please)\b/i;
    const sel =
      'input:not([type="hidden"]):not([type="submit"]):not([type="button"]):not([type="reset"]):not([type="image"]):not([type="checkbox"]):not([type="radio"]):not([type="range"]):not([type="color"]):not([type="file"]), select, textarea';
    const all = Array.from(document.querySelectorAll(sel)).slice(0, opts.maxFields);
    for (const el of all) {
      try {
        const f = el as HTMLInputElement;
        if (el === ACTIVE || f.disabled || f.readOnly || !A.rendered(el) || el.closest('[aria-hidden="true"]')) continue;
        const s = cs(el);
        const key = `${(f.form && Array.from(document.forms).indexOf(f.form)) ?? -1}\u0000${el.tagName}`;
        let group = groups.get(key);
        if (group === undefined) groups.set(key, (group = groups.size));
        const label = f.labels?.[0] ?? el.closest('label');
        const ls = label ? cs(label) : null;
        const colours: Record<string, string> = {
          'border-top-color': s.borderTopColor,
          'border-right-color': s.borderRightColor,
          'border-bottom-color': s.borderBottomColor,
          'border-left-color': s.borderLeftColor,
          'background-color': s.backgroundColor,
          ...(s.outlineStyle !== 'none' ? { 'outline-color': s.outlineColor } : {}),
          ...(ls ? { 'label color': ls.color } : {}),
        };
        const px = (v: string) => Math.round(parseFloat(v) / 2);
        const shape = [
          px(s.borderTopWidth),
          px(s.borderRightWidth),
          px(s.borderBottomWidth),
          px(s.borderLeftWidth),
          s.backgroundImage !== 'none',
          s.boxShadow !== 'none',
          s.outlineStyle !== 'none' ? px(s.outlineWidth) : 0,
          ls ? `${ls.fontWeight}/${ls.fontStyle}/${ls.textDecorationLine}` : '',
        ].join('|');
        // Text that says what is wrong or required: the label, a described-by text, the text right after it.
        const labelText = clip(label?.textContent ?? f.getAttribute('aria-label') ?? '', 120);
        const described = (f.getAttribute('aria-describedby') ?? '')
          .split(/\s+/)
          .map((id) => (id ? document.getElementById(id) : null))
          .filter((d): d is HTMLElement => !!d && A.rendered(d))
          .map((d) => d.textContent ?? '')
          .join(' ');
        const next = el.nextElementSibling && A.rendered(el.nextElementSibling) ? (el.nextElementSibling.textContent ?? '') : '';
        const textCue = CUE.test(labelText) || CUE.test(described) || CUE.test(clip(next, 120)) || CUE.test(f.placeholder ?? '');
        fields.push({ id: A.remember(el), group, colours, shape, textCue, label: labelText || clip(f.name ?? '', 60) });
      } catch {
        // skip it
      }
    }
    return { links, fields };
  }
}

/** A link not from axe that would be reported: whether axe counts it as in text decides how. */
export function needsTextBlock(f: LinkFacts, contrast: number | null): boolean {
  return !f.axeSelector && linkVerdict(f, contrast).outcome !== 'keep';
}

export interface LinkVerdict {
  /** `drop`: axe's "needs review" is decided as a pass. */
  outcome: 'confirmed' | 'needs_review' | 'drop' | 'keep';
  contrast: number | null;
  reason: string;
}

/**
 * F73 on one link, from its facts and the contrast of its colour with the text's (null when a
 * colour could not be read, or is not opaque). `keep` leaves axe's own result as it is (nothing
 * to add), `drop` withdraws axe's "needs review" (decided: not colour alone, or enough contrast).
 */
export function linkVerdict(f: LinkFacts, contrast: number | null): LinkVerdict {
  const keep = { outcome: 'keep' as const, contrast, reason: '' };
  if (f.distinct) return f.axeSelector ? { outcome: 'drop', contrast, reason: 'it has a mark other than colour' } : keep;
  if (contrast === null || f.pseudo || !f.sameBackground) return keep;
  if (contrast === 1 || contrast >= 3) return f.axeSelector ? { outcome: 'drop', contrast, reason: contrast === 1 ? 'same colour as its text' : 'contrast of 3:1 or more' } : keep;
  if (f.axeSelector || f.inTextBlock) {
    return { outcome: 'confirmed', contrast, reason: `Its colour has a contrast of ${contrast}:1 with the text around it (less than 3:1) and nothing else marks it as a link: no underline, border, outline, background, font difference or icon.` };
  }
  return {
    outcome: 'needs_review',
    contrast,
    reason: `It stands on a line of its own inside a block of text; its colour has a contrast of ${contrast}:1 with that text (less than 3:1) and nothing else marks it as a link. Check whether its place alone tells it is a link.`,
  };
}

export interface FieldVerdict {
  id: number;
  label: string;
  /** The colours that tell it apart: property → [its value, the others' value]. */
  differs: Record<string, [string, string]>;
}

/** A colour that reads as an error or a warning: red to orange, saturated. */
export function reddish(rgb: readonly [number, number, number]): boolean {
  const [r, g, b] = rgb;
  return r >= 150 && r >= 1.6 * g && r >= 1.6 * b;
}

/**
 * F81 over the fields of one form: exactly two sets of colours among fields that nothing else
 * (border widths, shadows, background images, label font, a text cue) tells apart; the set told
 * apart is the one in red (an error or required colour), else the smaller one. Fields with a text
 * cue of their own are not reported.
 */
export function fieldVerdicts(fields: readonly FieldFacts[], parse: (c: string) => readonly [number, number, number] | undefined): FieldVerdict[] {
  if (fields.length < 2) return [];
  if (new Set(fields.map((f) => f.shape)).size !== 1) return [];
  const sig = (f: FieldFacts) => JSON.stringify(Object.entries(f.colours).sort());
  const sets = new Map<string, FieldFacts[]>();
  for (const f of fields) sets.set(sig(f), [...(sets.get(sig(f)) ?? []), f]);
  if (sets.size !== 2) return [];
  const [a, b] = [...sets.values()] as [FieldFacts[], FieldFacts[]];
  const props = [...new Set([...Object.keys(a[0]!.colours), ...Object.keys(b[0]!.colours)])].filter((k) => a[0]!.colours[k] !== b[0]!.colours[k]);
  if (props.length === 0) return [];
  const red = (set: FieldFacts[]) => props.some((k) => {
    const c = set[0]!.colours[k];
    const rgb = c === undefined ? undefined : parse(c);
    return !!rgb && reddish(rgb);
  });
  const [marked, rest] = red(a) && !red(b) ? [a, b] : red(b) && !red(a) ? [b, a] : a.length < b.length ? [a, b] : b.length < a.length ? [b, a] : [null, null];
  if (!marked || !rest) return [];
  return marked
    .filter((f) => !f.textCue)
    .map((f) => ({ id: f.id, label: f.label, differs: Object.fromEntries(props.map((k) => [k, [f.colours[k] ?? '', rest[0]!.colours[k] ?? ''] as [string, string]])) }));
}
