/**
 * The domain objects the repositories return: camelCase, timestamps as Date, JSON columns typed.
 * Each table has exactly one `…FromRow` mapper here, and every repository function that returns
 * rows goes through it, so nothing outside `src/db` reads a snake_case column name.
 */
import type { CrawlStatus, DiscoveredVia, ErrorInfo, IssueCounts, IssueStatus, PageError, ScanCoverage, ScanStage, ScanStatus, UnfinishedEngine, ViewportName } from '../../shared/contracts.ts';
import { crawlViewports } from '../../shared/viewports.ts';
import type { ElementFailure, FindingData, FindingRecord } from '../../shared/findings.ts';
import type { PassedRuleInfo, ScanSummary } from '../../shared/summary.ts';
import type { Crawl, Finding, Issue, Page, PageScan, Site, StatusChange } from '../schema.ts';

export type { StatusChange };




/** `fromRow` applied to a row that may be missing. */
export function mapRow<R, T>(fromRow: (row: R) => T, row: R | undefined): T | undefined {
  return row === undefined ? undefined : fromRow(row);
}

// ---- page_scans ---------------------------------------------------------------------------------

export interface ScanRecord {
  id: string;
  kind: 'single' | 'crawl';
  crawlId: string | null;
  pageId: string | null;
  url: string;
  status: ScanStatus;
  progress: number;
  currentStage: ScanStage | null;
  pageTitle: string | null;
  finalUrl: string | null;
  httpStatus: number | null;
  score: number | null;
  summary: ScanSummary | null;
  enginePasses: PassedRuleInfo[] | null;
  /** Findings past the per-page cap, counted per rule (null: none left out). */
  issuesLeftOut: { total: number; byRule: Record<string, number> } | null;
  /** The engines that did not finish on the page (its results stand without theirs); empty: all finished. */
  unfinishedEngines: UnfinishedEngine[];
  /** Set when the scan audited a document (a PDF) rather than a page. */
  document: ScanCoverage['document'] | null;
  error: PageError | null;
  clientIp: string | null;
  /** Changes of a single-page scan's row so far (1 when written): its live-progress event id. */
  eventSeq: number;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  durationMs: number | null;
}

export function scanFromRow(r: PageScan): ScanRecord {
  return {
    id: r.id,
    kind: r.kind,
    crawlId: r.crawl_id,
    pageId: r.page_id,
    url: r.url,
    status: r.status as ScanStatus,
    progress: r.progress,
    currentStage: r.current_stage as ScanStage | null,
    pageTitle: r.page_title,
    finalUrl: r.final_url,
    httpStatus: r.http_status,
    score: r.score,
    summary: (r.summary as ScanSummary | null) ?? null,
    enginePasses: (r.engine_passes as PassedRuleInfo[] | null) ?? null,
    issuesLeftOut: (r.issues_left_out as ScanRecord['issuesLeftOut']) ?? null,
    unfinishedEngines: (r.coverage as ScanCoverage | null)?.unfinishedEngines ?? [],
    document: (r.coverage as ScanCoverage | null)?.document ?? null,
    error: (r.error as PageError | null) ?? null,
    clientIp: r.client_ip,
    eventSeq: Number(r.event_seq),
    createdAt: r.created_at,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    durationMs: r.duration_ms,
  };
}

// ---- findings -----------------------------------------------------------------------------------





type ElementFailureColumns =
  | 'fingerprint' | 'group_key' | 'state' | 'viewport' | 'rule_id' | 'type' | 'severity' | 'wcag_criterion' | 'wcag_level' | 'wcag_criteria' | 'element_selector' | 'element_html' | 'description' | 'fix_suggestion' | 'help_url' | 'data';

/** The columns findings and issues share (an issue is copied from a finding). */
function elementFailureFromRow(r: Pick<Finding, ElementFailureColumns>): ElementFailure {
  return {
    fingerprint: r.fingerprint,
    groupKey: r.group_key,
    state: r.state ?? null,
    viewport: r.viewport ?? null,
    ruleId: r.rule_id,
    type: r.type,
    severity: r.severity,
    wcagCriterion: r.wcag_criterion,
    wcagLevel: r.wcag_level,
    wcagCriteria: r.wcag_criteria?.length ? r.wcag_criteria : [r.wcag_criterion],
    elementSelector: r.element_selector,
    elementHtml: r.element_html,
    description: r.description,
    fixSuggestion: r.fix_suggestion,
    helpUrl: r.help_url,
    data: r.data as FindingData,
  };
}

export function findingFromRow(r: Finding): FindingRecord {
  return {
    id: r.id,
    pageScanId: r.page_scan_id,
    ...elementFailureFromRow(r),
    engineHelp: r.engine_help,
    engineDescription: r.engine_description,
    failureSummary: r.failure_summary,
    enrichedBy: r.enriched_by,
    createdAt: r.created_at,
  };
}

// ---- sites --------------------------------------------------------------------------------------

export interface SiteRecord {
  id: string;
  hostname: string;
  name: string;
  baseUrl: string;
  createdAt: Date;
}

