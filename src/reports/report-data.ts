/**
 * Builds the report model of a single-page scan or a crawl from the database. Small parts are
 * read whole (aggregated in SQL); every-issue lists stay cursors that the renderer pulls. The
 * pure parts (criteria table, priorities, summary text) are exported for unit tests.
 */
import { createRequire } from 'node:module';
import { FIX_GUIDES, DEFAULT_GUIDE } from '../shared/rules/index.ts';
import {
  crawlTrend,
  diffByRule,
  findingCounts,
  issueGroups,
  passedRules,
  previousCrawl,
  reportPages,
  streamDiffRows,
  streamIssueRows,
  type CountsRow,
  type GroupRow,
  type IssueRow,
  type PageRow,
  type PassRow,
  type ReportScope,
  confirmedByCriterion,
} from '../db/repositories/report.repository.ts';
import type { CrawlRecord, ScanRecord, SiteRecord } from '../db/repositories/records.ts';
import { screenshotsOf } from '../db/repositories/screenshot.repository.ts';
import { pngSize } from '../shared/png-size.ts';
import type { Database } from '../db/schema.ts';
import { BROWSER_SETUP, OWN_CHECKS, STANDARD } from '../shared/audit-setup.ts';
import { VERSION as SERVICE_VERSION } from '../shared/version.ts';
import { conformance, documentConformance, isDocumentRule } from './conformance.ts';
import { SEVERITIES, type Severity } from '../shared/contracts.ts';
import { NEEDS_REVIEW_FACTOR, SEVERITY_WEIGHTS } from '../shared/score.ts';
import { WCAG22_A_AA, successCriterion } from '../shared/wcag.ts';
import type {
  CriterionResult,
  IssueGroup,
  PositiveFinding,
  Report,
  ReportEngine,
  ReportIssueRow,
  ReportPage,
  ReportSummary,
  SeverityCounts,
  TopPriority,
  WcagPrinciple,
} from './report-model.ts';

export const PRINCIPLES: readonly WcagPrinciple[] = ['Perceivable', 'Operable', 'Understandable', 'Robust'];

export function principleOf(criterion: string): WcagPrinciple {
  return PRINCIPLES[Number(criterion.split('.')[0]) - 1] ?? 'Robust';
}

const AXE_VERSION: string = createRequire(import.meta.url)('axe-core/package.json').version;
/** The engines every report names: axe-core and the service's own checks (at the service's version). */
export const ENGINES: ReportEngine[] = [
  { name: 'axe-core', version: AXE_VERSION },
  { name: `a11y-audit checks: ${Object.values(OWN_CHECKS).join('; ')}`, version: SERVICE_VERSION },
];
export const ENGINE = `axe-core ${AXE_VERSION} with a11y-audit ${SERVICE_VERSION}\u2019s own checks (${Object.values(OWN_CHECKS).join(', ')})`;

const pct = (w: number) => w.toFixed(2);
export const SCORE_FORMULA =
  `A page scores round(100 \u00d7 \u220f(1 \u2212 w)) over its failing rules (not elements), where w is the weight of the rule\u2019s worst severity: ` +
  `critical ${pct(SEVERITY_WEIGHTS.critical)}, serious ${pct(SEVERITY_WEIGHTS.serious)}, moderate ${pct(SEVERITY_WEIGHTS.moderate)}, minor ${pct(SEVERITY_WEIGHTS.minor)}, ` +
  `and ${NEEDS_REVIEW_FACTOR * 100}% of that when the rule only needs review. A page without issues scores 100; a crawl scores the mean of its scanned pages.`;

export function severityCounts(parts: Partial<Record<Severity, number>>): SeverityCounts {
  const c = { critical: parts.critical ?? 0, serious: parts.serious ?? 0, moderate: parts.moderate ?? 0, minor: parts.minor ?? 0 };
  return { ...c, total: c.critical + c.serious + c.moderate + c.minor };
}

const rank = (s: Severity) => SEVERITIES.indexOf(s);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Where the API serves the picture of the issue `id` (a site issue in a crawl, a finding in a scan). */
export type PictureUrl = (id: string) => string;

export function pictureUrlOf(scope: ReportScope, baseUrl?: string | null): PictureUrl {
  const base = (baseUrl ?? '').replace(/\/+$/, '');
  return scope.kind === 'scan'
    ? (id) => `${base}/api/scans/${scope.scanId}/issues/${id}/screenshot`
    : (id) => `${base}/api/sites/${scope.siteId}/issues/${id}/screenshot`;
}

/** Groups with at most this many pictures in a report (each a few dozen KB). */
export const MAX_GROUP_PICTURES = 40;

