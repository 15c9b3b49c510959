import type { LoginStep, SiteAuthSetup } from './site-auth.ts';

/**
 * What a site's login or flow types or picks, and the secrets of its authentication set-up, kept
 * out of everything the service stores or shows about a page: findings (their HTML, texts,
 * selectors), the page's title and the candidates handed to a model. A page after a login may
 * show the user name, and a flow's end state the values it sent.
 */

/** Values shorter than this are too common to find in text (a "1" typed into a quantity). */
export const MIN_SCRUBBED_LENGTH = 3;
export const SCRUBBED = '[typed value]';

/** The values `steps` type or pick. */
export function stepValues(steps: readonly LoginStep[]): string[] {
  return steps.flatMap((s) => (s.action === 'fill' || s.action === 'select' ? [s.value] : []));
}

/** Every value of a set-up that must never be stored: what its login types and picks, its password, cookie and header values. */
export function setupSecrets(setup: SiteAuthSetup): string[] {
  return [
    ...stepValues(setup.login?.steps ?? []),
    ...(setup.basic ? [setup.basic.password] : []),
    ...(setup.cookies ?? []).map((c) => c.value),
    ...Object.values(setup.headers ?? {}),
  ];
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The forms a value takes in a page's text and markup: as typed, HTML-escaped, URL-encoded. */
function forms(value: string): string[] {
  const out = new Set([value, escapeHtml(value), encodeURIComponent(value), encodeURIComponent(value).replace(/%20/g, '+')]);
  return [...out].filter((v) => v.length >= MIN_SCRUBBED_LENGTH);
}

/** A scrubber for `values`, longest first (a value that contains another is replaced whole). Null when there is nothing to scrub. */
export function scrubberFor(values: readonly string[]): ((text: string) => string) | null {
  const all = [...new Set(values.filter((v) => v.length >= MIN_SCRUBBED_LENGTH).flatMap(forms))].sort((a, b) => b.length - a.length);
  if (all.length === 0) return null;
  const pattern = new RegExp(all.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return (text) => text.replace(pattern, SCRUBBED);
}

/** Whether `text` holds any of `values` (in any of its forms). */
export function mentionsAny(text: string, values: readonly string[]): boolean {
  const scrub = scrubberFor(values);
  return scrub !== null && scrub(text) !== text;
}

/**
 * Every string inside `value` (an object of plain data: a finding, candidates) with `values`
 * scrubbed, keys untouched.
 */
export function scrubDeep<T>(value: T, scrub: (text: string) => string): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, scrub)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, scrub)])) as T;
  }
  return value;
}

/**
 * A flow's end state: the `value` attributes of its form fields and the text of its text areas
 * emptied in an element's HTML (what the flow typed may be mirrored there by the page).
 */
export function withoutFieldValues(html: string): string {
  return html
    .replace(/(<(?:input|option|button|select|textarea)\b[^>]*?)\s+value\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi, '$1')
    .replace(/(<textarea\b[^>]*>)[\s\S]*?(<\/textarea>)/gi, '$1$2');
}