export function siteFromRow(r: Site): SiteRecord {
  return { id: r.id, hostname: r.hostname, name: r.name, baseUrl: r.base_url, createdAt: r.created_at };
}

// ---- crawls -------------------------------------------------------------------------------------

export interface CrawlRecord {
  id: string;
  siteId: string;
  status: CrawlStatus;
  maxPages: number;
  /** The viewports each page is checked at; `["desktop"]` where the crawl stored none. */
  viewports: ViewportName[];
  totalPages: number;
  scannedPages: number;
  enrichedPages: number;
  failedPages: number;
  enrichFailedPages: number;
  overallScore: number | null;
  newIssues: number | null;
  fixedIssues: number | null;
  discoveryDone: boolean;
  brokenLinks: number;
  /** Same-site URLs over MAX_URL_LENGTH that discovery skipped. */
  skippedUrls: number;
  /** How long its fetches waited for the site in all (ms). */
  throttledMs: number;
  /** False: `{"reuse": false}`, every page audited afresh. */
  reuse: boolean;
  /** Pages whose last audit was reused because nothing they loaded changed. */
  pagesReused: number;
  /** When retention deleted its page scans and findings (null: kept). */
  resultsDeletedAt: Date | null;
  /** Model calls, cache hits and tokens its enrichment cost (all zero with the offline enricher). */
  enrichment: { calls: number; cacheHits: number; inputTokens: number; outputTokens: number };
  error: ErrorInfo | null;
  /** The Temporal workflow running the crawl; null for crawls opened before it was recorded. */
  workflowId: string | null;
  /** The issues it found, by severity, once it ended. */
  issueCounts: IssueCounts | null;
  /** Changes of the row so far (1 when written): its live-progress event id. */
  eventSeq: number;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
}

export function crawlFromRow(r: Crawl): CrawlRecord {
  return {
    id: r.id,
    siteId: r.site_id,
    status: r.status as CrawlStatus,
    maxPages: r.max_pages,
    viewports: crawlViewports(r.viewports),
    totalPages: r.total_pages,
    scannedPages: r.scanned_pages,
    enrichedPages: r.enriched_pages,
    failedPages: r.failed_pages,
    enrichFailedPages: r.enrich_failed_pages,
    overallScore: r.overall_score,
    newIssues: r.new_issues,
    fixedIssues: r.fixed_issues,
    discoveryDone: r.discovery_done,
    brokenLinks: r.broken_links,
    skippedUrls: r.skipped_urls,
    throttledMs: Number(r.throttled_ms),
    reuse: r.reuse,
    pagesReused: r.reused_pages,
    resultsDeletedAt: r.results_deleted_at,
    enrichment: { calls: r.ai_calls, cacheHits: r.ai_cache_hits, inputTokens: r.ai_input_tokens, outputTokens: r.ai_output_tokens },
    error: r.error ?? null,
    workflowId: r.workflow_id,
    issueCounts: r.issue_counts ?? null,
    eventSeq: Number(r.event_seq),
    createdAt: r.created_at,
    startedAt: r.started_at,
    completedAt: r.completed_at,
  };
}

// ---- pages --------------------------------------------------------------------------------------

export interface PageRecord {
  id: string;
  siteId: string;
  url: string;
  path: string;
  title: string | null;
  depth: number;
  discoveredVia: DiscoveredVia;
  httpStatus: number | null;
  /** A document's media type (`application/pdf`); null for an HTML page. */
  mediaType: string | null;
  latestScore: number | null;
  lastScannedAt: Date | null;
  createdAt: Date;
}

export function pageFromRow(r: Page): PageRecord {
  return {
    id: r.id,
    siteId: r.site_id,
    url: r.url,
    path: r.path,
    title: r.title,
    depth: r.depth,
    discoveredVia: r.discovered_via,
    httpStatus: r.http_status,
    mediaType: r.media_type,
    latestScore: r.latest_score,
    lastScannedAt: r.last_scanned_at,
    createdAt: r.created_at,
  };
}

// ---- issues -------------------------------------------------------------------------------------

export interface IssueRecord extends ElementFailure {
  id: string;
  siteId: string;
  pageId: string;
  status: IssueStatus;
  /** The last STATUS_HISTORY_CAP changes, oldest first. */
  statusHistory: StatusChange[];
  /** Every change ever made, including those no longer kept in `statusHistory`. */
  statusHistoryTotal: number;
  lastFindingId: string | null;
  firstCrawlId: string | null;
  lastCrawlId: string | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export function issueFromRow(r: Issue): IssueRecord {
  return {
    id: r.id,
    siteId: r.site_id,
    pageId: r.page_id,
    ...elementFailureFromRow(r),
    status: r.status,
    statusHistory: r.status_history ?? [],
    // Never fewer than are listed (rows written without the total, e.g. seeded ones).
    statusHistoryTotal: Math.max(r.status_history_total, (r.status_history ?? []).length),
    lastFindingId: r.last_finding_id,
    firstCrawlId: r.first_crawl_id,
    lastCrawlId: r.last_crawl_id,
    firstSeenAt: r.first_seen_at,
    lastSeenAt: r.last_seen_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
