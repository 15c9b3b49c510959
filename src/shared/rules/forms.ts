import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

export const FORM_RULES = {
  labelNotAssociated: 'form-label-not-associated',
  labelInName: 'label-in-name',
  requiredVisualOnly: 'form-required-visual-only',
  errorMessage: 'form-error-message',
  invalidNoMessage: 'form-invalid-no-message',
  groupUnnamed: 'form-group-unnamed',
  fieldsetUnnamed: 'form-fieldset-unnamed',
  labelNotUnique: 'form-label-not-unique',
  labelNotDescriptive: 'form-label-not-descriptive',
  placeholderOnly: 'form-placeholder-only',
  hintNotAssociated: 'form-hint-not-associated',
  labelWrongField: 'form-label-wrong-field',
  labelFar: 'form-label-far-from-field',
  errorColourOnly: 'form-error-colour-only',
  errorNotAnnounced: 'form-error-not-announced',
  errorNoSuggestion: 'form-error-no-suggestion',
} as const;

export const FORM_GUIDES: Readonly<Record<string, FixGuide>> = {
  [FORM_RULES.labelNotAssociated]: {
    who: 'Screen reader users hear the field without its visible label (or with another name), voice control users cannot say the label they see to reach it, and clicking the label does not focus the field.',
    fix: 'Tie the visible label to the field: <label for="field-id"> with a matching id on the field, or wrap the field inside its <label>.',
  },
  [FORM_RULES.labelInName]: {
    who: 'Voice control users say the text they see ("click Search"); when the accessible name does not contain that text, the command does nothing. Screen reader users hear something other than what is on screen.',
    fix: 'Make the accessible name start with (or at least contain) the visible label text, word for word; or remove aria-label/aria-labelledby so the visible text becomes the name.',
  },
  [FORM_RULES.requiredVisualOnly]: {
    who: 'Screen reader users are not told the field is required: an asterisk is read as "star" or skipped, and colour is not announced.',
    fix: 'Add the required attribute (or aria-required="true") to the field, and keep the visible marker; explain the asterisk at the top of the form.',
  },
  [FORM_RULES.errorMessage]: {
    who: 'People who cannot see the page layout or colours do not learn which field is wrong or what to enter instead; screen readers do not read an error that is not tied to its field when the field is focused.',
    fix: 'Write a message that names the field and says how to fix it ("Enter your age as a number, e.g. 32"), and tie it to its field with aria-describedby (or aria-errormessage with aria-invalid="true").',
  },
  [FORM_RULES.invalidNoMessage]: {
    who: 'Screen reader users hear "invalid entry" but no explanation of what is wrong or how to correct it.',
    fix: 'Show a text message next to the field saying what is wrong and how to fix it, and reference it from the field with aria-describedby or aria-errormessage.',
  },
  [FORM_RULES.groupUnnamed]: {
    who: 'Screen reader users hear each option ("Yes", "No") without the question it answers.',
    fix: 'Wrap the radio buttons or checkboxes in a <fieldset> whose <legend> asks the question, or use role="radiogroup"/"group" with aria-labelledby pointing at the question.',
  },
  [FORM_RULES.fieldsetUnnamed]: {
    who: 'Screen reader users entering the group hear no group name, so the fields inside lose their context.',
    fix: 'Give the <fieldset> a first-child <legend> with visible text describing the group, or use a plain <div> if it is not a group of related fields.',
  },
  [FORM_RULES.labelNotUnique]: {
    who: 'Screen reader and voice control users navigating by field names meet several fields with the same name and cannot tell which is which.',
    fix: 'Make each label say what is specific to its field ("Billing address", "Delivery address"), or group each set in a <fieldset> with a <legend>.',
  },
  [FORM_RULES.labelNotDescriptive]: {
    who: 'A label such as "Field" or "*" does not tell anyone, and especially screen reader users who hear it out of context, what to enter.',
    fix: 'Write a label that names the information asked for, e.g. "Email address".',
  },
  [FORM_RULES.placeholderOnly]: {
    who: 'Placeholder text disappears as soon as people type, so those with memory or attention difficulties lose the label; it is often too faint to read, and some assistive technologies do not announce it.',
    fix: 'Add a visible <label> for the field and keep the placeholder for an example value only.',
  },
  [FORM_RULES.labelFar]: {
    who: 'People using screen magnification see only a small part of the page: a label far from its field is out of view when the field is in view, and anyone can pair the label with the wrong field.',
    fix: 'Put the label directly above the field, or right next to it (left-aligned labels close to their fields, not pushed to the far side of the row).',
  },
  [FORM_RULES.hintNotAssociated]: {
    who: 'Screen reader users tabbing into the field hear its label but not the hint beside it (format, example), so they may enter a value that is refused.',
    fix: 'Give the hint an id and reference it from the field with aria-describedby="hint-id".',
  },
  [FORM_RULES.labelWrongField]: {
    who: 'Screen reader and voice control users get the label on the wrong field: the field it sits beside is announced without it (often with no name at all), and the field it is tied to is announced with two labels joined.',
    fix: 'Point each label\'s for attribute at the id of the field it sits beside; every field then has exactly one label.',
  },
  [FORM_RULES.errorColourOnly]: {
    who: 'People who cannot tell colours apart, and screen reader users, do not learn which field is wrong when a form only turns a border red or shows an icon.',
    fix: 'Show a text message beside each wrong field saying what is wrong ("Enter your email address"), tie it to the field with aria-describedby, and set aria-invalid="true"; keep the colour as an extra cue.',
  },
  [FORM_RULES.errorNotAnnounced]: {
    who: 'Screen reader users are not told that the form was refused, or which field the message is about, when the error text is neither tied to its field nor announced.',
    fix: 'Reference the message from its field with aria-describedby (or aria-errormessage with aria-invalid="true"), and announce the errors: put a summary in a role="alert" region or move focus to it.',
  },
  [FORM_RULES.errorNoSuggestion]: {
    who: 'People with cognitive disabilities, and anyone unsure of the expected format, cannot correct a field when the message only says "Invalid" or "Error".',
    fix: 'Say what is needed and give an example of the format, e.g. "Enter an email address in the correct format, like name@example.com" or "Enter a date as DD/MM/YYYY".',
  },
};

