import { SEVERITIES, type Severity } from '../../shared/contracts.ts';
import { successCriterion } from '../../shared/wcag.ts';
import { DEFAULT_GUIDE, FIX_GUIDES } from './fix-guides.ts';

/** The finding fields enrichment reads: engine facts, never free page text as instructions. */
export interface EnrichableFinding {
  id: string;
  ruleId: string;
  type: 'confirmed' | 'needs_review';
  severity: Severity;
  wcagCriterion: string;
  wcagLevel: 'A' | 'AA';
  elementSelector: string;
  engineHelp: string;
  engineDescription: string;
  failureSummary: string;
}

export interface PassedRuleInfo {
  ruleId: string;
  help: string;
  wcagCriterion: string;
  elements: number;
}

export interface TopPriority {
  title: string;
  severity: Severity;
  wcagCriterion: string;
  issueCount: number;
  reason: string;
}

export interface PositiveFinding {
  title: string;
  detail: string;
  wcagCriterion: string;
}

export interface ScanSummary {
  overallScore: number;
  summary: string;
  topPriorities: TopPriority[];
  positiveFindings: PositiveFinding[];
}

export interface FindingTexts {
  id: string;
  description: string;
  fixSuggestion: string;
}

const rank = (s: Severity) => SEVERITIES.indexOf(s);

function criterionLabel(id: string): string {
  const sc = successCriterion(id);
  return sc ? `WCAG ${sc.id} ${sc.title} (Level ${sc.level})` : `WCAG ${id}`;
}

function sentence(s: string): string {
  const t = s.trim();
  return t === '' || /[.!?]$/.test(t) ? t : `${t}.`;
}

/** Description and fix for one finding, written from the rule's guide and the engine's own findings. */
export function describeFinding(f: EnrichableFinding): FindingTexts {
  const guide = FIX_GUIDES[f.ruleId] ?? DEFAULT_GUIDE;
  const review = f.type === 'needs_review' ? ' The checker could not decide this automatically: a person should confirm it.' : '';
  const description = `${sentence(f.engineHelp)} ${guide.who} This fails ${criterionLabel(f.wcagCriterion)}.${review}`;
  const details = f.failureSummary.trim();
  const fixSuggestion = details ? `${guide.fix}\n\nFor this element (${f.elementSelector}): ${details}` : guide.fix;
  return { id: f.id, description, fixSuggestion };
}

export function topPriorities(findings: readonly EnrichableFinding[], max = 5): TopPriority[] {
  const byRule = new Map<string, EnrichableFinding[]>();
  for (const f of findings) byRule.set(f.ruleId, [...(byRule.get(f.ruleId) ?? []), f]);
  const groups = [...byRule.values()].map((fs) => {
    const worst = fs.reduce((a, b) => (rank(b.severity) < rank(a.severity) ? b : a));
    const confirmed = fs.filter((f) => f.type === 'confirmed').length;
    return { fs, worst, confirmed };
  });
  groups.sort(
    (a, b) =>
      Number(b.confirmed > 0) - Number(a.confirmed > 0) ||
      rank(a.worst.severity) - rank(b.worst.severity) ||
      b.fs.length - a.fs.length ||
      a.worst.ruleId.localeCompare(b.worst.ruleId),
  );
  return groups.slice(0, max).map(({ fs, worst }) => ({
    title: worst.engineHelp.trim(),
    severity: worst.severity,
    wcagCriterion: worst.wcagCriterion,
    issueCount: fs.length,
    reason: `${(FIX_GUIDES[worst.ruleId] ?? DEFAULT_GUIDE).who} ${fs.length} element${fs.length === 1 ? '' : 's'} affected.`,
  }));
}

export function positiveFindings(
  passes: readonly PassedRuleInfo[],
  findings: readonly EnrichableFinding[],
  max = 5,
): PositiveFinding[] {
  const failing = new Set(findings.map((f) => f.wcagCriterion));
  const seen = new Set<string>();
  return [...passes]
    .filter((p) => !failing.has(p.wcagCriterion) && p.elements > 0)
    .sort((a, b) => b.elements - a.elements || a.ruleId.localeCompare(b.ruleId))
    .filter((p) => (seen.has(p.wcagCriterion) ? false : (seen.add(p.wcagCriterion), true)))
    .slice(0, max)
    .map((p) => ({
      title: sentence(p.help).replace(/\.$/, ''),
      detail: `${p.elements} element${p.elements === 1 ? '' : 's'} checked and passing; nothing found against ${criterionLabel(p.wcagCriterion)}.`,
      wcagCriterion: p.wcagCriterion,
    }));
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
  const criteria = new Set(findings.map((f) => f.wcagCriterion));
  const name = input.pageTitle ? `"${input.pageTitle.slice(0, 120)}"` : input.url;
  const priorities = topPriorities(findings);
  let text: string;
  if (findings.length === 0) {
    text = `${name} scores ${input.score}/100: no WCAG 2.2 A or AA failures were found by automated checks. Automated checks find only part of all barriers; test keyboard use and screen reader output by hand too.`;
  } else {
    const bySeverity = SEVERITIES.filter((s) => counts[s] > 0)
      .map((s) => `${counts[s]} ${s}`)
      .join(', ');
    text =
      `${name} scores ${input.score}/100 with ${confirmed} confirmed issue${confirmed === 1 ? '' : 's'}` +
      `${review ? ` and ${review} to review by hand` : ''} against ${criteria.size} WCAG criteri${criteria.size === 1 ? 'on' : 'a'} (${bySeverity}).` +
      (priorities[0] ? ` Start with "${priorities[0].title}" (${priorities[0].issueCount} element${priorities[0].issueCount === 1 ? '' : 's'}, ${criterionLabel(priorities[0].wcagCriterion)}).` : '');
  }
  return {
    overallScore: input.score,
    summary: text,
    topPriorities: priorities,
    positiveFindings: positiveFindings(input.passes, findings),
  };
}
