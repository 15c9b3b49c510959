/**
 * Plain-text building blocks of the offline enricher: length caps, quoting, sentence templates
 * and the WCAG criterion label. No rule-specific wording lives here (see wording.ts).
 */
import { successCriterion } from '../../shared/wcag.ts';
import { CRITERION, type Noun } from './wording.ts';

/** Upper bounds of the texts, in characters. */
export const MAX_DESCRIPTION = 800;
export const MAX_FIX = 1500;

/** One paragraph of a text; optional ones are left out when they would not fit. */
export interface Part {
  text: string;
  optional?: boolean;
}

/** The slot names of a template: `'{a} and {b}'` → `'a' | 'b'`. */
type Slots<T extends string> = T extends `${string}{${infer K}}${infer Rest}` ? K | Slots<Rest> : never;

/** A template from wording.ts with its `{slot}`s filled in (each slot may appear more than once). */
export function fill<T extends string>(template: T, values: { readonly [K in Slots<T>]: string | number }): string {
  const v = values as Readonly<Record<string, string | number>>;
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (Object.hasOwn(v, key) ? String(v[key]) : whole));
}

/** The noun for a count: `noun(1, ELEMENT)` → "element", `noun(2, ELEMENT)` → "elements". */
export const noun = (count: number, n: Noun): string => (count === 1 ? n.one : n.many);
/** The count with its noun: "1 element", "3 elements". */
export const count = (c: number, n: Noun): string => `${c} ${noun(c, n)}`;

export function criterionLabel(id: string): string {
  const sc = successCriterion(id);
  return sc ? fill(CRITERION.known, { id: sc.id, title: sc.title, level: sc.level }) : fill(CRITERION.unknown, { id });
}

export function sentence(s: string): string {
  const t = s.trim();
  return t === '' || /[.!?]$/.test(t) ? t : `${t}.`;
}

/** Cuts at a word boundary and marks the cut. */
export function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.search(/\s\S*$/);
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A short piece of page text, quoted. */
export function quote(s: string, max = 80): string {
  return `"${cap(s.replace(/\s+/g, ' ').trim(), max)}"`;
}

/** Required parts in order, then optional ones while they fit within `max`. */
export function within(max: number, parts: readonly Part[]): string {
  let out = '';
  for (const p of parts) {
    if (!p.text) continue;
    const next = out ? `${out}\n\n${p.text}` : p.text;
    if (p.optional && next.length > max) continue;
    out = next;
  }
  return cap(out, max);
}

export const attrEscape = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
export const textEscape = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
