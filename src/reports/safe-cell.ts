/**
 * The workbook's cell rule: every value that came from a page or a user goes through `safeCell`
 * before it reaches a cell, and every link through `safeHyperlink`. Pure functions, no exceljs.
 *
 * The rule (OWASP "CSV injection", ASVS 5.0 1.2.10):
 * - numbers stay numbers (NaN and ±Infinity become empty), valid Dates stay Dates, booleans stay,
 *   null and undefined become an empty cell; anything else is turned into text.
 * - text loses the characters XML 1.0 forbids (C0 controls other than tab, LF and CR, lone
 *   surrogates, U+FFFE, U+FFFF) and DEL, which exceljs drops on write: stripping them here means
 *   what we check below is what lands in the file.
 * - text that starts with `=`, `+`, `-`, `@`, tab, CR, LF or NUL (or their full-width forms
 *   `＝＋－＠`, or an OOXML `_xHHHH_` escape, which Excel decodes into any character) gets a leading
 *   apostrophe, so Excel, LibreOffice and any CSV export show it as text and never as a formula.
 * - text is cut to Excel's 32,767 characters per cell, ending with an ellipsis.
 * - only absolute http(s) URLs become hyperlinks (no `javascript:`, `file:`, `mailto:`, UNC paths),
 *   and only up to the 2,079 characters Excel accepts for a link address.
 */

export type SafeCellValue = string | number | boolean | Date | null;

/** Excel's limit of characters (UTF-16 code units) per cell. */
export const EXCEL_MAX_CELL_CHARS = 32_767;
/** The longest hyperlink address current Excel versions accept. */
export const EXCEL_MAX_URL_CHARS = 2_079;

const ELLIPSIS = '\u2026';

/** C0 controls except tab/LF/CR, DEL, U+FFFE/U+FFFF and (with the `u` flag) lone surrogates only. */
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF\uD800-\uDFFF]/gu;
const XML_FORBIDDEN_TEST = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF\uD800-\uDFFF]/u;

/** First characters that make a spreadsheet (or a CSV export of it) start a formula. */
const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r', '\n', '\u0000', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);
const OOXML_ESCAPE_AT_START = /^_x[0-9A-Fa-f]{4}_/;

/** Remove the characters XML 1.0 cannot carry (and DEL). No other change. */
export function stripXmlInvalid(text: string): string {
  return XML_FORBIDDEN_TEST.test(text) ? text.replace(XML_FORBIDDEN, '') : text;
}

/** Whether Excel or a CSV consumer could read this text as the start of a formula. */
export function startsLikeFormula(text: string): boolean {
  return text.length > 0 && (FORMULA_TRIGGERS.has(text[0]!) || OOXML_ESCAPE_AT_START.test(text));
}

/** Cut `text` to at most `max` UTF-16 units, the last one an ellipsis, never splitting a surrogate pair. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - 1);
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return text.slice(0, cut) + ELLIPSIS;
}

/** The text rule alone: strip, neutralise a formula start, truncate. Always returns a string. */
export function safeText(text: string, maxLength: number = EXCEL_MAX_CELL_CHARS): string {
  let s = stripXmlInvalid(text);
  if (startsLikeFormula(s)) s = `'${s}`;
  return truncate(s, Math.min(Math.max(1, Math.floor(maxLength)), EXCEL_MAX_CELL_CHARS));
}

export interface SafeCellOptions {
  /** Cut text to this many characters (at most, and by default, Excel's 32,767). */
  maxLength?: number;
}

/** A value fit for a workbook cell; see the rule at the top of this file. */
export function safeCell(value: unknown, opts: SafeCellOptions = {}): SafeCellValue {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    case 'string':
      return textOrNull(value, opts);
    case 'bigint':
      return Number.isSafeInteger(Number(value)) ? Number(value) : textOrNull(value.toString(), opts);
    case 'undefined':
      return null;
    case 'symbol':
    case 'function':
      return null;
    default:
      break;
  }
  if (value === null) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (Array.isArray(value)) {
    const parts = value.map((v) => (v instanceof Date ? v.toISOString() : v == null ? '' : String(v))).filter((s) => s !== '');
    return textOrNull(parts.join(', '), opts);
  }
  return textOrNull(String(value), opts);
}

function textOrNull(text: string, opts: SafeCellOptions): string | null {
  const s = safeText(text, opts.maxLength);
  return s === '' ? null : s;
}

/**
 * The address to link to, or null when `url` must stay plain text: only absolute http(s) URLs
 * that `new URL` accepts, returned in their normalised form (spaces, quotes and angle brackets
 * percent-encoded), and no longer than Excel accepts.
 */
export function safeHyperlink(url: unknown): string | null {
  if (typeof url !== 'string' || url === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(stripXmlInvalid(url).trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (!parsed.hostname) return null;
  const href = parsed.href;
  return href.length <= EXCEL_MAX_URL_CHARS ? href : null;
}
