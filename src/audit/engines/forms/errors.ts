import { containsWords, labelWords } from './text.ts';

/**
 * Error messages of forms (WCAG 3.3.1 Error Identification), judged from their text: pure
 * functions over what the forms engine read from the page.
 *
 * What marks text as an error message is its wording (English), not the page's class names or ids:
 * those are author-specific and a check keyed on them would only learn one site's conventions.
 * Instructions ("Fields marked * are required", "Please enter your email") are deliberately not
 * matched: they are worded like errors but are not about a value already entered.
 */
export const ERROR_TEXT_SOURCE =
  String.raw`\b(errors?|invalid|incorrect|not (?:a )?valid|isn't (?:a )?valid|enter a valid|correctly|cannot be (?:empty|blank|left blank)|can't be (?:empty|blank|left blank)|must not be (?:empty|blank))\b`;
export const ERROR_TEXT = new RegExp(ERROR_TEXT_SOURCE, 'i');

/** Whether a short visible text reads like an error message. */
export function looksLikeError(text: string): boolean {
  return text.length <= 300 && ERROR_TEXT.test(text);
}

/**
 * Words that say something is wrong without saying what or how to fix it. A message made only of
 * these and of the field's own name ("Invalid value for age", "is not valid", "Please fill the
 * field correctly", "You need to fix the errors on this page") does not describe the error.
 */
const GENERIC_ERROR_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'is', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'had',
  'not', 'no', 'invalid', 'valid', 'incorrect', 'correct', 'correctly', 'wrong', 'bad', 'error', 'errors', 'problem',
  'problems', 'issue', 'issues', 'value', 'values', 'field', 'fields', 'input', 'entry', 'entries', 'entered', 'data',
  'please', 'check', 'fix', 'try', 'again', 'enter', 'fill', 'filled', 'in', 'out', 'there', 'with', 'your', 'you',
  'for', 'of', 'on', 'to', 'and', 'or', 'it', 'its', 'occurred', 'following', 'below', 'above', 'form', 'page', 'need',
  'needs', 'before', 'continuing', 'continue', 'submit', 'submitting', 'some', 'all', 'one', 'more', 'field\'s', 'found',
  'contains', 'contain', 'oops', 'sorry', 'an', 'we', 'could', 'not', 'process', 'request',
]);

/** Whether the message says what is wrong or how to fix it, beyond "invalid" and the field's name. */
export function describesError(message: string, fieldNames: readonly string[]): boolean {
  const own = new Set(fieldNames.flatMap((n) => labelWords(n)));
  return labelWords(message).some((w) => !GENERIC_ERROR_WORDS.has(w) && !own.has(w));
}

/**
 * The field names (as given) that the message names: the name's words, in order, with a
 * bracketed hint and a required/optional marker left out ("Age (years)" is named by "age").
 */
export function fieldsNamed(message: string, fieldNames: readonly string[]): string[] {
  const m = labelWords(message);
  return fieldNames.filter((n) => {
    const core = labelWords(n.replace(/\([^()]*\)|\[[^[\]]*\]/g, ' ')).filter((w) => w !== 'required' && w !== 'optional' && w !== 'mandatory');
    return core.length > 0 && core.join('').length >= 2 && containsWords(m, core);
  });
}

export interface ErrorMessageFacts {
  text: string;
  /** Referenced by a field's aria-describedby / aria-errormessage / aria-labelledby, or inside its label. */
  associated: boolean;
  /** The message (or an ancestor) has aria-hidden="true": screen readers never get it. */
  hiddenFromAT: boolean;
  /** Names of the visible fields of its form (or page region), in document order. */
  fieldNames: readonly string[];
}

export type ErrorMessageProblem = 'hidden-from-at' | 'names-no-field' | 'ambiguous-field' | 'not-descriptive';

/**
 * What keeps a visible error message from identifying its field and describing the error (ACT
 * rule 36b590), in the order the finding states them; empty when nothing does. A message that is
 * not tied to its field but names it and says what is wrong meets 3.3.1 (an error summary).
 */
export function errorMessageProblems(f: ErrorMessageFacts): ErrorMessageProblem[] {
  const out: ErrorMessageProblem[] = [];
  if (f.hiddenFromAT) out.push('hidden-from-at');
  if (!f.associated) {
    const named = fieldsNamed(f.text, f.fieldNames);
    if (named.length === 0) out.push('names-no-field');
    else {
      // "Please fill Name" where two fields are called "Name" does not say which one.
      const norm = (s: string) => labelWords(s).join(' ');
      const counts = new Map<string, number>();
      for (const n of f.fieldNames) counts.set(norm(n), (counts.get(norm(n)) ?? 0) + 1);
      if (named.every((n) => (counts.get(norm(n)) ?? 0) > 1)) out.push('ambiguous-field');
    }
  }
  if (!describesError(f.text, f.fieldNames)) out.push('not-descriptive');
  return out;
}
