/**
 * The columns of a finding (the table aliased `f`) that the issue lists and reports read as they
 * are, under their camelCase names.
 */

/** The element a finding is on and what the reader is told about it: `selector`, `html`, `description`, `fixSuggestion`. */
export const FINDING_ELEMENT_COLUMNS = [
  'f.element_selector as selector',
  'f.element_html as html',
  'f.description as description',
  'f.fix_suggestion as fixSuggestion',
] as const;
