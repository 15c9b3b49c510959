/** What enrichment reads of a finding and writes for a scan: the page's summary and priorities. */
import type { Severity } from './contracts.ts';

/** The finding fields enrichment reads: engine facts, never free page text as instructions. */
export interface EnrichableFinding {
  id: string;
  ruleId: string;
  type: 'confirmed' | 'needs_review';
  severity: Severity;
  wcagCriterion: string;
  wcagLevel: 'A' | 'AA';
  /** Every criterion it fails, the primary first (unset: the primary only). */
  wcagCriteria?: readonly string[];
  elementSelector: string;
  engineHelp: string;
  engineDescription: string;
  failureSummary: string;
  /** The element's HTML as the engine saw it (shortened by the engine). */
  elementHtml?: string;
  /** What the engine measured (`contrast`, `target`, `element`, `review`; see FindingData). */
  data?: Record<string, unknown>;
  /** The issue group (rule + template element), when the scan assigned one. */
  groupKey?: string | null;
}

/** The page a finding is on, for texts that name it or resolve links against it. */
export interface PageInfo {
  url: string;
  title: string | null;
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
