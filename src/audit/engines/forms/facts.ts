/** What the forms engine reads from the page in one `page.evaluate`: plain, bounded, JSON-safe data. */

export interface ElementRef {
  selector: string;
  html: string;
}

/** Where a field's accessible name comes from (first source that gives text, as browsers compute it). */
export type NameSource = 'aria-labelledby' | 'aria-label' | 'label' | 'title' | 'placeholder' | 'other' | 'none';

/** Visible text that looks like the field's label but is not tied to it. */
export interface OrphanLabel {
  text: string;
  /**
   * `label-for-missing`: a `<label for>` whose id matches no element; `label-for-other`: whose id
   * is an element that cannot be labelled; `label-wraps-nothing`: a `<label>` without `for` and
   * without a field inside; `text-before`: plain text right before the field.
   */
  kind: 'label-for-missing' | 'label-for-other' | 'label-wraps-nothing' | 'text-before';
}

export interface ControlFacts {
  ref: ElementRef;
  tag: string;
  /** `type` of an input, lower-cased. */
  type: string;
  role: string;
  /** Radio buttons and checkboxes (native or ARIA). */
  choice: boolean;
  name: string;
  nameFrom: NameSource;
  /** Visible text of the field's `<label>` elements (the field's own content left out). */
  labelText: string;
  description: string;
  /** `required`, `aria-required="true"`, or a required radio in the same group. */
  required: boolean;
  /** `aria-invalid` other than false. */
  invalid: boolean;
  /** Visible text of its `aria-errormessage` target. */
  errorMessage: string;
  /** Form (or region) the field belongs to, an index within the page. */
  form: number;
  /** Index of its `<form>` element within the page, -1 outside any form. */
  formElement: number;
  /** `name` attribute of a radio/checkbox, '' otherwise. */
  groupName: string;
  /** Accessible name of the closest fieldset or group, '' when none or unnamed; null when not in one. */
  groupLabel: string | null;
  /** The closest fieldset is rendered but has no name (reported on the fieldset itself). */
  inUnnamedFieldset: boolean;
  /** Text of the nearest visible heading before the field, in document order. */
  heading: string;
  orphanLabel: OrphanLabel | null;
  /**
   * A `<label>` right before this field (which has no label of its own) that is tied to another
   * field, one that has a second label besides it: the label is wired to the wrong field.
   */
  crossedLabel: { text: string; field: ElementRef } | null;
  /** Visible text between the field's label and the field, outside both. */
  hint: string;
  /** Horizontal gap in CSS px between the end of the label's text and the field on the same row, when the field is to its right. */
  labelGap: number | null;
  /** A visible required marker in the label or right next to it or the field. */
  marker: { text: string; where: 'label' | 'adjacent' } | null;
}

/** An element whose name comes from its content (button, link, ...) but that has aria-label/labelledby. */
export interface WidgetFacts {
  ref: ElementRef;
  role: string;
  visibleText: string;
  name: string;
}

export interface FieldsetFacts {
  ref: ElementRef;
  name: string;
  legend: 'none' | 'empty' | 'text';
  controls: number;
}

export interface MessageFacts {
  ref: ElementRef;
  text: string;
  associated: boolean;
  hiddenFromAT: boolean;
  form: number;
}

export interface FormPageFacts {
  controls: ControlFacts[];
  widgets: WidgetFacts[];
  fieldsets: FieldsetFacts[];
  messages: MessageFacts[];
  /** Some text on the page explains the asterisk ("* required"). */
  asteriskExplained: boolean;
  /** Elements examined, and whether the caps cut the page short. */
  examined: number;
  capped: boolean;
}
