/** A scan's summary without a model: the rules to fix first, what passed, and one paragraph. */
import { SEVERITIES, type Severity } from '../../shared/contracts.ts';
import { DEFAULT_GUIDE, FIX_GUIDES } from '../../shared/rules/index.ts';
import type { EnrichableFinding, PassedRuleInfo, PositiveFinding, ScanSummary, TopPriority } from '../../shared/summary.ts';
import { groupKey as computeGroupKey } from '../../audit/findings/group-key.ts';
import { count, criterionLabel, fill, noun, sentence } from './text.ts';
import { CRITERIA, ELEMENT, ISSUE, SUMMARY } from './wording.ts';

const rank = (s: Severity) => SEVERITIES.indexOf(s);

/** Weight of the worst severity in a rule's priority: each level counts twice the one below. */
const SEVERITY_WEIGHT: Readonly<Record<Severity, number>> = { critical: 8, serious: 4, moderate: 2, minor: 1 };

function groupOf(f: EnrichableFinding): string {
  if (f.groupKey) return f.groupKey;
  return f.elementHtml ? computeGroupKey(f.ruleId, f.elementSelector, f.elementHtml) : `${f.ruleId}\u0000${f.elementSelector}`;
}

/**
 * The rules to fix first, by severity and reach: priority = weight of the worst severity ×
 * (1 + log2(distinct element groups, i.e. templates) / 2 + log2(elements) / 8). Severity leads: a
 * rule needs about four different templates to outrank one element of the next severity up; more
 * elements of one template (one fix) count for less. Confirmed failures come before ones to review.
 */
export function topPriorities(findings: readonly EnrichableFinding[], max = 5): TopPriority[] {
  const byRule = new Map<string, EnrichableFinding[]>();
  for (const f of findings) byRule.set(f.ruleId, [...(byRule.get(f.ruleId) ?? []), f]);
  const groups = [...byRule.values()].map((fs) => {
    const worst = fs.reduce((a, b) => (rank(b.severity) < rank(a.severity) ? b : a));
    const confirmed = fs.filter((f) => f.type === 'confirmed').length;
    const templates = new Set(fs.map(groupOf)).size;
    const priority = SEVERITY_WEIGHT[worst.severity] * (1 + Math.log2(templates) / 2 + Math.log2(fs.length) / 8);
    return { fs, worst, confirmed, templates, priority };
  });
  groups.sort(
    (a, b) =>
      Number(b.confirmed > 0) - Number(a.confirmed > 0) ||
      b.priority - a.priority ||
      rank(a.worst.severity) - rank(b.worst.severity) ||
      b.fs.length - a.fs.length ||
      a.worst.ruleId.localeCompare(b.worst.ruleId),
  );
  return groups.slice(0, max).map(({ fs, worst, templates }) => {
    const elements = count(fs.length, ELEMENT);
    const reach = fs.length === 1 ? SUMMARY.oneElement : templates === 1 ? fill(SUMMARY.alike, { elements }) : fill(SUMMARY.spread, { elements, templates });
    return {
      title: worst.engineHelp.trim(),
      severity: worst.severity,
      wcagCriterion: worst.wcagCriterion,
      issueCount: fs.length,
      reason: `${(FIX_GUIDES[worst.ruleId] ?? DEFAULT_GUIDE).who} ${reach}`,
    };
  });
}

/** Every criterion a finding fails: its primary and the further ones. */
const criteriaOf = (f: EnrichableFinding): readonly string[] => [f.wcagCriterion, ...(f.wcagCriteria ?? [])];

/** Criteria the page passes with elements checked and nothing found against them, most elements first. */
export function positiveFindings(passes: readonly PassedRuleInfo[], findings: readonly EnrichableFinding[], max = 5): PositiveFinding[] {
  // A criterion an issue fails as a further one is not passing either.
  const failing = new Set(findings.flatMap(criteriaOf));
  const seen = new Set<string>();
  return [...passes]
    .filter((p) => !failing.has(p.wcagCriterion) && p.elements > 0)
    .sort((a, b) => b.elements - a.elements || a.ruleId.localeCompare(b.ruleId))
    .filter((p) => (seen.has(p.wcagCriterion) ? false : (seen.add(p.wcagCriterion), true)))
    .slice(0, max)
    .map((p) => ({
      title: sentence(p.help).replace(/\.$/, ''),
      detail: fill(SUMMARY.passing, { elements: count(p.elements, ELEMENT), criterion: criterionLabel(p.wcagCriterion) }),
      wcagCriterion: p.wcagCriterion,
    }));
}

/** The summary a scan's engine results alone support; also what a scan keeps when enrichment fails. */
export function engineSummary(
  scan: { pageTitle: string | null; url: string; score: number | null; enginePasses?: readonly PassedRuleInfo[] | null },
  findings: readonly EnrichableFinding[],
): ScanSummary {
  return summarise({ pageTitle: scan.pageTitle, url: scan.url, score: scan.score ?? 100, findings, passes: scan.enginePasses ?? [] });
}

export function summarise(input: {
  pageTitle: string | null;
  url: string;
  score: number;
  findings: readonly EnrichableFinding[];
  passes: readonly PassedRuleInfo[];
}): ScanSummary {
  const { findings } = input;
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length])) as Record<Severity, number>;
  const confirmed = findings.filter((f) => f.type === 'confirmed').length;
  const review = findings.length - confirmed;
  const criteria = new Set(findings.flatMap(criteriaOf));
  const name = input.pageTitle ? `"${input.pageTitle.slice(0, 120)}"` : input.url;
  const priorities = topPriorities(findings);
  let text: string;
  if (findings.length === 0) {
    text = fill(SUMMARY.clean, { name, score: input.score });
  } else {
    const bySeverity = SEVERITIES.filter((s) => counts[s] > 0)
      .map((s) => `${counts[s]} ${s}`)
      .join(', ');
    const first = priorities[0];
    text = fill(SUMMARY.found, {
      name,
      score: input.score,
      confirmed,
      issues: noun(confirmed, ISSUE),
      review: review ? fill(SUMMARY.toReview, { review }) : '',
      criteria: criteria.size,
      criteriaNoun: noun(criteria.size, CRITERIA),
      bySeverity,
      start: first ? fill(SUMMARY.start, { title: first.title, elements: count(first.issueCount, ELEMENT), criterion: criterionLabel(first.wcagCriterion) }) : '',
    });
  }
  return {
    overallScore: input.score,
    summary: text,
    topPriorities: priorities,
    positiveFindings: positiveFindings(input.passes, findings),
  };
}
