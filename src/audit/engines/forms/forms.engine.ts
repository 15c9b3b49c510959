import type { FindingDraft } from '../../../shared/findings.ts';
import { collectFormFacts, type CollectOptions } from './collect.ts';
import { ERROR_TEXT_SOURCE } from './errors.ts';
import { checkEmptySubmission } from './empty-submit-run.ts';
import type { EmptySubmitDraft } from './empty-submit.ts';
import { formFindings, TEXTS, type Draft } from './findings.ts';
import { FORM_RULES } from '../../../shared/rules/forms.ts';
import { ensureInPage } from '../../session/in-page.ts';
import { ownFinding, understandingUrl, type EngineResult, type PageSession, type ScanEngine } from '../engine.ts';

/**
 * Form checks no axe rule makes: labels not tied to their fields, visible labels missing from the
 * accessible name, required state shown only visually, error messages that do not identify their
 * field or the error, unnamed radio/checkbox groups and fieldsets, repeated and vague field labels;
 * and, with each form that has required fields sent empty on the page's default state (nothing
 * leaves the page: `./empty-submit-run.ts`), errors shown by colour only, errors nobody is told of,
 * and errors that suggest nothing (3.3.1, 3.3.3, F81).
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

const LIMITS_WITH_TEXT: CollectOptions = { ...LIMITS, errorText: ERROR_TEXT_SOURCE };

/** Who each rule's barrier affects and how to fix it (merged into the AI fix guides). */
export { FORM_RULES, formFindings };

/** axe's label-in-name rule, whose needs-review results this engine replaces where it measured a pass. */
const AXE_LABEL_IN_NAME = 'label-content-name-mismatch';

export const formsEngine: ScanEngine = {
  id: 'forms',
  stage: 'CustomChecks',
  async run({ page, earlier, signal, fromFlow }: PageSession): Promise<EngineResult> {
    await ensureInPage(page);
    const facts = await page.evaluate(collectFormFacts, LIMITS_WITH_TEXT);
    const { drafts: loaded, passedNames } = formFindings(facts);
    const drafts: Array<Draft | EmptySubmitDraft> = [...loaded];
    // A flow's end page is not loaded again (that would send the flow's forms once more), so its
    // forms are not sent empty either: the page could not be put back.
    if (!fromFlow) {
      try {
        drafts.push(...(await checkEmptySubmission(page, LIMITS_WITH_TEXT, new Set(loaded.map((d) => d.ref.selector)), signal)));
      } catch {
        // A page that fights the empty submission (or goes away) keeps the findings made on load.
      }
    }
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
      const t = TEXTS[d.rule as Draft['rule']];
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
          alsoFails: colourClaim(d),
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

/**
 * `form-error-colour-only` fails 1.4.1 too (F81) only where the field's look changed (its style or
 * its label's): a field marked wrong by `aria-invalid` or a new icon alone is not told by colour,
 * so its finding keeps 3.3.1 alone (no claim stronger than its evidence).
 */
function colourClaim(d: { rule: string; data?: Record<string, unknown> }): string[] {
  if (d.rule !== FORM_RULES.errorColourOnly) return [];
  const marks = Array.isArray(d.data?.marks) ? (d.data.marks as string[]) : [];
  return marks.some((m) => m === 'style' || m === 'label-style') ? ['1.4.1'] : [];
}