export function toGroups(rows: readonly GroupRow[], pictureUrl?: PictureUrl): IssueGroup[] {
  return rows
    .map((r) => ({
      ruleId: r.ruleId,
      title: r.title,
      wcagCriterion: r.wcagCriterion,
      criterionTitle: successCriterion(r.wcagCriterion)?.title ?? r.wcagCriterion,
      wcagLevel: r.wcagLevel,
      wcagCriteria: r.wcagCriteria,
      principle: principleOf(r.wcagCriterion),
      severity: r.severity,
      type: r.type,
      elements: r.elements,
      pages: r.pages,
      description: r.description,
      fixSuggestion: r.fixSuggestion,
      enrichedBy: r.enrichedBy,
      helpUrl: r.helpUrl,
      examples: r.examples.map((e) => ({
        pageUrl: e.pageUrl,
        selector: e.selector,
        html: e.html,
        state: e.state,
        viewport: e.viewport,
        screenshotUrl: e.hasScreenshot && e.issueId && pictureUrl ? pictureUrl(e.issueId) : null,
      })),
      examplePages: r.examplePages,
      picture: null,
    }))
    .sort(
      (a, b) =>
        rank(a.severity) - rank(b.severity) ||
        Number(b.type === 'confirmed') - Number(a.type === 'confirmed') ||
        b.pages - a.pages ||
        b.elements - a.elements ||
        a.wcagCriterion.localeCompare(b.wcagCriterion, 'en', { numeric: true }) ||
        a.ruleId.localeCompare(b.ruleId),
    );
}

/** The groups to fix first: confirmed before needs-review, then severity, then reach. */
export function topPriorities(groups: readonly IssueGroup[], max = 5): TopPriority[] {
  return [...groups]
    .sort(
      (a, b) =>
        Number(b.type === 'confirmed') - Number(a.type === 'confirmed') ||
        rank(a.severity) - rank(b.severity) ||
        b.pages - a.pages ||
        b.elements - a.elements ||
        a.ruleId.localeCompare(b.ruleId),
    )
    .slice(0, max)
    .map((g) => ({
      title: g.title,
      ruleId: g.ruleId,
      severity: g.severity,
      wcagCriterion: g.wcagCriterion,
      elements: g.elements,
      pages: g.pages,
      reason: `${(FIX_GUIDES[g.ruleId] ?? DEFAULT_GUIDE).who} ${plural(g.elements, 'element')} on ${plural(g.pages, 'page')}.`,
    }));
}

/**
 * Every WCAG 2.2 A/AA criterion with what the automated checks found for it. A group counts under
 * each of its criteria (`wcagCriteria`), the primary and the further ones: an unlabelled field
 * makes 4.1.2, 1.3.1 and 3.3.2 fail, and its issues are counted in each of those rows.
 */
export function criteriaResults(groups: readonly IssueGroup[], passes: readonly PassRow[]): CriterionResult[] {
  return WCAG22_A_AA.map((sc) => {
    const failing = groups.filter((g) => g.wcagCriterion === sc.id || g.wcagCriteria.includes(sc.id));
    const passed = passes.filter((p) => p.wcagCriterion === sc.id);
    const rules = [...new Set([...failing.map((g) => g.ruleId), ...passed.map((p) => p.ruleId)])].sort();
    const result: CriterionResult['result'] = failing.some((g) => g.type === 'confirmed')
      ? 'fails'
      : failing.length > 0
        ? 'needs_review'
        : passed.length > 0
          ? 'passed'
          : 'not_checked';
    return {
      id: sc.id,
      title: sc.title,
      level: sc.level,
      principle: principleOf(sc.id),
      result,
      rules,
      issues: failing.reduce((n, g) => n + g.elements, 0),
      pages: failing.reduce((n, g) => Math.max(n, g.pages), 0),
    };
  });
}

/** Criteria checked with no failure, the most elements checked first. */
export function positiveFindings(criteria: readonly CriterionResult[], passes: readonly PassRow[], max = 5): PositiveFinding[] {
  const clean = new Set(criteria.filter((c) => c.result === 'passed').map((c) => c.id));
  const best = new Map<string, PassRow>();
  for (const p of passes) {
    if (!clean.has(p.wcagCriterion) || p.elements === 0) continue;
    const cur = best.get(p.wcagCriterion);
    if (!cur || p.elements > cur.elements) best.set(p.wcagCriterion, p);
  }
  return [...best.values()]
    .sort((a, b) => b.elements - a.elements || a.ruleId.localeCompare(b.ruleId))
    .slice(0, max)
    .map((p) => {
      const sc = successCriterion(p.wcagCriterion);
      return {
        title: p.help.trim().replace(/\.$/, ''),
        detail: `${plural(p.elements, 'element')} on ${plural(p.pages, 'page')} checked; no automated failure against WCAG ${p.wcagCriterion}${sc ? ` ${sc.title}` : ''} (the checks decide only part of it: a person must confirm it is met).`,
        wcagCriterion: p.wcagCriterion,
      };
    });
}

