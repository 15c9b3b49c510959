/**
 * What an Accessibility Conformance Report (VPAT / OpenACR) may say about each WCAG 2.2 A/AA
 * criterion on the evidence of an automated audit, and no more:
 *
 * - **Does Not Support**: confirmed failures on every page audited; **Partially Supports**:
 *   confirmed failures on some of them. Both carry the count and the worst examples.
 * - **Supports** only for a criterion whose automated checks decide it in full
 *   (`FULLY_AUTOMATED_CRITERIA`), when they ran and found nothing. No criterion is in that set:
 *   every check here tests a necessary condition (an image has a text alternative, not that the
 *   text is equivalent; a heading exists, not that a way to bypass the navigation works), so
 *   finding nothing never shows that a criterion is met.
 * - **Not Evaluated** everywhere else, with the reason: no automated check decides it (a person
 *   must), or checks ran and found no confirmed failure, which a person must still confirm.
 *
 * The catalogue's own note that Not Evaluated is meant for AAA criteria is set aside on purpose:
 * an automated audit that wrote Supports instead would claim what it cannot know.
 */
import { RULES } from '../shared/rules/index.ts';
import type { ConformanceLevel, ConformanceRow, CriterionResult, IssueGroup } from './report-model.ts';

export type { ConformanceLevel, ConformanceRow };

/** The label of each level in a VPAT (OpenACR writes the ids). */
export const CONFORMANCE_LABEL: Record<ConformanceLevel, string> = {
  supports: 'Supports',
  'partially-supports': 'Partially Supports',
  'does-not-support': 'Does Not Support',
  'not-evaluated': 'Not Evaluated',
};

/**
 * Criteria whose automated checks are complete: when they ran on a page and found nothing, the
 * page meets the criterion. Empty (see above); a criterion added here must have checks that decide
 * every way of failing it.
 */
export const FULLY_AUTOMATED_CRITERIA: ReadonlySet<string> = new Set<string>();

export const NEEDS_A_PERSON = 'Needs a person: no automated check decides this.';

/** The service's rules that can report each criterion (as their criterion or a further one it fails). */
const RULES_BY_CRITERION: ReadonlyMap<string, readonly string[]> = (() => {
  const m = new Map<string, string[]>();
  for (const r of RULES.values()) for (const c of new Set([...r.criteria, ...r.alsoFails, ...r.mayAlsoFail])) m.set(c, [...(m.get(c) ?? []), r.id]);
  return m;
})();

/** The rules that can report `criterion`; none: no automated check looks at it at all. */
export function rulesFor(criterion: string): readonly string[] {
  return RULES_BY_CRITERION.get(criterion) ?? [];
}

