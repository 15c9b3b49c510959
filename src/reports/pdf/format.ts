/**
 * Text helpers for the PDF: every string that came from a page or a user goes through `clean`
 * (plain text, no control or bidi-override characters, well-formed UTF-16) and is truncated to a
 * readable length before it is printed. Nothing is ever interpreted.
 */
import type { Severity } from '../../shared/contracts.ts';

// C0/C1 controls (tab and newline handled separately), DEL, bidi embeddings/overrides/isolates,
// the BOM and other invisible format characters that would garble or spoof the printed text.
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\ufff9-\ufffb]/g;

/** Plain text for printing: control characters removed, whitespace collapsed unless `multiline`. */
export function clean(value: unknown, multiline = false): string {
  let s = value == null ? '' : String(value);
  s = s.toWellFormed().replace(/\r\n?/g, '\n').replace(/\t/g, ' ').replace(UNSAFE, '');
  if (multiline) {
    s = s
      .split('\n')
      .map((line) => line.replace(/[ \u00a0]{2,}/g, ' ').trim())
      .join('\n')
      .replace(/\n{3,}/g, '\n\n');
  } else {
    s = s.replace(/\s+/g, ' ');
  }
  return s.trim();
}

/** At most `max` characters (code points), with an ellipsis when cut. */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  const cps = Array.from(s);
  if (cps.length <= max) return s;
  return `${cps.slice(0, Math.max(1, max - 1)).join('').trimEnd()}\u2026`;
}

/** `clean` then `truncate`. */
export function text(value: unknown, max: number, multiline = false): string {
  return truncate(clean(value, multiline), max);
}

export const LIMITS = {
  url: 120,
  title: 160,
  selector: 200,
  html: 300,
  paragraph: 1500,
  summary: 2000,
  cell: 160,
} as const;

/** Only http(s) URLs become link annotations; anything else is printed as text only. */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && value.length <= 2000;
  } catch {
    return false;
  }
}

/** The path (and query) of a URL for short chart labels, or the text itself when it is no URL. */
export function urlPath(value: string, max = 40): string {
  try {
    const u = new URL(value);
    return truncate(clean(`${u.pathname}${u.search}`) || '/', max);
  } catch {
    return text(value, max);
  }
}

const NUMBER = new Intl.NumberFormat('en-GB');
export const num = (n: number | null | undefined): string => (n == null || !Number.isFinite(n) ? '\u2013' : NUMBER.format(n));

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${num(n)} ${n === 1 ? one : many}`;
}

export function percent(part: number, whole: number): string {
  if (!whole) return '0%';
  const p = (part / whole) * 100;
  return `${p > 0 && p < 1 ? '<1' : Math.round(p)}%`;
}

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const SHORT_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' });

const valid = (d: Date | null | undefined): d is Date => d instanceof Date && !Number.isNaN(d.getTime());

export const fmtDate = (d: Date | null | undefined): string => (valid(d) ? DATE.format(d) : 'unknown');
export const fmtShortDate = (d: Date | null | undefined): string => (valid(d) ? SHORT_DATE.format(d) : '\u2013');
export const fmtDateTime = (d: Date | null | undefined): string => (valid(d) ? `${DATE.format(d)}, ${TIME.format(d)} UTC` : 'unknown');

export function fmtDuration(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms) || ms < 0) return 'unknown';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export const SEVERITY_LABEL: Record<Severity, string> = {
  critical: 'Critical',
  serious: 'Serious',
  moderate: 'Moderate',
  minor: 'Minor',
};

export const TYPE_LABEL = { confirmed: 'Confirmed', needs_review: 'Needs review' } as const;

export const capitalize = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
