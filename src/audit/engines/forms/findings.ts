import { errorMessageProblems, looksLikeError, type ErrorMessageProblem } from './errors.ts';
import type { ControlFacts, ElementRef, FormPageFacts } from './facts.ts';
import { labelInName, labelWords, nonDescriptiveLabel, normaliseLabel, requiredMarker } from './text.ts';
import type { IssueType, Severity } from '../../../shared/contracts.ts';
import { FORM_RULES } from '../../../shared/rules/forms.ts';

/**
 * The forms checks' decisions: pure functions from the facts read in the page to findings (rule,
 * criterion, outcome, element, what is wrong), and the rules' texts.
 */


/** A field further than this (CSS px, desktop viewport) to the right of its label's text is hard to pair with it. */
export const FAR_LABEL_GAP = 250;

const FIELD_KIND = (c: ControlFacts) => (c.choice ? (c.type === 'radio' || c.role === 'radio' ? 'radio button' : 'checkbox') : c.tag === 'select' ? 'select list' : 'field');
const q = (s: string) => `"${s.length > 80 ? `${s.slice(0, 79)}…` : s}"`;

export interface Draft {
  rule: (typeof FORM_RULES)[keyof typeof FORM_RULES];
  type: IssueType;
  severity: Severity;
  criterion: string;
  ref: ElementRef;
  summary: string;
  data: Record<string, unknown>;
}

export const TEXTS: Record<Draft['rule'], { help: string; description: string; slug: string }> = {
  [FORM_RULES.labelNotAssociated]: {
    help: 'Tie each visible label to its form field',
    description: 'Checks that text shown as a field\'s label (a <label> that labels nothing, or text right before the field) is programmatically tied to the field.',
    slug: 'info-and-relationships',
  },
  [FORM_RULES.labelInName]: {
    help: 'Include the visible label text in the accessible name',
    description: 'Checks that the accessible name of a control (aria-label / aria-labelledby) contains its visible label text, word for word after case, space and punctuation are ignored.',
    slug: 'label-in-name',
  },
  [FORM_RULES.requiredVisualOnly]: {
    help: 'Make required fields required in code, not only by a visual marker',
    description: 'Checks that a field marked as required on screen (an asterisk or the word "required") has the required attribute or aria-required="true", or says "required" in its accessible name.',
    slug: 'info-and-relationships',
  },
  [FORM_RULES.errorMessage]: {
    help: 'Make error messages name their field and describe the error',
    description: 'Checks that visible text worded as an error message is tied to its field or names it, and says what is wrong or how to fix it.',
    slug: 'error-identification',
  },
  [FORM_RULES.invalidNoMessage]: {
    help: 'Describe the error of each field marked invalid',
    description: 'Checks that a field with aria-invalid="true" has an error message tied to it (aria-describedby or aria-errormessage).',
    slug: 'error-identification',
  },
  [FORM_RULES.groupUnnamed]: {
    help: 'Group related radio buttons and checkboxes under a name',
    description: 'Checks that radio buttons or checkboxes sharing a name are inside a fieldset with a legend, or a group / radiogroup with an accessible name.',
    slug: 'info-and-relationships',
  },
  [FORM_RULES.fieldsetUnnamed]: {
    help: 'Give each fieldset a legend',
    description: 'Checks that a fieldset has a legend (or another accessible name) with text.',
    slug: 'info-and-relationships',
  },
  [FORM_RULES.labelNotUnique]: {
    help: 'Give fields in the same context different labels',
    description: 'Checks that fields with the same accessible name are told apart by a group (fieldset legend) or a heading.',
    slug: 'headings-and-labels',
  },
  [FORM_RULES.labelNotDescriptive]: {
    help: 'Use field labels that describe what to enter',
    description: 'Checks that a field\'s accessible name is not only punctuation or a generic word such as "field", "input" or "text".',
    slug: 'headings-and-labels',
  },
  [FORM_RULES.placeholderOnly]: {
    help: 'Do not use a placeholder as the only label',
    description: 'Checks that a field named only by its placeholder has a visible label that stays when the user types.',
    slug: 'labels-or-instructions',
  },
  [FORM_RULES.labelFar]: {
    help: 'Place labels close to their fields',
    description: `Checks that a field on the same row as its label starts within ${FAR_LABEL_GAP} CSS px of the label's text (WCAG technique G162).`,
    slug: 'labels-or-instructions',
  },
  [FORM_RULES.hintNotAssociated]: {
    help: 'Tie field hints to their field',
    description: 'Checks that visible text between a field\'s label and the field (a hint, a format) is part of the field\'s name or description.',
    slug: 'info-and-relationships',
  },
  [FORM_RULES.labelWrongField]: {
    help: 'Tie each label to the field it sits beside',
    description: 'Checks that a <label> right before a field without a label of its own is not tied to another field that already has a label.',
    slug: 'info-and-relationships',
  },
  [FORM_RULES.errorColourOnly]: {
    help: 'Identify form errors in text, not by colour or an icon alone',
    description: 'Sends each form with required fields empty (nothing leaves the page) and checks that a field the page marks as wrong gets an error text tied to it, beside it or naming it (WCAG failure F81).',
    slug: 'error-identification',
  },
  [FORM_RULES.errorNotAnnounced]: {
    help: 'Tie error messages to their fields or announce them',
    description: 'Sends each form with required fields empty (nothing leaves the page) and checks that an error text that appears is referenced by its field, sits in a live region or alert, or receives focus.',
    slug: 'error-identification',
  },
  [FORM_RULES.errorNoSuggestion]: {
    help: 'Suggest how to correct a field in its error message',
    description: 'Sends each form with required fields empty (nothing leaves the page) and checks that the error shown for an email, phone, date or postcode field says what to enter, not only that it is invalid.',
    slug: 'error-suggestion',
  },
};