export function summaryCounts(rows: readonly CountsRow[]) {
  const bySeverity: Partial<Record<Severity, number>> = {};
  const byType = { confirmed: 0, needs_review: 0 };
  const byPrinciple = Object.fromEntries(PRINCIPLES.map((p) => [p, 0])) as Record<WcagPrinciple, number>;
  for (const r of rows) {
    bySeverity[r.severity] = (bySeverity[r.severity] ?? 0) + r.n;
    byType[r.type] += r.n;
    byPrinciple[PRINCIPLES[r.principle - 1] ?? 'Robust'] += r.n;
  }
  return { bySeverity: severityCounts(bySeverity), byType, byPrinciple };
}

/** The executive summary's paragraph for a crawl (a scan uses the summary its enrichment wrote). */
export function crawlSummaryText(v: {
  hostname: string;
  score: number | null;
  scanned: number;
  found: number;
  failed: number;
  issues: number;
  confirmed: number;
  pagesAffected: number;
  criteria: number;
  first: TopPriority | undefined;
  change: ReportSummary['change'];
}): string {
  const parts = [
    `${v.hostname}: ${plural(v.scanned, 'page')} scanned of ${v.found} found` + (v.failed ? ` (${v.failed} could not be scanned)` : '') + '.',
  ];
  if (v.score !== null) parts.push(`The site scores ${v.score}/100.`);
  if (v.issues === 0) parts.push('The automated checks found no WCAG 2.2 A or AA failure.');
  else
    parts.push(
      `The automated checks found ${plural(v.issues, 'issue')} (${v.confirmed} confirmed, ${v.issues - v.confirmed} to review by hand) ` +
        `on ${plural(v.pagesAffected, 'page')}, against ${plural(v.criteria, 'WCAG criterion', 'WCAG criteria')}.`,
    );
  if (v.change)
    parts.push(
      `Since the previous crawl: ${v.change.newIssues} new, ${v.change.fixedIssues} fixed, ${v.change.persisting} still open` +
        (v.change.previousScore !== null ? ` (score then ${v.change.previousScore}/100).` : '.'),
    );
  if (v.first) parts.push(`Start with \u201c${v.first.title}\u201d: ${plural(v.first.elements, 'element')} on ${plural(v.first.pages, 'page')}.`);
  parts.push('Automated checks find only part of all barriers: test keyboard use and screen reader output by hand too.');
  return parts.join(' ');
}

function toPages(rows: readonly PageRow[]): ReportPage[] {
  return rows.map((r) => ({
    url: r.url,
    title: r.title,
    kind: r.document ? 'document' : 'page',
    score: r.scanned ? r.score : null,
    state: r.scanned ? 'scanned' : 'failed',
    error: r.scanned ? null : (r.error ?? { code: 'not_scanned', message: 'the page could not be scanned' }),
    counts: severityCounts(r),
  }));
}

function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'page';
  }
}

export type ReportSource = { kind: 'scan'; scan: ScanRecord } | { kind: 'crawl'; crawl: CrawlRecord; site: SiteRecord };


/** The first groups' pictures (their first example's), loaded into the groups. */
async function withPictures(db: Database, groups: IssueGroup[], rows: readonly GroupRow[]): Promise<void> {
  const rowOf = new Map(rows.map((r) => [`${r.wcagCriterion}\u0000${r.ruleId}`, r]));
  const wanted = groups.slice(0, MAX_GROUP_PICTURES).flatMap((g) => {
    const first = rowOf.get(`${g.wcagCriterion}\u0000${g.ruleId}`)?.examples[0];
    return first?.hasScreenshot ? [{ g, findingId: first.findingId }] : [];
  });
  const images = await screenshotsOf(db, wanted.map((w) => w.findingId));
  for (const { g, findingId } of wanted) {
    const img = images.get(findingId);
    // pdfkit embeds PNG and JPEG only.
    const size = img && img.mime === 'image/png' ? pngSize(img.image) : null;
    if (!img || !size) continue;
    const e = g.examples[0]!;
    g.picture = {
      image: img.image,
      width: size.width,
      height: size.height,
      alt: `Screenshot of example element 1 of \u201c${g.title.slice(0, 120)}\u201d, outlined in magenta: ${e.selector.slice(0, 160)} on ${e.pageUrl.slice(0, 200)}`,
    };
  }
}

