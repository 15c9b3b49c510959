import type { Crawl, Finding, Issue, Page, PageScan, Site } from '../db/schema.ts';
import { iso } from './schemas/common.schema.ts';

export function scanIssueDto(f: Finding, status: 'open' | 'fixed' | 'dismissed' | 'cant_fix' = 'open') {
  const data = (f.data ?? {}) as { alsoFlaggedBy?: string[] };
  return {
    id: f.id,
    type: f.type,
    severity: f.severity,
    wcagCriterion: f.wcag_criterion,
    wcagLevel: f.wcag_level,
    elementSelector: f.element_selector,
    elementHtml: f.element_html,
    description: f.description,
    fixSuggestion: f.fix_suggestion,
    axeRuleId: f.rule_id,
    status,
    helpUrl: f.help_url,
    alsoFlaggedBy: data.alsoFlaggedBy ?? [],
  };
}

export function scanListItemDto(s: PageScan) {
  return {
    id: s.id,
    url: s.url,
    status: s.status as 'queued',
    progress: s.progress,
    currentStage: s.status === 'running' ? s.current_stage : null,
    createdAt: iso(s.created_at)!,
    startedAt: iso(s.started_at),
    completedAt: iso(s.completed_at),
    pageTitle: s.page_title,
    overallScore: hasResults(s) ? s.score : null,
    error: (s.error as { code: 'timeout'; message: string } | null) ?? null,
  };
}

export function hasResults(s: PageScan): boolean {
  return s.status === 'completed' || s.status === 'completed_partial';
}

export function scanDto(s: PageScan, findings: Finding[] | null) {
  const results = hasResults(s);
  return {
    ...scanListItemDto(s),
    summary: results ? ((s.summary as any) ?? null) : null,
    issues: results && findings ? findings.map((f) => scanIssueDto(f)) : null,
  };
}

export function siteDto(s: Site) {
  return { id: s.id, hostname: s.hostname, name: s.name, baseUrl: s.base_url, createdAt: iso(s.created_at)! };
}

type CrawlStatus = 'queued' | 'running' | 'completed' | 'completed_partial' | 'cancelled' | 'failed';

export function crawlDto(c: Crawl) {
  return {
    id: c.id,
    siteId: c.site_id,
    status: c.status as CrawlStatus,
    totalPages: c.total_pages,
    scannedPages: c.scanned_pages,
    enrichedPages: c.enriched_pages,
    failedPages: c.failed_pages,
    brokenLinks: c.broken_links,
    maxPages: c.max_pages,
    overallScore: c.overall_score,
    newIssues: c.new_issues,
    fixedIssues: c.fixed_issues,
    error: (c.error as { code: string; message: string } | null) ?? null,
    createdAt: iso(c.created_at)!,
    startedAt: iso(c.started_at),
    completedAt: iso(c.completed_at),
  };
}

export function latestCrawlDto(c: Crawl) {
  return {
    id: c.id,
    status: c.status as CrawlStatus,
    overallScore: c.overall_score,
    totalPages: c.total_pages,
    scannedPages: c.scanned_pages,
    newIssues: c.new_issues,
    fixedIssues: c.fixed_issues,
    createdAt: iso(c.created_at)!,
    completedAt: iso(c.completed_at),
  };
}

export interface IssueCountsRow {
  critical: number;
  serious: number;
  moderate: number;
  minor: number;
}

export function countsDto(c: IssueCountsRow | undefined) {
  const x = { critical: c?.critical ?? 0, serious: c?.serious ?? 0, moderate: c?.moderate ?? 0, minor: c?.minor ?? 0 };
  return { ...x, total: x.critical + x.serious + x.moderate + x.minor };
}

export function pageDto(p: Page, counts: IssueCountsRow | undefined) {
  return {
    id: p.id,
    siteId: p.site_id,
    url: p.url,
    path: p.path,
    title: p.title,
    depth: p.depth,
    discoveredVia: p.discovered_via,
    httpStatus: p.http_status,
    latestScore: p.latest_score,
    issueCounts: countsDto(counts),
    lastScannedAt: iso(p.last_scanned_at),
    createdAt: iso(p.created_at)!,
  };
}

export function issueDto(i: Issue & { page_url: string }) {
  return {
    id: i.id,
    siteId: i.site_id,
    pageId: i.page_id,
    pageUrl: i.page_url,
    type: i.type,
    severity: i.severity,
    wcagCriterion: i.wcag_criterion,
    wcagLevel: i.wcag_level,
    elementSelector: i.element_selector,
    elementHtml: i.element_html,
    description: i.description,
    fixSuggestion: i.fix_suggestion,
    axeRuleId: i.rule_id,
    status: i.status,
    helpUrl: i.help_url,
    firstSeenAt: iso(i.first_seen_at)!,
    lastSeenAt: iso(i.last_seen_at)!,
    createdAt: iso(i.created_at)!,
    updatedAt: iso(i.updated_at)!,
  };
}

export function issueDetailDto(i: Issue & { page_url: string }) {
  return { ...issueDto(i), statusHistory: (i.status_history as any[]) ?? [] };
}
