import { looksLikeError } from './errors.ts';
import { labelWords } from './text.ts';
import type { IssueType, Severity } from '../../../shared/contracts.ts';
import { FORM_RULES } from '../../../shared/rules/forms.ts';

/**
 * A form sent empty (WCAG 3.3.1 Error Identification, 3.3.3 Error Suggestion, and 1.4.1 where the
 * error is shown by colour alone, failure F81): what the page showed after its submit button was
 * pressed with the fields empty, and what that means. Pure functions over what
 * `empty-submit-collect.ts` read; the engine blocks every request while the form is sent.
 */

export interface Ref {
  selector: string;
  html: string;
}

/** A text that appeared (or changed) on the page after the submission. */
export interface EmptySubmitText {
  ref: Ref;
  text: string;
  /** The field (index in the form) that references it (aria-describedby/errormessage/labelledby) or whose label holds it. */
  field: number | null;
  /** The field it sits next to, when no field references it. */
  near?: number | null;
  /** Inside a live region or alert: announced as it appears. */
  live: boolean;
  /** Focus was moved into it (an error summary that takes focus). */
  focused: boolean;
  hiddenFromAT: boolean;
}

export interface EmptySubmitField {
  index: number;
  ref: Ref;
  name: string;
  type: string;
  autocomplete: string;
  required: boolean;
  /** The browser's own validation message was shown for it (an `invalid` event the page did not cancel). */
  nativeBubble: boolean;
  /** How the page marked it after the submission: `style` (border, outline, background, colour), `class`, `label-style`, `aria-invalid`, `icon`. */
  marks: string[];
  focused: boolean;
}

export interface EmptySubmitForm {
  ref: Ref;
  /** Submit events the page let through to our listener (0 where the browser's validation stopped it). */
  submitted: number;
  fields: EmptySubmitField[];
  texts: EmptySubmitText[];
}

export interface EmptySubmitDraft {
  rule: string;
  type: IssueType;
  severity: Severity;
  criterion: string;
  ref: Ref;
  summary: string;
  data: Record<string, unknown>;
}

/** The formats 3.3.3 expects a suggestion for, from the field's type, autocomplete token or name. */
export function knownFormat(f: Pick<EmptySubmitField, 'type' | 'autocomplete' | 'name'>): string | null {
  const t = f.type.toLowerCase();
  const ac = f.autocomplete;
  const name = f.name.toLowerCase();
  if (t === 'email' || /\bemail\b/.test(ac) || /\be-?mail\b/.test(name)) return 'email';
  if (t === 'tel' || /\btel\b/.test(ac) || /\b(phone|telephone|mobile)\b/.test(name)) return 'phone';
  if (/^(date|month|week|datetime-local)$/.test(t) || /\bbday\b|cc-exp/.test(ac) || /\b(date|birthday|dob)\b/.test(name)) return 'date';
  if (/postal-code/.test(ac) || /\b(postcode|post code|postal code|zip|zip code)\b/.test(name)) return 'postcode';
  return null;
}

/**
 * Words that say what to do about a missing or malformed value. An error text with none of them
 * (just "Invalid", "Error", "Email invalid", "Wrong value") gives no suggestion.
 */
const SUGGESTING =
  /\b(required|requires|enter|provide|missing|empty|blank|fill|choose|select|type|give|add|must|should|need|needs|format|example|e\.?g|like|such as|characters?|digits?|numbers?|letters?|include|contain|between|at least|at most|only)\b|@|\d|\b(dd|mm|yy|yyyy)\b/i;

export function suggests(message: string): boolean {
  return SUGGESTING.test(message);
}

/** Whether `text` reads like an error about a missing value as well as a wrong one. */
function errorLike(text: string): boolean {
  return looksLikeError(text) || (text.length <= 200 && /\b(required|is missing|must be (?:filled|completed|entered|provided)|please (?:enter|fill|provide|complete|select|choose)|enter (?:your|a|an)|cannot be empty)\b/i.test(text));
}

const MARK_WORDS: Record<string, string> = {
  style: 'its border or colour changed',
  class: 'its class changed',
  'label-style': "its label's colour changed",
  'aria-invalid': 'it was set aria-invalid',
  icon: 'an icon appeared beside it',
};

const q = (s: string) => `"${s}"`;