/** Confirmed issues per criterion (each of an issue's criteria) and the distinct pages they are on. */
export interface ConfirmedCount {
  criterion: string;
  issues: number;
  pages: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Up to `max` of the worst confirmed examples under a criterion: one per rule group, in the groups' order (severity first). */
function worstExamples(groups: readonly IssueGroup[], criterion: string, max = 3): ConformanceRow['examples'] {
  const out: ConformanceRow['examples'] = [];
  for (const g of groups) {
    if (g.type !== 'confirmed' || !(g.wcagCriterion === criterion || g.wcagCriteria.includes(criterion))) continue;
    const e = g.examples[0];
    if (!e) continue;
    out.push({ ruleId: g.ruleId, title: g.title, severity: g.severity, pageUrl: e.pageUrl, selector: e.selector });
    if (out.length === max) break;
  }
  return out;
}

/** One sentence per example: what fails, how badly, where. Page content is quoted as data, shortened. */
function describeExamples(examples: ConformanceRow['examples']): string {
  if (!examples.length) return '';
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}\u2026` : s);
  return ` Worst: ${examples.map((e) => `${cut(e.title, 120)} (${e.severity}, rule ${e.ruleId}) at ${cut(e.pageUrl, 200)}, element ${cut(e.selector, 160)}`).join('; ')}.`;
}

/**
 * A criterion with confirmed failures on `found.pages` of the `audited` pages or documents (`what`):
 * Does Not Support when on every one, else Partially Supports, with the count and the worst examples.
 */
function failingRow(
  row: Omit<ConformanceRow, 'conformance' | 'remarks' | 'examples'>,
  found: ConfirmedCount,
  groups: readonly IssueGroup[],
  what: 'page' | 'document',
): ConformanceRow {
  const audited = row.pagesAudited;
  const examples = worstExamples(groups, row.id);
  const everywhere = found.pages >= audited;
  const where = everywhere ? `every ${what} audited (${plural(audited, what)})` : `${found.pages.toLocaleString('en-US')} of ${plural(audited, what)} audited`;
  return {
    ...row,
    conformance: everywhere ? 'does-not-support' : 'partially-supports',
    remarks: `${plural(found.issues, 'confirmed issue')} on ${where}.${describeExamples(examples)}`,
    examples,
  };
}

/**
 * The conformance level and remarks of every criterion in `criteria` (all WCAG 2.2 A/AA, in
 * order), from the audit's results: `confirmed` counts confirmed issues and their pages per
 * criterion, `pagesAudited` is the pages scanned.
 */
export function conformance(
  criteria: readonly CriterionResult[],
  groups: readonly IssueGroup[],
  confirmed: readonly ConfirmedCount[],
  pagesAudited: number,
): ConformanceRow[] {
  const byCriterion = new Map(confirmed.map((c) => [c.criterion, c]));
  return criteria.map((c) => {
    const found = byCriterion.get(c.id);
    const row = { id: c.id, title: c.title, level: c.level, confirmedIssues: found?.issues ?? 0, pagesAffected: found?.pages ?? 0, pagesAudited };
    if (found && found.issues > 0) return failingRow(row, found, groups, 'page');
    const rules = c.rules.length ? ` (${c.rules.join(', ')})` : '';
    const catalogued = rulesFor(c.id);
    if (c.result === 'passed' && FULLY_AUTOMATED_CRITERIA.has(c.id)) {
      return { ...row, conformance: 'supports', remarks: `Its automated checks${rules} decide it in full and found no failure on ${plural(pagesAudited, 'page')}.`, examples: [] };
    }
    const remarks =
      c.result === 'passed'
        ? `No automated failure${rules}. These checks decide only part of this criterion: a person must confirm it.`
        : c.result === 'needs_review'
          ? `No confirmed failure; ${plural(c.issues, 'finding')} need${c.issues === 1 ? 's' : ''} review by a person${rules}.`
          : catalogued.length
            ? `Needs a person: no automated check applied to the pages audited (its rules: ${catalogued.slice(0, 8).join(', ')}${catalogued.length > 8 ? ', \u2026' : ''}), and they decide only part of it.`
            : NEEDS_A_PERSON;
    return { ...row, conformance: 'not-evaluated', remarks, examples: [] };
  });
}

/** A rule of the document audit (PDFs), not of the page engines. */
export function isDocumentRule(ruleId: string): boolean {
  return RULES.get(ruleId)?.engine === 'document';
}

/** The document audit's rules that can report each criterion. */
function documentRulesFor(criterion: string): string[] {
  return rulesFor(criterion).filter(isDocumentRule);
}

/**
 * The conformance of the documents (PDFs) audited, OpenACR's `electronic-docs` component: the
 * same levels as `conformance` on the documents' confirmed issues alone; where none, Not
 * Evaluated, saying whether a document rule looks at the criterion at all.
 */
export function documentConformance(
  criteria: readonly CriterionResult[],
  groups: readonly IssueGroup[],
  confirmed: readonly ConfirmedCount[],
  documentsAudited: number,
): ConformanceRow[] {
  const documentGroups = groups.filter((g) => isDocumentRule(g.ruleId));
  const byCriterion = new Map(confirmed.map((c) => [c.criterion, c]));
  return criteria.map((c) => {
    const found = byCriterion.get(c.id);
    const row = { id: c.id, title: c.title, level: c.level, confirmedIssues: found?.issues ?? 0, pagesAffected: found?.pages ?? 0, pagesAudited: documentsAudited };
    if (found && found.issues > 0) return failingRow(row, found, documentGroups, 'document');
    const rules = documentRulesFor(c.id);
    const remarks = rules.length
      ? `No confirmed failure in ${plural(documentsAudited, 'document')} (${rules.join(', ')}). These checks decide only part of this criterion: a person must confirm it.`
      : 'Needs a person: no automated document check looks at this criterion.';
    return { ...row, conformance: 'not-evaluated', remarks, examples: [] };
  });
}

/**
 * The criteria a report may list under "What works well": those its automated checks decide in
 * full and found no failure against. The rest with no failure are "no automated failure".
 */
export function worksWell(criterion: string | null | undefined): boolean {
  return criterion != null && FULLY_AUTOMATED_CRITERIA.has(criterion);
}