/** The forms engine's rules: each has one criterion and one severity. */
export const FORM_CATALOGUE = ruleEntries('forms', [
  // F96: the visible label's text is not in the accessible name (the rule fires only then): 2.5.3.
  { id: FORM_RULES.labelNotAssociated, criteria: ['1.3.1'], severities: ['serious'], alsoFails: ['2.5.3'] },
  { id: FORM_RULES.labelInName, criteria: ['2.5.3'], severities: ['serious'] },
  { id: FORM_RULES.requiredVisualOnly, criteria: ['1.3.1'], severities: ['serious'] },
  { id: FORM_RULES.errorMessage, criteria: ['3.3.1'], severities: ['serious'] },
  { id: FORM_RULES.invalidNoMessage, criteria: ['3.3.1'], severities: ['serious'] },
  // H71 (fieldset and legend) is a sufficient technique of 1.3.1 and 3.3.2: each option's label
  // lacks the question it answers (Understanding 3.3.2, radio buttons and checkboxes).
  { id: FORM_RULES.groupUnnamed, criteria: ['1.3.1'], severities: ['serious'], alsoFails: ['3.3.2'] },
  { id: FORM_RULES.fieldsetUnnamed, criteria: ['1.3.1'], severities: ['moderate'], alsoFails: ['3.3.2'] }, // H71, as above
  { id: FORM_RULES.labelNotUnique, criteria: ['2.4.6'], severities: ['moderate'] },
  { id: FORM_RULES.labelNotDescriptive, criteria: ['2.4.6'], severities: ['moderate'] },
  { id: FORM_RULES.placeholderOnly, criteria: ['3.3.2'], severities: ['moderate'] },
  { id: FORM_RULES.labelFar, criteria: ['3.3.2'], severities: ['minor'] },
  { id: FORM_RULES.hintNotAssociated, criteria: ['1.3.1'], severities: ['moderate'] },
  // H44's test (the label describes the field it is tied to; H44 is sufficient for 1.3.1 and
  // 4.1.2): the label shown for one field names another, so the field it sits beside lacks it and
  // the other carries a name that is not its own (F68 where the first is left with none).
  { id: FORM_RULES.labelWrongField, criteria: ['1.3.1'], severities: ['serious'], alsoFails: ['4.1.2'] },
  // F81: an error shown by colour alone fails 1.4.1 too, where the field's look (its style or its
  // label's) changed; a field marked wrong by aria-invalid or a new icon alone is not told by
  // colour (the engine names 1.4.1 per finding).
  { id: FORM_RULES.errorColourOnly, criteria: ['3.3.1'], severities: ['serious'], mayAlsoFail: ['1.4.1'] },
  { id: FORM_RULES.errorNotAnnounced, criteria: ['3.3.1'], severities: ['moderate'] },
  { id: FORM_RULES.errorNoSuggestion, criteria: ['3.3.3'], severities: ['moderate'] },
]);
