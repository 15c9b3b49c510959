import type { FindingDraft } from '../../findings/findings.ts';
import { collectFormFacts, type CollectOptions } from './collect.ts';
import { ERROR_TEXT_SOURCE } from './errors.ts';
import { FORM_RULES, formFindings, TEXTS } from './findings.ts';
import { ensureInPage } from '../../session/in-page.ts';
import { ownFinding, understandingUrl, type EngineResult, type PageSession, type ScanEngine } from '../engine.ts';

/**
 * Form checks no axe rule makes: labels not tied to their fields, visible labels missing from the
 * accessible name, required state shown only visually, error messages that do not identify their
 * field or the error, unnamed radio/checkbox groups and fieldsets, repeated and vague field labels.
 *
 * One `page.evaluate` (`../forms/collect.ts`) reads the facts, bounded by `LIMITS`; the pure
 * functions of `../forms/findings.ts` decide. A finding is `confirmed` only where it is true by construction
 * (label in name, and a `<label>` that labels nothing right beside a field named otherwise);
 * everything that needs a person's judgement is `needs_review`.
 */

export const LIMITS: Omit<CollectOptions, 'errorText'> = {
  /** Fields examined per page (document order). */
  maxControls: 500,
  /** Buttons, links and other widgets with aria-label/aria-labelledby examined for label in name. */
  maxWidgets: 500,
  maxFieldsets: 200,
  /** Text nodes read in the fields' forms when looking for error messages. */
  maxTextNodes: 5000,
  maxMessages: 50,
  textMax: 160,
};

/** Who each rule's barrier affects and how to fix it (merged into the AI fix guides). */
export { FORM_RULES, formFindings };

export const GUIDES: Record<string, { who: string; fix: string }> = {
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
};

/** axe's label-in-name rule, whose needs-review results this engine replaces where it measured a pass. */
const AXE_LABEL_IN_NAME = 'label-content-name-mismatch';

export const formsEngine: ScanEngine = {
  id: 'forms',
  stage: 'CustomChecks',
  async run({ page, earlier }: PageSession): Promise<EngineResult> {
    await ensureInPage(page);
    const facts = await page.evaluate(collectFormFacts, { ...LIMITS, errorText: ERROR_TEXT_SOURCE });
    const { drafts, passedNames } = formFindings(facts);
    // What earlier engines already say about an element: no second finding for the same element
    // and criterion unless this one upgrades a needs-review to confirmed, and no "label not tied"
    // finding on a field axe already reports as unlabelled.
    const before = new Map<string, FindingDraft[]>();
    for (const f of earlier) before.set(f.elementSelector, [...(before.get(f.elementSelector) ?? []), f]);
    const findings: FindingDraft[] = [];
    for (const d of drafts) {
      const prior = before.get(d.ref.selector.replace(/\s+/g, ' ').trim()) ?? [];
      if (prior.some((p) => p.wcagCriterion === d.criterion && (p.type === 'confirmed' || d.type === 'needs_review'))) continue;
      if (d.rule === FORM_RULES.labelNotAssociated && prior.length > 0) continue;
      const t = TEXTS[d.rule];
      findings.push(
        ownFinding({
          ruleId: d.rule,
          type: d.type,
          severity: d.severity,
          criterion: d.criterion,
          selector: d.ref.selector,
          html: d.ref.html,
          help: t.help,
          description: t.description,
          failureSummary: d.summary,
          helpUrl: understandingUrl(t.slug),
          data: d.data,
        }),
      );
    }
    const passedSelectors = new Set(passedNames.map((r) => r.selector.replace(/\s+/g, ' ').trim()));
    const supersedes = earlier
      .filter((f) => f.ruleId === AXE_LABEL_IN_NAME && f.type === 'needs_review' && passedSelectors.has(f.elementSelector))
      .map((f) => ({ ruleId: f.ruleId, selector: f.elementSelector }));
    return { findings, supersedes };
  },
};
