/**
 * SARIF 2.1.0 for code-scanning dashboards. Page content (descriptions, selectors, element HTML)
 * is untrusted: it only ever becomes JSON string values, and JSON.stringify escapes it.
 */
import { createHash } from 'node:crypto';
import { successCriterion } from '../shared/wcag.ts';
import type { AuditIssue, Severity } from './types.ts';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
export const FINGERPRINT_KEY = 'a11yIssue/v1';

export type SarifLevel = 'error' | 'warning' | 'note';

export interface SarifInput {
  issues: readonly AuditIssue[];
  /** A crawl compares with the site's previous crawl; a single-page scan has no baseline. */
  hasBaseline: boolean;
  toolVersion: string;
  informationUri: string;
  endTime: Date;
  executionSuccessful: boolean;
  /** Said once for the whole run, e.g. that some pages could not be scanned. */
  warnings?: readonly string[];
}

const LEVEL_RANK: Record<SarifLevel, number> = { error: 0, warning: 1, note: 2 };

/** needs_review issues are notes whatever their severity: the engine could not decide them. */
export function sarifLevel(issue: Pick<AuditIssue, 'type' | 'severity'>): SarifLevel {
  if (issue.type !== 'confirmed') return 'note';
  const bySeverity: Record<Severity, SarifLevel> = { critical: 'error', serious: 'error', moderate: 'warning', minor: 'note' };
  return bySeverity[issue.severity];
}

/** Stable across runs for the same rule on the same element of the same page, as the service's own issue identity is. */
export function issueFingerprint(issue: Pick<AuditIssue, 'pageUrl' | 'ruleId' | 'selector'>): string {
  return createHash('sha256').update(`${issue.pageUrl}\n${issue.ruleId}\n${issue.selector}`).digest('hex');
}

const criterionTag = (id: string, level: string) => `WCAG ${id}${level ? ` (${level})` : ''}`;

/** `image-alt` -> `ImageAlt`: SARIF wants a rule name that is an identifier, not the id again. */
export function ruleName(ruleId: string): string {
  const name = ruleId
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
  return name || 'Rule';
}

/** Absolute http(s) URLs only, normalised; anything else is left out rather than make the log invalid. */
function absoluteUrl(value: string | null): string | undefined {
  if (!value) return undefined;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** A page URL as the artifact's URI: normalised when it parses, else as given (a URI reference). */
function artifactUri(pageUrl: string): string {
  return absoluteUrl(pageUrl) ?? encodeURI(pageUrl);
}

interface RuleInfo {
  id: string;
  criteria: Map<string, string>;
  helpUri: string | undefined;
  level: SarifLevel;
}

function collectRules(issues: readonly AuditIssue[]): RuleInfo[] {
  const rules = new Map<string, RuleInfo>();
  for (const issue of issues) {
    let rule = rules.get(issue.ruleId);
    if (!rule) {
      rule = { id: issue.ruleId, criteria: new Map(), helpUri: undefined, level: 'note' };
      rules.set(issue.ruleId, rule);
    }
    // Every criterion the issue fails, each with its own level (the issue's is the lowest of them).
    for (const c of issue.wcagCriteria.length ? issue.wcagCriteria : issue.wcagCriterion ? [issue.wcagCriterion] : []) {
      if (!rule.criteria.has(c)) rule.criteria.set(c, successCriterion(c)?.level ?? (c === issue.wcagCriterion ? issue.wcagLevel : ''));
    }
    rule.helpUri ??= absoluteUrl(issue.helpUrl);
    const level = sarifLevel(issue);
    if (LEVEL_RANK[level] < LEVEL_RANK[rule.level]) rule.level = level;
  }
  return [...rules.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function ruleDescriptor(rule: RuleInfo) {
  const criteria = [...rule.criteria].map(([id, level]) => {
    const sc = successCriterion(id);
    return { tag: criterionTag(id, level || sc?.level || ''), text: `WCAG 2.2 ${id}${sc ? ` ${sc.title}` : ''}${level || sc?.level ? ` (level ${level || sc?.level})` : ''}` };
  });
  return {
    id: rule.id,
    name: ruleName(rule.id),
    shortDescription: { text: criteria.length > 0 ? `${rule.id}: ${criteria.map((c) => c.text).join('; ')}` : rule.id },
    ...(rule.helpUri ? { helpUri: rule.helpUri } : {}),
    defaultConfiguration: { level: rule.level },
    properties: { tags: ['accessibility', 'wcag2.2', ...new Set(criteria.map((c) => c.tag))] },
  };
}

function messageText(issue: AuditIssue): string {
  const parts = [issue.description.trim() || `${issue.ruleId} failed on ${issue.selector}`];
  if (issue.fixSuggestion.trim()) parts.push(`How to fix: ${issue.fixSuggestion.trim()}`);
  return parts.join('\n\n');
}

export function buildSarif(input: SarifInput) {
  const rules = collectRules(input.issues);
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const results = input.issues.map((issue) => ({
    ruleId: issue.ruleId,
    ruleIndex: ruleIndex.get(issue.ruleId)!,
    level: sarifLevel(issue),
    message: { text: messageText(issue) },
    locations: [
      {
        physicalLocation: { artifactLocation: { uri: artifactUri(issue.pageUrl) } },
        logicalLocations: [{ fullyQualifiedName: issue.selector, kind: 'element' }],
      },
    ],
    partialFingerprints: { [FINGERPRINT_KEY]: issueFingerprint(issue) },
    ...(input.hasBaseline ? { baselineState: issue.isNew ? ('new' as const) : ('unchanged' as const) } : {}),
    properties: {
      issueId: issue.id,
      severity: issue.severity,
      wcagCriterion: issue.wcagCriterion,
      wcagLevel: issue.wcagLevel,
      wcagCriteria: issue.wcagCriteria,
      type: issue.type,
      elementHtml: issue.elementHtml,
    },
  }));
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0' as const,
    runs: [
      {
        tool: {
          driver: {
            name: 'a11y-audit',
            version: input.toolVersion,
            informationUri: input.informationUri,
            rules: rules.map(ruleDescriptor),
          },
        },
        invocations: [
          {
            executionSuccessful: input.executionSuccessful,
            endTimeUtc: input.endTime.toISOString(),
            ...(input.warnings && input.warnings.length > 0
              ? { toolExecutionNotifications: input.warnings.map((text) => ({ level: 'warning' as const, message: { text } })) }
              : {}),
          },
        ],
        results,
      },
    ],
  };
}

export type SarifLog = ReturnType<typeof buildSarif>;
