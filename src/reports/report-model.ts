/**
 * The report model: one plain, typed object that `report-data.ts` builds from the database and
 * that `render-pdf.ts` and `render-xlsx.ts` turn into bytes. Renderers never touch the database or
 * Temporal; everything they print is here. Lists that can be large (every issue of a crawl, every
 * new or fixed issue) are async iterables read in batches, so a 50,000-issue crawl is streamed,
 * never held in memory; the rest is small and aggregated in SQL.
 *
 * Every string in here that came from a page (titles, selectors, HTML, link texts) or from a user
 * (notes) is untrusted: renderers print it as text and the workbook passes it through `safeCell`.
 */
import type { InteractionState, IssueType, Severity, ViewportName, WcagLevel } from '../shared/contracts.ts';
import type { DiffByRule, DiffRow, IssueRow } from '../db/repositories/report.repository.ts';
import type { PositiveFinding } from '../shared/summary.ts';

export type { IssueStatus } from '../shared/contracts.ts';
export type { DiffByRule, DiffRow, IssueRow, PositiveFinding };

/** An issue row as reports print it: with the URL of its picture (null when it has none). */
export type ReportIssueRow = IssueRow & { screenshotUrl: string | null };

export type ReportKind = 'scan' | 'crawl';
export type WcagPrinciple = 'Perceivable' | 'Operable' | 'Understandable' | 'Robust';

export interface SeverityCounts {
  critical: number;
  serious: number;
  moderate: number;
  minor: number;
  total: number;
}

/** What was audited and how: the report's metadata block. */
export interface ReportTarget {
  kind: ReportKind;
  /** The scan's or crawl's id. */
  id: string;
  /** Host name of the site or of the scanned URL (file names use it). */
  hostname: string;
  /** The scanned URL (scan) or the site's base URL (crawl). */
  url: string;
  /** The site's name (crawl) or the page title (scan), may be null. */
  name: string | null;
  status: string;
  startedAt: Date | null;
  completedAt: Date | null;
  durationMs: number | null;
  /** WCAG 2.2 Level A and AA. */
  standard: string;
  /** e.g. "axe-core 4.14.1 with the service's own checks". */
  engine: string;
  /** The engines that checked the pages, with their versions. */
  engines: ReportEngine[];
  /** e.g. "Chromium (headless), 1280x800 and 390 px mobile pass". */
  browser: string;
  /** Crawl only: page budget, pages found / scanned / failed, broken links. Null for a scan. */
  crawl: {
    maxPages: number;
    totalPages: number;
    scannedPages: number;
    failedPages: number;
    enrichedPages: number;
    brokenLinks: number;
  } | null;
}

/** Pages that could not be scanned, and why (e.g. `timeout`, `http_error`). */
export interface FailedPage {
  url: string;
  code: string;
  message: string;
}

export interface ReportSummary {
  /** 0..100, null when no page was scanned. */
  score: number | null;
  /** The score formula in one or two sentences, for the report's reader. */
  scoreFormula: string;
  /** Plain-language summary paragraph (the scan's enricher summary, or one built for the crawl). */
  text: string;
  /** Distinct issues (one rule failing on one element of one page). */
  issues: number;
  /** Pages with at least one issue / pages scanned. */
  pagesAffected: number;
  pagesScanned: number;
  bySeverity: SeverityCounts;
  byType: Record<IssueType, number>;
  byPrinciple: Record<WcagPrinciple, number>;
  /** Crawl with a previous crawl: new, fixed and persisting issue counts. Null otherwise. */
  change: { newIssues: number; fixedIssues: number; persisting: number; previousScore: number | null } | null;
}

/** An Accessibility Conformance Report's level for a criterion (OpenACR's term ids; see conformance.ts). */
export type ConformanceLevel = 'supports' | 'partially-supports' | 'does-not-support' | 'not-evaluated';

/** One criterion of the conformance report: what the automated evidence allows it to say. */
export interface ConformanceRow {
  id: string;
  title: string;
  level: WcagLevel;
  conformance: ConformanceLevel;
  /** Remarks and explanations: the count and worst examples, or why it was not evaluated. */
  remarks: string;
  confirmedIssues: number;
  /** Pages with a confirmed issue against it / pages audited. */
  pagesAffected: number;
  pagesAudited: number;
  /** The worst confirmed examples (one per rule, severity first), at most three. */
  examples: Array<{ ruleId: string; title: string; severity: Severity; pageUrl: string; selector: string }>;
}

/** A checking engine and its version, as the report names them. */
export interface ReportEngine {
  name: string;
  version: string;
}

/** One of the few things to fix first: a rule group ranked by severity and reach. */
export interface TopPriority {
  title: string;
  ruleId: string;
  severity: Severity;
  wcagCriterion: string;
  elements: number;
  pages: number;
  reason: string;
}

