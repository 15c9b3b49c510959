import { SEVERITIES, type Severity } from './contracts.ts';

/**
 * Findings kept per page. A page with thousands of failing elements (a generated table, a
 * 200,000-element DOM) would otherwise flood the database and every report; past the cap the
 * rest is counted per rule on the scan (`issuesLeftOut`), never dropped silently.
 */
export const MAX_FINDINGS_PER_PAGE = 2000;

export interface LeftOut {
  total: number;
  byRule: Record<string, number>;
}


/**
 * The findings to keep: every rule keeps at least its most important finding, then the rest by
 * importance (confirmed before needs_review, then severity), in their original order otherwise.
 */
export function capFindings<T extends { ruleId: string; type: string; severity: string }>(findings: readonly T[], max = MAX_FINDINGS_PER_PAGE): { kept: T[]; leftOut: LeftOut | null } {
  if (findings.length <= max) return { kept: [...findings], leftOut: null };
  const severity = (s: string) => {
    const i = SEVERITIES.indexOf(s as Severity);
    return i < 0 ? SEVERITIES.length : i;
  };
  const rank = (f: T) => (f.type === 'confirmed' ? 0 : 10) + severity(f.severity);
  const order = findings.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i);
  const chosen = new Set<number>();
  const seenRules = new Set<string>();
  for (const { f, i } of order) {
    if (chosen.size >= max) break;
    if (!seenRules.has(f.ruleId)) {
      seenRules.add(f.ruleId);
      chosen.add(i);
    }
  }
  for (const { i } of order) {
    if (chosen.size >= max) break;
    chosen.add(i);
  }
  const kept = findings.filter((_, i) => chosen.has(i));
  const byRule: Record<string, number> = {};
  findings.forEach((f, i) => {
    if (!chosen.has(i)) byRule[f.ruleId] = (byRule[f.ruleId] ?? 0) + 1;
  });
  return { kept, leftOut: { total: findings.length - kept.length, byRule } };
}
