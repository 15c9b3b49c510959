import type { PageScanHistoryEntry } from '../db/repositories/page.repository.ts';
import type { IssueWithPage } from '../db/repositories/issue.repository.ts';
import type { CrawlRecord, PageRecord, ScanRecord, SiteRecord } from '../db/repositories/records.ts';
import type { IssueCounts, IssueStatus, UnfinishedEngine } from '../shared/contracts.ts';
import type { ElementFailure, FindingData, FindingRecord } from '../shared/findings.ts';
import { iso } from './schemas/common.schema.ts';

/** `alsoFlaggedBy` on its own, the rest of a finding's data as its evidence. */
export function flaggedAndEvidence(data: FindingData | null | undefined): { alsoFlaggedBy: string[]; evidence: Record<string, unknown> } {
  const { alsoFlaggedBy, ...evidence } = data ?? {};
  return { alsoFlaggedBy: Array.isArray(alsoFlaggedBy) ? alsoFlaggedBy : [], evidence };
}

/** `findingFields` (schemas/finding.schema.ts) of a finding or an issue, in their order. */
function findingFieldsDto(f: ElementFailure) {
  return {
    type: f.type,
    severity: f.severity,
    wcagCriterion: f.wcagCriterion,
    wcagLevel: f.wcagLevel,
    wcagCriteria: f.wcagCriteria,
    elementSelector: f.elementSelector,
    elementHtml: f.elementHtml,
    description: f.description,
    fixSuggestion: f.fixSuggestion,
    axeRuleId: f.ruleId,
  };
}

/** `findingStatusFields` (schemas/finding.schema.ts) of a finding or an issue, in their order. */
function findingStatusFieldsDto(f: ElementFailure, status: IssueStatus) {
  return {
    status,
    helpUrl: f.helpUrl,
    ...flaggedAndEvidence(f.data),
    state: f.state,
    viewport: f.viewport,
  };
}

export function scanIssueDto(f: FindingRecord, status: IssueStatus = 'open') {
  return {
    id: f.id,
    ...findingFieldsDto(f),
    ...findingStatusFieldsDto(f, status),
  };
}

export function scanListItemDto(s: ScanRecord) {
  return {
    id: s.id,
    url: s.url,
    status: s.status,
    progress: s.progress,
    currentStage: s.status === 'running' ? s.currentStage : null,
    createdAt: iso(s.createdAt)!,
    startedAt: iso(s.startedAt),
    completedAt: iso(s.completedAt),
    pageTitle: s.pageTitle,
    overallScore: hasResults(s) ? s.score : null,
    error: s.error,
  };
}

export function hasResults(s: ScanRecord): boolean {
  return s.status === 'completed' || s.status === 'completed_partial';
}

export function scanDto(s: ScanRecord, findings: FindingRecord[] | null) {
  const results = hasResults(s);
  return {
    ...scanListItemDto(s),
    summary: results ? s.summary : null,
    issues: results && findings ? findings.map((f) => scanIssueDto(f)) : null,
    issuesLeftOut: results ? s.issuesLeftOut : null,
    incomplete: results ? incompleteDto(s.unfinishedEngines) : null,
    document: results && s.document ? { mediaType: s.document.mediaType, pages: s.document.pages, bytes: s.document.bytes } : null,
  };
}

/** The engines that did not finish on a scanned page, or null when all did. */
export function incompleteDto(unfinished: readonly UnfinishedEngine[]) {
  return unfinished.length ? { engines: unfinished.map((u) => ({ engine: u.engine, reason: u.reason })) } : null;
}

export function siteDto(s: SiteRecord) {
  return { id: s.id, hostname: s.hostname, name: s.name, baseUrl: s.baseUrl, createdAt: iso(s.createdAt)! };
}

export function crawlDto(c: CrawlRecord) {
  return {
    id: c.id,
    siteId: c.siteId,
    status: c.status,
    totalPages: c.totalPages,
    scannedPages: c.scannedPages,
    enrichedPages: c.enrichedPages,
    failedPages: c.failedPages,
    brokenLinks: c.brokenLinks,
    skippedUrls: c.skippedUrls,
    throttledMs: c.throttledMs,
    reuse: c.reuse,
    pagesReused: c.pagesReused,
    maxPages: c.maxPages,
    viewports: c.viewports,
    overallScore: c.overallScore,
    newIssues: c.newIssues,
    fixedIssues: c.fixedIssues,
    error: c.error,
    createdAt: iso(c.createdAt)!,
    startedAt: iso(c.startedAt),
    completedAt: iso(c.completedAt),
    resultsDeletedAt: iso(c.resultsDeletedAt),
  };
}

export function latestCrawlDto(c: CrawlRecord) {
  return {
    id: c.id,
    status: c.status,
    overallScore: c.overallScore,
    totalPages: c.totalPages,
    scannedPages: c.scannedPages,
    newIssues: c.newIssues,
    fixedIssues: c.fixedIssues,
    createdAt: iso(c.createdAt)!,
    completedAt: iso(c.completedAt),
  };
}

export function countsDto(c: IssueCounts | undefined) {
  const x = { critical: c?.critical ?? 0, serious: c?.serious ?? 0, moderate: c?.moderate ?? 0, minor: c?.minor ?? 0 };
  return { ...x, total: x.critical + x.serious + x.moderate + x.minor };
}

export function pageDto(p: PageRecord, counts: IssueCounts | undefined) {
  return {
    id: p.id,
    siteId: p.siteId,
    url: p.url,
    path: p.path,
    title: p.title,
    depth: p.depth,
    discoveredVia: p.discoveredVia,
    httpStatus: p.httpStatus,
    kind: p.mediaType === null ? ('page' as const) : ('document' as const),
    mediaType: p.mediaType,
    latestScore: p.latestScore,
    issueCounts: countsDto(counts),
    lastScannedAt: iso(p.lastScannedAt),
    createdAt: iso(p.createdAt)!,
  };
}

/** One entry of a page's scan history. */
export function pageScanDto(s: PageScanHistoryEntry) {
  return {
    id: s.id,
    crawlId: s.crawlId,
    status: s.status,
    score: s.score,
    issueCounts: countsDto(s.counts),
    scannedAt: iso(s.completedAt),
    durationMs: s.durationMs,
    error: s.error,
    reusedFrom: s.reusedFrom,
    incomplete: s.status === 'completed' || s.status === 'completed_partial' ? incompleteDto(s.unfinishedEngines) : null,
  };
}

export function issueDto(i: IssueWithPage) {
  return {
    id: i.id,
    siteId: i.siteId,
    pageId: i.pageId,
    pageUrl: i.pageUrl,
    ...findingFieldsDto(i),
    groupKey: i.groupKey,
    ...findingStatusFieldsDto(i, i.status),
    firstSeenAt: iso(i.firstSeenAt)!,
    lastSeenAt: iso(i.lastSeenAt)!,
    createdAt: iso(i.createdAt)!,
    updatedAt: iso(i.updatedAt)!,
  };
}

export function issueDetailDto(i: IssueWithPage) {
  return { ...issueDto(i), statusHistory: i.statusHistory, statusHistoryTotal: i.statusHistoryTotal };
}