/** One row of the by-criterion table: every WCAG 2.2 A/AA criterion is listed. */
export interface CriterionResult {
  id: string;
  title: string;
  level: WcagLevel;
  principle: WcagPrinciple;
  /** fails: a confirmed issue; needs_review: only undecided ones; passed: checked, nothing found; not_checked: no automated check ran. */
  result: 'fails' | 'needs_review' | 'passed' | 'not_checked';
  rules: string[];
  /** Issues failing it: an issue with several criteria counts under each (so the rows do not add up to the total). */
  issues: number;
  pages: number;
}

export interface ExampleElement {
  pageUrl: string;
  selector: string;
  /** The element's HTML, already truncated to a readable snippet. */
  html: string;
  /** The interaction that revealed it, or null (the page as loaded). */
  state: InteractionState | null;
  /** The viewport it was found at in a crawl with several, or null. */
  viewport: ViewportName | null;
  /** Where the API serves its picture (absolute when the report knows the API's origin), or null when it has none. */
  screenshotUrl: string | null;
}

/** A group's picture: its first example element in context, outlined (a PNG of a few dozen KB). */
export interface GroupPicture {
  image: Buffer;
  width: number;
  height: number;
  /** Alternative text for the PDF's Figure. */
  alt: string;
}

/** Issues of one rule under one WCAG criterion, across all pages of the report. */
export interface IssueGroup {
  ruleId: string;
  /** The rule's short help text, e.g. "Images must have alternative text". */
  title: string;
  wcagCriterion: string;
  criterionTitle: string;
  wcagLevel: WcagLevel;
  /** Every criterion the group's issues fail, the primary (`wcagCriterion`) first. */
  wcagCriteria: string[];
  principle: WcagPrinciple;
  /** The worst severity among the group's issues. */
  severity: Severity;
  /** confirmed if any member is confirmed, else needs_review. */
  type: IssueType;
  elements: number;
  pages: number;
  description: string;
  fixSuggestion: string;
  /** Who wrote the texts: `offline` (built-in), a model name (AI-written, say so), or null (engine text). */
  enrichedBy: string | null;
  helpUrl: string | null;
  /** Up to three example elements. */
  examples: ExampleElement[];
  /** The first few page URLs affected (at most five). */
  examplePages: string[];
  /** The picture of `examples[0]`, for the first groups of the report; null when there is none. */
  picture: GroupPicture | null;
}

export interface ReportPage {
  url: string;
  title: string | null;
  /** An HTML page, or a document (a PDF) the site links to, audited from the file. */
  kind: 'page' | 'document';
  /** null when the page failed to scan. */
  score: number | null;
  /** `scanned`, or `failed` with `error`. */
  state: 'scanned' | 'failed';
  error: { code: string; message: string } | null;
  /** Issues found on this page by this scan or crawl. */
  counts: SeverityCounts;
}

export interface ReportDiff {
  previous: { id: string; completedAt: Date | null; overallScore: number | null } | null;
  newIssues: number;
  fixedIssues: number;
  newByRule: DiffByRule[];
  fixedByRule: DiffByRule[];
  newRows(): AsyncIterable<DiffRow[]>;
  fixedRows(): AsyncIterable<DiffRow[]>;
}

/** One ended crawl of the site, oldest first, this crawl last. */
export interface TrendPoint {
  crawlId: string;
  completedAt: Date | null;
  overallScore: number | null;
  counts: SeverityCounts;
  newIssues: number | null;
  fixedIssues: number | null;
}

export interface Report {
  kind: ReportKind;
  /** Document title, e.g. "Accessibility report: example.com". */
  title: string;
  /** BCP 47 language of the report's own text. */
  lang: string;
  generatedAt: Date;
  target: ReportTarget;
  summary: ReportSummary;
  topPriorities: TopPriority[];
  positiveFindings: PositiveFinding[];
  /** All WCAG 2.2 A/AA criteria in order. */
  criteria: CriterionResult[];
  /** The same criteria as a conformance report states them, for the web pages audited. */
  conformance: ConformanceRow[];
  /**
   * The same for the documents (PDFs) audited, OpenACR's `electronic-docs` component; null when
   * the audit met no document.
   */
  documentConformance: ConformanceRow[] | null;
  /** Sorted by severity, then pages affected, then elements. */
  groups: IssueGroup[];
  /** Sorted by score (worst first, failed pages last), then URL. May be capped: see `pagesTotal`. */
  pages: ReportPage[];
  pagesTotal: number;
  failedPages: FailedPage[];
  /** Crawl only. */
  diff: ReportDiff | null;
  /** Crawl only; at least this crawl when it has a score. */
  trend: TrendPoint[];
  /** Every issue, in batches, ordered by severity, page URL, id. */
  issueRows(): AsyncIterable<ReportIssueRow[]>;
}