/**
 * What a form sent empty shows wrong. Fields the browser's own validation caught are identified in
 * text (its message bubble). A field marked (colour, border, icon, aria-invalid) with no text
 * anywhere tied to it or beside it: F81, `confirmed` only where no new text appeared on the page
 * at all and no dialog was shown. An error text tied to no field, not announced and not focused:
 * needs review. A field with a known format whose error text suggests nothing: 3.3.3, needs review.
 */
export function emptySubmitFindings(form: EmptySubmitForm, dialogs: readonly string[]): EmptySubmitDraft[] {
  const out: EmptySubmitDraft[] = [];
  const errorTexts = form.texts.filter((t) => errorLike(t.text) && !t.hiddenFromAT);
  const anyText = form.texts.length > 0 || dialogs.length > 0;
  const messagesOf = (i: number) => errorTexts.filter((t) => t.field === i || (t.field === null && t.near === i));
  const fieldWords = (f: EmptySubmitField) => labelWords(f.name.replace(/\*|\(required\)/gi, ' ')).filter((w) => w !== 'required');
  const named = (t: EmptySubmitText, f: EmptySubmitField) => {
    const words = fieldWords(f);
    const m = new Set(labelWords(t.text));
    return words.length > 0 && words.every((w) => m.has(w));
  };
  const dialogNames = (f: EmptySubmitField) => dialogs.some((d) => errorLike(d) && named({ text: d } as EmptySubmitText, f));

  for (const f of form.fields) {
    if (f.nativeBubble) continue;
    const own = messagesOf(f.index);
    const namedElsewhere = errorTexts.some((t) => named(t, f)) || dialogNames(f);
    const visualMarks = f.marks.filter((m) => m !== 'class');
    if (visualMarks.length > 0 && own.length === 0 && !namedElsewhere) {
      const confirmed = !anyText;
      out.push({
        rule: FORM_RULES.errorColourOnly,
        type: confirmed ? 'confirmed' : 'needs_review',
        severity: 'serious',
        criterion: '3.3.1',
        ref: f.ref,
        summary: `After the form was sent empty, the field ${q(f.name || '(no name)')} was marked as wrong (${visualMarks.map((m) => MARK_WORDS[m] ?? m).join(', ')}) ${confirmed ? 'and no text appeared anywhere on the page' : 'but no error text is tied to it, beside it or names it'}: the error is shown by colour or an icon only.`,
        data: { marks: visualMarks, state: 'empty-submit', ...(confirmed ? {} : { review: { reason: 'Other text appeared after the submission; check that none of it tells which field is wrong.' } }) },
      });
    }
    const format = knownFormat(f);
    const message = own[0];
    if (format && message && !suggests(message.text)) {
      out.push({
        rule: FORM_RULES.errorNoSuggestion,
        type: 'needs_review',
        severity: 'moderate',
        criterion: '3.3.3',
        ref: message.ref,
        summary: `The error shown for the ${format} field ${q(f.name || '(no name)')} when the form was sent empty, ${q(message.text)}, says something is wrong but not what to enter.`,
        data: { message: message.text, format, field: f.ref.selector, state: 'empty-submit', review: { reason: `Check whether the message tells people what a valid ${format} looks like or that it is required.` } },
      });
    }
  }

  // Error texts no field references, not announced, that focus did not go to.
  const focusMoved = form.fields.some((f) => f.focused);
  for (const t of errorTexts) {
    if (t.field !== null || t.live || t.focused) continue;
    const about = t.near !== null && t.near !== undefined ? form.fields.find((f) => f.index === t.near) : undefined;
    out.push({
      rule: FORM_RULES.errorNotAnnounced,
      type: 'needs_review',
      severity: 'moderate',
      criterion: '3.3.1',
      ref: t.ref,
      summary: `The error text ${q(t.text)} appeared when the form was sent empty, but no field references it (aria-describedby or aria-errormessage), it is not in a live region or alert${focusMoved ? '' : ', and focus did not move to it or to a field'}: screen reader users may not learn of it.`,
      data: { message: t.text, state: 'empty-submit', ...(about ? { field: about.ref.selector } : {}), review: { reason: 'Check whether a screen reader announces the error or reads it with its field.' } },
    });
    if (out.filter((d) => d.rule === FORM_RULES.errorNotAnnounced).length >= 5) break;
  }
  return out;
}
