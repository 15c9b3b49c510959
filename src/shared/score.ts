import type { IssueType, Severity } from './contracts.ts';

/**
 * Page score, 0..100. Each failing rule (not each element) takes away a share of what is left:
 *
 *   score = round(100 * PRODUCT over failing rules r of (1 - w(r)))
 *
 * w(r) is the weight of the rule's worst severity (critical 0.20, serious 0.12, moderate 0.06,
 * minor 0.02), a quarter of that when every finding of the rule only needs review. No issues
 * gives 100; another issue either adds a factor below 1 or raises an existing rule's weight,
 * so it never raises the score. A crawl scores the mean of its scanned pages' scores.
 */
export const SEVERITY_WEIGHTS: Readonly<Record<Severity, number>> = {
  critical: 0.2,
  serious: 0.12,
  moderate: 0.06,
  minor: 0.02,
};
export const NEEDS_REVIEW_FACTOR = 0.25;

export interface ScoredFinding {
  ruleId: string;
  severity: Severity;
  type: IssueType;
}

export function ruleWeights(findings: readonly ScoredFinding[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const f of findings) {
    const w = SEVERITY_WEIGHTS[f.severity] * (f.type === 'confirmed' ? 1 : NEEDS_REVIEW_FACTOR);
    weights.set(f.ruleId, Math.max(weights.get(f.ruleId) ?? 0, w));
  }
  return weights;
}

export function pageScore(findings: readonly ScoredFinding[]): number {
  let remaining = 1;
  for (const w of ruleWeights(findings).values()) remaining *= 1 - w;
  return Math.round(100 * remaining);
}

export function meanScore(scores: readonly number[]): number | null {
  if (scores.length === 0) return null;
  return Math.round(scores.reduce((a, b) => a + b, 0) / scores.length);
}