/** Adds each issue row's picture URL. */
async function* withPictureUrls(rows: AsyncIterable<IssueRow[]>, pictureUrl: PictureUrl): AsyncGenerator<ReportIssueRow[]> {
  for await (const batch of rows) yield batch.map((r) => ({ ...r, screenshotUrl: r.hasScreenshot ? pictureUrl(r.id) : null }));
}

/**
 * Builds the report of an ended scan or crawl; callers check that it has results first. `baseUrl`
 * (the API's origin as the request reached it) makes the pictures' links absolute.
 */
export async function buildReport(db: Database, source: ReportSource, now = new Date(), opts: { baseUrl?: string | null } = {}): Promise<Report> {
  const scope: ReportScope =
    source.kind === 'scan' ? { kind: 'scan', scanId: source.scan.id } : { kind: 'crawl', crawlId: source.crawl.id, siteId: source.crawl.siteId };
  const [groupRows, passes, pageRows, counts, confirmed] = await Promise.all([
    issueGroups(db, scope),
    passedRules(db, scope),
    reportPages(db, scope),
    findingCounts(db, scope),
    confirmedByCriterion(db, scope),
  ]);
  const pictureUrl = pictureUrlOf(scope, opts.baseUrl);
  const groups = toGroups(groupRows, pictureUrl);
  await withPictures(db, groups, groupRows);
  const criteria = criteriaResults(groups, passes);
  const priorities = topPriorities(groups);
  const pages = toPages(pageRows);
  const scanned = pages.filter((p) => p.state === 'scanned').length;
  // The web pages and the documents (PDFs) are an ACR's two components, each judged on its own.
  const documentsAudited = pages.filter((p) => p.state === 'scanned' && p.kind === 'document').length;
  const notDocumentGroups = groups.filter((g) => !isDocumentRule(g.ruleId));
  const { bySeverity, byType, byPrinciple } = summaryCounts(counts.rows);
  const failedCriteria = criteria.filter((c) => c.result === 'fails' || c.result === 'needs_review').length;
  const base = {
    lang: 'en',
    generatedAt: now,
    topPriorities: priorities,
    criteria,
    conformance: conformance(criteria, notDocumentGroups, confirmed.filter((c) => !c.document), scanned - documentsAudited),
    documentConformance: documentsAudited > 0 ? documentConformance(criteria, groups, confirmed.filter((c) => c.document), documentsAudited) : null,
    groups,
    pages,
    pagesTotal: pages.length,
    failedPages: pages.filter((p) => p.state === 'failed').map((p) => ({ url: p.url, code: p.error!.code, message: p.error!.message })),
    issueRows: () => withPictureUrls(streamIssueRows(db, scope), pictureUrl),
  };

  if (source.kind === 'scan') {
    const s = source.scan;
    const url = s.finalUrl ?? s.url;
    const stored = s.summary;
    return {
      ...base,
      kind: 'scan',
      title: `Accessibility report: ${url}`,
      target: {
        kind: 'scan',
        id: s.id,
        hostname: hostnameOf(url),
        url,
        name: s.pageTitle,
        status: s.status,
        startedAt: s.startedAt,
        completedAt: s.completedAt,
        durationMs: s.durationMs,
        standard: STANDARD,
        engine: ENGINE,
        engines: ENGINES,
        browser: BROWSER_SETUP,
        crawl: null,
      },
      summary: {
        score: s.score,
        scoreFormula: SCORE_FORMULA,
        text:
          stored?.summary ??
          `${s.pageTitle ?? url} scores ${s.score ?? '\u2013'}/100 with ${plural(bySeverity.total, 'issue')} found by automated checks.`,
        issues: bySeverity.total,
        pagesAffected: counts.pagesAffected,
        pagesScanned: 1,
        bySeverity,
        byType,
        byPrinciple,
        change: null,
      },
      positiveFindings: stored?.positiveFindings?.length ? stored.positiveFindings : positiveFindings(criteria, passes),
      diff: null,
      trend: [],
    };
  }

  const c = source.crawl;
  const site = source.site;
  const [previous, trendRows, newByRule, fixedByRule] = await Promise.all([
    previousCrawl(db, c.siteId, c),
    crawlTrend(db, c.siteId, c),
    diffByRule(db, c.siteId, c.id, 'new'),
    diffByRule(db, c.siteId, c.id, 'fixed'),
  ]);
  const newIssues = c.newIssues ?? newByRule.reduce((n, r) => n + r.count, 0);
  const fixedIssues = c.fixedIssues ?? fixedByRule.reduce((n, r) => n + r.count, 0);
  const change = previous
    ? { newIssues, fixedIssues, persisting: Math.max(0, bySeverity.total - newIssues), previousScore: previous.overallScore }
    : null;
  return {
    ...base,
    kind: 'crawl',
    title: `Accessibility report: ${site.hostname}`,
    target: {
      kind: 'crawl',
      id: c.id,
      hostname: site.hostname,
      url: site.baseUrl,
      name: site.name,
      status: c.status,
      startedAt: c.startedAt,
      completedAt: c.completedAt,
      durationMs: c.startedAt && c.completedAt ? c.completedAt.getTime() - c.startedAt.getTime() : null,
      standard: STANDARD,
      engine: ENGINE,
      engines: ENGINES,
      browser: BROWSER_SETUP,
      crawl: {
        maxPages: c.maxPages,
        totalPages: c.totalPages,
        scannedPages: c.scannedPages,
        failedPages: c.failedPages,
        enrichedPages: c.enrichedPages,
        brokenLinks: c.brokenLinks,
      },
    },
    summary: {
      score: c.overallScore,
      scoreFormula: SCORE_FORMULA,
      text: crawlSummaryText({
        hostname: site.hostname,
        score: c.overallScore,
        scanned,
        found: c.totalPages,
        failed: pages.length - scanned,
        issues: bySeverity.total,
        confirmed: byType.confirmed,
        pagesAffected: counts.pagesAffected,
        criteria: failedCriteria,
        first: priorities[0],
        change,
      }),
      issues: bySeverity.total,
      pagesAffected: counts.pagesAffected,
      pagesScanned: scanned,
      bySeverity,
      byType,
      byPrinciple,
      change,
    },
    positiveFindings: positiveFindings(criteria, passes),
    diff: {
      previous,
      newIssues,
      fixedIssues,
      newByRule,
      fixedByRule,
      newRows: () => streamDiffRows(db, c.siteId, c.id, 'new'),
      fixedRows: () => streamDiffRows(db, c.siteId, c.id, 'fixed'),
    },
    trend: trendRows.map((t) => ({
      crawlId: t.crawlId,
      completedAt: t.completedAt,
      overallScore: t.overallScore,
      counts: severityCounts(t),
      newIssues: t.newIssues,
      fixedIssues: t.fixedIssues,
    })),
  };
}

