/**
 * Every criterion an axe-core finding fails, beyond the one it is reported under.
 *
 * A finding of an axe rule fails every WCAG 2.2 A/AA criterion among the rule's own tags, in the
 * rule's order (`criteriaForTags`), then the criteria of `AXE_ALSO_FAILS`. An entry names a
 * criterion only where a W3C failure technique (F-number), an Understanding document or an ACT
 * rule ties the failure the axe rule detects to it, with the source beside it; a rule absent here
 * fails its tags' criteria only (`image-alt`: 1.1.1, F65, and nothing more; `frame-title`:
 * 4.1.2, ACT cae760: H64 is a sufficient technique of 2.4.1, but no failure of 2.4.1 is
 * documented for an untitled frame, so 2.4.1 is not added).
 * test/unit/shared/rule-catalogue.test.ts checks that every secondary criterion tag of the
 * installed axe-core is listed here too, so the catalogue's `alsoFails` says all of them.
 */
export const AXE_ALSO_FAILS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  // axe's own tags: 2.4.4 and 4.1.2 (F89: an image-only link without a name fails 2.4.4 and
  // 4.1.2); F65 names <area> elements without a text alternative as a failure of 1.1.1.
  'area-alt': ['4.1.2', '1.1.1'],
  // axe's own tags: 1.3.1 and 4.1.2.
  'aria-hidden-body': ['4.1.2'],
  // axe's own tags: 1.1.1 and 4.1.2 (F65 for 1.1.1; an image button is a control: F68).
  'input-image-alt': ['4.1.2'],
  // axe's own tags: 2.4.4 and 4.1.2 (F89).
  'link-name': ['4.1.2'],
  // A field with no accessible name at all (no label, aria-label, aria-labelledby, title or
  // placeholder: what these rules fail on) fails 4.1.2 (F68, ACT e086e5), and it has no label an
  // assistive technology or, nearly always, a person can read: 3.3.2 (Understanding 3.3.2:
  // "Provide labels or instructions for inputs"; H44, the label element, is a sufficient
  // technique of 1.3.1, 3.3.2 and 4.1.2). 1.3.1 is not added: it fails only where text beside the
  // field looks like its label without being tied to it (F111), which the element alone does not
  // say, and on ACT bc4a75's passed case 8 (a lone unnamed <select>) it would be a false 1.3.1.
  label: ['3.3.2'],
  'select-name': ['3.3.2'],
  'aria-input-field-name': ['3.3.2'],
});

/**
 * axe-core rules tagged `best-practice` (no WCAG tag) whose failure the W3C documents as a WCAG
 * 2.2 A/AA failure: reported under these criteria, the primary first. The other best-practice
 * rules (landmarks, `region`, `page-has-heading-one`, `image-redundant-alt`, `label-title-only`,
 * `skip-link`, `accesskeys`, …) have no such failure and stay out. Whether a finding is
 * `confirmed` or `needs_review` is the axe engine's decision (`AXE_BEST_PRACTICE` there).
 */
export const AXE_BEST_PRACTICE_CRITERIA: Readonly<Record<string, readonly string[]>> = Object.freeze({
  // F44: a tab order made with tabindex that does not preserve meaning and operability fails
  // 2.4.3 (a positive tabindex does not always do so: judgement).
  tabindex: ['2.4.3'],
  // ACT ffd0e9 (heading has non-empty accessible name): a heading with no text is heading
  // markup that represents no heading (1.3.1, F43) and describes no topic (2.4.6, Understanding
  // 2.4.6: "headings ... describe topic or purpose").
  'empty-heading': ['1.3.1', '2.4.6'],
  // H42's test: "heading markup indicates the appropriate heading level for the content"; a
  // skipped level may misstate the structure (1.3.1, F43): judgement.
  'heading-order': ['1.3.1'],
  // F91: not correctly marking up table headers fails 1.3.1; a header cell with no text names
  // nothing for the cells it heads.
  'empty-table-header': ['1.3.1'],
  // H63: scope associates header and data cells (1.3.1); an invalid value associates nothing
  // (F91 where the table needs it; a simple table does not: judgement).
  'scope-attr-valid': ['1.3.1'],
  // 4.1.2 (F68; ACT e086e5's reasoning for widgets): a tree item is a control with no name.
  'aria-treeitem-name': ['4.1.2'],
  // 4.1.2: a dialog's name is its role's required name (ARIA 1.2), read out when it opens.
  'aria-dialog-name': ['4.1.2'],
  // role="text" makes its children presentational: a focusable element inside it loses its
  // role (4.1.2, ACT 307n5z "element with presentational children has no focusable content").
  'aria-text': ['4.1.2'],
});

/**
 * Further criteria a finding of these axe rules fails when the control's only content is an image
 *: an image link or image button whose image has an empty or missing alternative has
 * no name, and a control's image must have a text alternative that says its purpose (1.1.1,
 * Understanding 1.1.1: "If non-text content is a control or accepts user input, then it has a name
 * that describes its purpose"; H30 and H36 are its sufficient techniques for image links and image
 * buttons). A link or button without an image (empty text) fails 2.4.4 / 4.1.2 only.
 */
export const AXE_ALSO_FAILS_IMAGE_CONTROL: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'link-name': ['1.1.1'],
  'button-name': ['1.1.1'],
});

/** Whether an element's HTML (as axe reports it) holds an image: `<img>`, `<svg>`, `<input type=image>` or `role="img"`. */
export function holdsImage(html: string): boolean {
  return /<(img|svg|picture)\b|<input\b[^>]*\btype\s*=\s*["']?image\b|\brole\s*=\s*["']?img\b/i.test(html);
}