/** What the forms checks find in the facts read from one page: pure, for tests. */
export function formFindings(facts: FormPageFacts): { drafts: Draft[]; passedNames: ElementRef[] } {
  const drafts: Draft[] = [];
  const passedNames: ElementRef[] = [];
  const add = (d: Draft) => drafts.push(d);

  // ---- labels -------------------------------------------------------------------------------
  for (const c of facts.controls) {
    const kind = FIELD_KIND(c);
    if (c.orphanLabel && c.name) {
      const v = labelInName(c.orphanLabel.text, c.name);
      if (v.verdict === 'fail' || v.verdict === 'review') {
        const byLabel = c.orphanLabel.kind !== 'text-before';
        const how =
          c.orphanLabel.kind === 'label-for-missing'
            ? 'whose for attribute matches no element\'s id'
            : c.orphanLabel.kind === 'label-for-other'
              ? 'whose for attribute points to an element that is not a form field'
              : c.orphanLabel.kind === 'label-wraps-nothing'
                ? 'that has no for attribute and contains no field'
                : '';
        add({
          rule: FORM_RULES.labelNotAssociated,
          type: byLabel && v.verdict === 'fail' ? 'confirmed' : 'needs_review',
          severity: 'serious',
          criterion: '1.3.1',
          ref: c.ref,
          summary: byLabel
            ? `The ${kind} is next to the label ${q(c.orphanLabel.text)}, a <label> ${how}, so the label is not tied to it; its accessible name is ${q(c.name)} (from its ${c.nameFrom}).`
            : `The text ${q(c.orphanLabel.text)} right before the ${kind} looks like its label but is not tied to it; its accessible name is ${q(c.name)} (from its ${c.nameFrom}).`,
          data: { label: c.orphanLabel.text, labelKind: c.orphanLabel.kind, name: c.name, nameFrom: c.nameFrom },
        });
        continue;
      }
    }
    if (c.crossedLabel) {
      add({
        rule: FORM_RULES.labelWrongField,
        type: 'confirmed',
        severity: 'serious',
        criterion: '1.3.1',
        ref: c.ref,
        summary: `The label ${q(c.crossedLabel.text)} right before this ${kind} is tied to another field (${c.crossedLabel.field.selector}), which has a label of its own as well; this ${kind} has no label${c.name ? ` (its accessible name is ${q(c.name)}, from its ${c.nameFrom})` : ' and no accessible name'}.`,
        data: { label: c.crossedLabel.text, tiedTo: c.crossedLabel.field.selector, name: c.name, nameFrom: c.nameFrom },
      });
      continue;
    }
    if (c.labelText && (c.nameFrom === 'aria-label' || c.nameFrom === 'aria-labelledby')) {
      const v = labelInName(c.labelText, c.name);
      if (v.verdict === 'fail' || v.verdict === 'review') {
        add({
          rule: FORM_RULES.labelInName,
          type: v.verdict === 'fail' ? 'confirmed' : 'needs_review',
          severity: 'serious',
          criterion: '2.5.3',
          ref: c.ref,
          summary: `The ${kind}'s visible label is ${q(c.labelText)} but its accessible name (from ${c.nameFrom}) is ${q(c.name)}, which does not contain the label's words.`,
          data: { visibleLabel: c.labelText, name: c.name, normalisedLabel: v.visible, normalisedName: v.name },
        });
      }
    }
    if (c.nameFrom === 'placeholder' && !c.orphanLabel) {
      add({
        rule: FORM_RULES.placeholderOnly,
        type: 'needs_review',
        severity: 'moderate',
        criterion: '3.3.2',
        ref: c.ref,
        summary: `The ${kind} has no visible label: its only name is its placeholder ${q(c.name)}, which disappears as soon as something is typed.`,
        data: { placeholder: c.name },
      });
    }
    if (c.hint && !c.choice) {
      const said = labelWords(`${c.name} ${c.description}`).join(' ');
      const hint = normaliseLabel(c.hint);
      if (hint && !` ${said} `.includes(` ${hint} `) && !looksLikeError(c.hint)) {
        // The hint describes another field instead (its aria-describedby points here): wired to
        // the wrong field, which the markup decides.
        const other = facts.controls.find((o) => o !== c && ` ${normaliseLabel(o.description)} `.includes(` ${hint} `));
        add({
          rule: FORM_RULES.hintNotAssociated,
          type: other ? 'confirmed' : 'needs_review',
          severity: 'moderate',
          criterion: '1.3.1',
          ref: c.ref,
          summary: other
            ? `The text ${q(c.hint)} between the ${kind}'s label and the ${kind} is the description of another field (${other.ref.selector}, through its aria-describedby), not of this one.`
            : `The text ${q(c.hint)} between the ${kind}'s label and the ${kind} is not part of its accessible name or description${c.description ? '' : ' (it has no aria-describedby)'}.`,
          data: { hint: c.hint, name: c.name, ...(other ? { describes: other.ref.selector } : {}) },
        });
      }
    }
    if (c.labelGap !== null && c.labelGap > FAR_LABEL_GAP) {
      add({
        rule: FORM_RULES.labelFar,
        type: 'needs_review',
        severity: 'minor',
        criterion: '3.3.2',
        ref: c.ref,
        summary: `The ${kind} starts ${c.labelGap} px to the right of the end of its label ${q(c.labelText)} on the same row, so the two are hard to see together.`,
        data: { gapPx: c.labelGap, label: c.labelText },
      });
    }
    const vague = c.choice ? undefined : nonDescriptiveLabel(c.name);
    if (vague) {
      add({
        rule: FORM_RULES.labelNotDescriptive,
        type: 'needs_review',
        severity: 'moderate',
        criterion: '2.4.6',
        ref: c.ref,
        summary:
          vague === 'no-words'
            ? `The ${kind}'s accessible name ${q(c.name)} has no word in it.`
            : `The ${kind}'s accessible name ${q(c.name)} is a generic word that does not say what to enter.`,
        data: { name: c.name },
      });
    }
  }

  // ---- required shown only visually --------------------------------------------------------------
  const seenGroups = new Set<string>();
  for (const c of facts.controls) {
    if (c.required || !c.marker) continue;
    const kind = requiredMarker(c.marker.text);
    if (!kind) continue;
    const said = `${c.name} ${c.description}`;
    if (kind === 'word' && c.marker.where === 'label' && requiredMarker(said) === 'word') continue; // "required" is in its name: told in text
    if (c.choice && c.groupName) {
      const key = `${c.form}\u0000${c.groupName}`;
      if (seenGroups.has(key)) continue;
      seenGroups.add(key);
    }
    const what = kind === 'asterisk' ? 'an asterisk' : 'the word "required"';
    const where = c.marker.where === 'label' ? `its label ${q(c.marker.text)}` : `the text ${q(c.marker.text)} next to it`;
    add({
      rule: FORM_RULES.requiredVisualOnly,
      type: 'needs_review',
      severity: 'serious',
      criterion: '1.3.1',
      ref: c.ref,
      summary: `The ${FIELD_KIND(c)} is marked as required by ${what} in ${where}, but has neither the required attribute nor aria-required="true"${kind === 'asterisk' ? (facts.asteriskExplained ? '' : ', and no text on the page explains the asterisk') : ', and its accessible name does not say so'}.`,
      data: { marker: c.marker.text, where: c.marker.where, asteriskExplained: facts.asteriskExplained },
    });
  }

  // ---- groups and fieldsets ------------------------------------------------------------------
  const groups = new Map<string, ControlFacts[]>();
  for (const c of facts.controls) {
    if (!c.choice || !c.groupName) continue;
    const key = `${c.form}\u0000${c.type}\u0000${c.groupName}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    if (members.some((m) => m.groupLabel) || members.some((m) => m.inUnnamedFieldset)) continue;
    const first = members[0]!;
    const kind = first.type === 'radio' ? 'radio buttons' : 'checkboxes';
    add({
      rule: FORM_RULES.groupUnnamed,
      type: 'needs_review',
      severity: 'serious',
      criterion: '1.3.1',
      ref: first.ref,
      summary: `${members.length} ${kind} named "${first.groupName.slice(0, 60)}" (${members
        .slice(0, 4)
        .map((m) => q(m.name || '(no name)'))
        .join(', ')}${members.length > 4 ? ', …' : ''}) are not inside a fieldset with a legend nor a named group, so the question they answer is not announced with them.`,
      data: { groupName: first.groupName, members: members.length },
    });
  }
  for (const f of facts.fieldsets) {
    if (f.name) continue;
    add({
      rule: FORM_RULES.fieldsetUnnamed,
      type: 'needs_review',
      severity: 'moderate',
      criterion: '1.3.1',
      ref: f.ref,
      summary:
        f.legend === 'none'
          ? `The fieldset${f.controls ? ` (${f.controls} field${f.controls === 1 ? '' : 's'})` : ''} has no legend, so its group has no name.`
          : `The fieldset's legend is empty, so its group${f.controls ? ` of ${f.controls} field${f.controls === 1 ? '' : 's'}` : ''} has no name.`,
      data: { legend: f.legend, controls: f.controls },
    });
  }

  // ---- the same label for different fields in the same context --------------------------------------
  const byName = new Map<string, ControlFacts[]>();
  for (const c of facts.controls) {
    if (c.choice || !c.name) continue;
    const n = normaliseLabel(c.name);
    if (!n) continue;
    byName.set(n, [...(byName.get(n) ?? []), c]);
  }
  for (const same of byName.values()) {
    if (same.length < 2) continue;
    const ctx = (c: ControlFacts) => `${c.formElement}\u0000${c.groupLabel ?? ''}\u0000${c.heading}`;
    const counts = new Map<string, number>();
    for (const c of same) counts.set(ctx(c), (counts.get(ctx(c)) ?? 0) + 1);
    for (const c of same) {
      const n = counts.get(ctx(c)) ?? 0;
      if (n < 2) continue;
      add({
        rule: FORM_RULES.labelNotUnique,
        type: 'needs_review',
        severity: 'moderate',
        criterion: '2.4.6',
        ref: c.ref,
        summary: `${n} fields ${c.formElement >= 0 ? 'in the same form' : 'outside any form'}${c.groupLabel ? ` group ${q(c.groupLabel)}` : ''}${c.heading ? ` under the heading ${q(c.heading)}` : ''} share the accessible name ${q(c.name)}; nothing tells them apart.`,
        data: { name: c.name, sameName: n },
      });
    }
  }

  // ---- error messages ----------------------------------------------------------------------
  const namesByForm = new Map<number, string[]>();
  for (const c of facts.controls) if (!c.choice && c.name) namesByForm.set(c.form, [...(namesByForm.get(c.form) ?? []), c.labelText || c.name]);
  const messagesByForm = new Set(facts.messages.map((m) => m.form));
  const PROBLEM: Record<ErrorMessageProblem, string> = {
    'hidden-from-at': 'it is hidden from screen readers (aria-hidden)',
    'names-no-field': 'it is not tied to a field and names none',
    'ambiguous-field': 'it names a field label that several fields share',
    'not-descriptive': 'it does not say what is wrong or how to fix it',
  };
  for (const m of facts.messages) {
    const problems = errorMessageProblems({ text: m.text, associated: m.associated, hiddenFromAT: m.hiddenFromAT, fieldNames: namesByForm.get(m.form) ?? [] });
    if (!problems.length) continue;
    add({
      rule: FORM_RULES.errorMessage,
      type: 'needs_review',
      severity: 'serious',
      criterion: '3.3.1',
      ref: m.ref,
      summary: `The error message ${q(m.text)}: ${problems.map((p) => PROBLEM[p]).join('; ')}${m.associated ? '' : '; no field references it with aria-describedby or aria-errormessage'}.`,
      data: { message: m.text, problems, associated: m.associated },
    });
  }
  for (const c of facts.controls) {
    if (!c.invalid || c.errorMessage || c.description || looksLikeError(c.name) || messagesByForm.has(c.form)) continue;
    add({
      rule: FORM_RULES.invalidNoMessage,
      type: 'needs_review',
      severity: 'serious',
      criterion: '3.3.1',
      ref: c.ref,
      summary: `The ${FIELD_KIND(c)} ${q(c.name || '(no name)')} is marked aria-invalid="true" but no error text is tied to it (no aria-describedby or aria-errormessage), and no error message was found in its form.`,
      data: { name: c.name },
    });
  }

  // ---- label in name of buttons, links and other widgets named from content ------------------------
  for (const wdg of facts.widgets) {
    const v = labelInName(wdg.visibleText, wdg.name);
    if (v.verdict === 'pass' || (v.verdict === 'skip' && v.why !== 'single-character')) {
      passedNames.push(wdg.ref);
      continue;
    }
    if (v.verdict === 'skip') continue;
    add({
      rule: FORM_RULES.labelInName,
      type: v.verdict === 'fail' ? 'confirmed' : 'needs_review',
      severity: 'serious',
      criterion: '2.5.3',
      ref: wdg.ref,
      summary: `The ${wdg.role} shows ${q(wdg.visibleText)} but its accessible name is ${q(wdg.name)}, which does not contain the visible words in order (compared as ${q(v.visible)} in ${q(v.name)}).`,
      data: { visibleLabel: wdg.visibleText, name: wdg.name, normalisedLabel: v.visible, normalisedName: v.name },
    });
  }
  return { drafts, passedNames };
}

