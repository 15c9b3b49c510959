/**
 * The API's objects as this client reads them. The CLI speaks the HTTP contract only, so it keeps
 * its own copy of the few fields it uses instead of importing the server's schemas; the objects
 * themselves are kept whole (extra fields included) for the --json output.
 */

export const SEVERITIES = ['critical', 'serious', 'moderate', 'minor'] as const;
export type Severity = (typeof SEVERITIES)[number];

export type IssueType = 'confirmed' | 'needs_review';

export const ENDED_STATUSES = ['completed', 'completed_partial', 'failed', 'cancelled'] as const;
export type RunStatus = 'queued' | 'running' | (typeof ENDED_STATUSES)[number];

export function isEnded(status: string): boolean {
  return (ENDED_STATUSES as readonly string[]).includes(status);
}

/** Ended with results: the gates apply. `failed` and `cancelled` mean the audit did not finish. */
export function hasResults(status: string): boolean {
  return status === 'completed' || status === 'completed_partial';
}

export interface ApiIssue {
  id: string;
  type: IssueType;
  severity: Severity;
  wcagCriterion: string;
  wcagLevel: string;
  /** Every criterion the issue fails, the primary first (absent from servers older than this field). */
  wcagCriteria?: unknown;
  elementSelector: string;
  elementHtml: string;
  description: string;
  fixSuggestion: string;
  axeRuleId: string;
  status: string;
  helpUrl: string | null;
  /** Site issues only. */
  pageUrl?: string;
  [k: string]: unknown;
}

export interface ErrorInfo {
  code: string;
  message: string;
}

export interface Scan {
  id: string;
  url: string;
  status: RunStatus;
  progress: number;
  currentStage: string | null;
  pageTitle?: string | null;
  overallScore?: number | null;
  issues: ApiIssue[] | null;
  error: ErrorInfo | null;
  [k: string]: unknown;
}

export interface Site {
  id: string;
  hostname: string;
  baseUrl: string;
  [k: string]: unknown;
}

export interface Crawl {
  id: string;
  siteId: string;
  status: RunStatus;
  totalPages: number;
  scannedPages: number;
  enrichedPages: number;
  failedPages: number;
  overallScore: number | null;
  newIssues: number | null;
  fixedIssues: number | null;
  createdAt: string;
  completedAt: string | null;
  error: ErrorInfo | null;
  [k: string]: unknown;
}

export interface SitePage {
  url: string;
  lastScannedAt: string | null;
  [k: string]: unknown;
}

/**
 * One issue as the reports and gates see it, for a scan and a crawl alike: the page it is on and
 * whether it is new in this run (every issue of a single-page scan is, having no baseline).
 */
export interface AuditIssue {
  id: string;
  pageUrl: string;
  type: IssueType;
  severity: Severity;
  wcagCriterion: string;
  wcagLevel: string;
  /** Every criterion it fails, the primary first (never empty where `wcagCriterion` is set). */
  wcagCriteria: string[];
  ruleId: string;
  selector: string;
  elementHtml: string;
  description: string;
  fixSuggestion: string;
  helpUrl: string | null;
  isNew: boolean;
}

/** The issue's criteria, the primary first: what the server sent, or its primary alone. */
function criteriaOf(issue: ApiIssue): string[] {
  const primary = typeof issue.wcagCriterion === 'string' && issue.wcagCriterion !== '' ? [issue.wcagCriterion] : [];
  const sent = Array.isArray(issue.wcagCriteria) ? issue.wcagCriteria.filter((c): c is string => typeof c === 'string' && c !== '') : [];
  return [...new Set([...primary, ...sent])];
}

export function toAuditIssue(issue: ApiIssue, pageUrl: string, isNew: boolean): AuditIssue {
  // The contract makes these strings; a missing one must not break a report, so it becomes empty.
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    id: issue.id,
    pageUrl,
    type: issue.type,
    severity: issue.severity,
    wcagCriterion: text(issue.wcagCriterion),
    wcagLevel: text(issue.wcagLevel),
    wcagCriteria: criteriaOf(issue),
    ruleId: issue.axeRuleId,
    selector: issue.elementSelector,
    elementHtml: text(issue.elementHtml),
    description: text(issue.description),
    fixSuggestion: text(issue.fixSuggestion),
    helpUrl: typeof issue.helpUrl === 'string' && issue.helpUrl !== '' ? issue.helpUrl : null,
    isNew,
  };
}
