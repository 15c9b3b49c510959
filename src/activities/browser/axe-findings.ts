import { createHash } from 'node:crypto';
import type { IssueType, Severity, WcagLevel } from '../../shared/contracts.ts';
import { SEVERITIES } from '../../shared/contracts.ts';
import { criterionForTags } from '../../shared/wcag.ts';

/** The parts of an axe result we read (axe-core's Result / NodeResult, narrowed). */
export interface AxeRuleResult {
  id: string;
  impact?: string | null;
  tags: string[];
  description: string;
  help: string;
  helpUrl?: string;
  nodes: Array<{
    target: unknown[];
    html: string;
    impact?: string | null;
    failureSummary?: string;
  }>;
}

export interface FindingDraft {
  ruleId: string;
  type: IssueType;
  severity: Severity;
  wcagCriterion: string;
  wcagLevel: WcagLevel;
  elementSelector: string;
  elementHtml: string;
  engineHelp: string;
  engineDescription: string;
  failureSummary: string;
  helpUrl: string | null;
  data: Record<string, unknown>;
}

export interface PassedRule {
  ruleId: string;
  help: string;
  wcagCriterion: string;
  elements: number;
}

const MAX_HTML = 4000;

/** axe targets are arrays of selectors, one per frame; shadow DOM adds nested arrays. */
export function selectorFromTarget(target: unknown[]): string {
  return target
    .map((t) => (Array.isArray(t) ? t.map(String).join(' >>> ') : String(t)))
    .join(' >>> ')
    .replace(/\s+/g, ' ')
    .trim();
}

function severityOf(v: string | null | undefined): Severity | undefined {
  return SEVERITIES.find((s) => s === v);
}

/**
 * One draft per failing element of every rule that maps to a WCAG 2.2 A/AA criterion.
 * Rules without such a criterion (best practices, AAA) are dropped: they are not issues.
 */
export function findingsFromAxe(
  rules: readonly AxeRuleResult[],
  type: IssueType,
  opts: { ruleIdFor?: (axeRuleId: string) => string; data?: Record<string, unknown> } = {},
): FindingDraft[] {
  const out: FindingDraft[] = [];
  for (const rule of rules) {
    const sc = criterionForTags(rule.tags);
    if (!sc) continue;
    const ruleId = opts.ruleIdFor ? opts.ruleIdFor(rule.id) : rule.id;
    for (const node of rule.nodes) {
      out.push({
        ruleId,
        type,
        severity: severityOf(node.impact) ?? severityOf(rule.impact) ?? 'moderate',
        wcagCriterion: sc.id,
        wcagLevel: sc.level,
        elementSelector: selectorFromTarget(node.target),
        elementHtml: node.html.length > MAX_HTML ? `${node.html.slice(0, MAX_HTML)}…` : node.html,
        engineHelp: rule.help,
        engineDescription: rule.description,
        failureSummary: node.failureSummary ?? '',
        helpUrl: rule.helpUrl ?? null,
        data: { ...opts.data, ...(ruleId !== rule.id ? { engineRuleId: rule.id } : {}) },
      });
    }
  }
  return out;
}

/**
 * One issue per element per criterion: the first draft (in the order given) wins, and the
 * rules that found the same thing later are noted in its data as `alsoFlaggedBy`.
 */
export function mergeFindings(drafts: readonly FindingDraft[]): FindingDraft[] {
  const byKey = new Map<string, FindingDraft>();
  for (const d of drafts) {
    const key = `${d.wcagCriterion}\u0000${d.elementSelector}`;
    const first = byKey.get(key);
    if (!first) {
      byKey.set(key, { ...d, data: { ...d.data } });
      continue;
    }
    if (first.ruleId !== d.ruleId) {
      const also = (first.data.alsoFlaggedBy as string[] | undefined) ?? [];
      if (!also.includes(d.ruleId)) first.data.alsoFlaggedBy = [...also, d.ruleId];
    }
  }
  return [...byKey.values()];
}

export function passedRules(rules: readonly AxeRuleResult[]): PassedRule[] {
  const out: PassedRule[] = [];
  for (const rule of rules) {
    const sc = criterionForTags(rule.tags);
    if (sc) out.push({ ruleId: rule.id, help: rule.help, wcagCriterion: sc.id, elements: rule.nodes.length });
  }
  return out;
}

export function normaliseSelector(selector: string): string {
  return selector.replace(/\s+/g, ' ').trim();
}

/** Identity of an issue across crawls: page URL, rule, normalised selector. */
export function fingerprint(pageUrl: string, ruleId: string, selector: string): string {
  return createHash('sha256').update(`${pageUrl}\n${ruleId}\n${normaliseSelector(selector)}`).digest('hex').slice(0, 40);
}