/** Why a scan or crawl has nothing to export yet, or null when it has results. */
export function notExportableReason(source: ReportSource): string | null {
  if (source.kind === 'scan') {
    const s = source.scan;
    if (s.status === 'completed' || s.status === 'completed_partial') return null;
    if (s.status === 'failed') return `scan ${s.id} failed${s.error ? ` (${s.error.code}: ${s.error.message})` : ''}; there are no results to export`;
    if (s.status === 'cancelled') return `scan ${s.id} was cancelled before it had results`;
    return `scan ${s.id} is ${s.status}; export it once it has completed`;
  }
  const c = source.crawl;
  if (c.status === 'queued' || c.status === 'running') return `crawl ${c.id} is still ${c.status}; export it once it has ended`;
  if (c.status === 'failed') return `crawl ${c.id} failed${c.error ? ` (${c.error.code}: ${c.error.message})` : ''}; there are no results to export`;
  if (c.scannedPages === 0) return `crawl ${c.id} ended (${c.status}) before any page was scanned; there are no results to export`;
  if (c.resultsDeletedAt) {
    return `crawl ${c.id}'s page results were deleted on ${c.resultsDeletedAt.toISOString().slice(0, 10)}: only the newest crawls of a site keep them (CRAWLS_KEPT_PER_SITE); export a newer crawl`;
  }
  return null;
}

const EXTENSION = { pdf: 'pdf', excel: 'xlsx', openacr: 'openacr.yaml' } as const;

/** `<hostname>-<scan|crawl>-<yyyy-mm-dd>.<pdf|xlsx|openacr.yaml>`, dated by when the scan or crawl ended. */
export function reportFileName(report: Pick<Report, 'kind' | 'target' | 'generatedAt'>, format: keyof typeof EXTENSION): string {
  const day = (report.target.completedAt ?? report.generatedAt).toISOString().slice(0, 10);
  const host = report.target.hostname.replace(/[^a-z0-9.-]/gi, '_') || 'site';
  return `${host}-${report.kind}-${day}.${EXTENSION[format]}`;
}
