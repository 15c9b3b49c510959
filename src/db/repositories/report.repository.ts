/**
 * What reports read: aggregates computed in SQL (groups, counts, pages, trend) and the long lists
 * (every issue, every new or fixed issue) streamed through a server-side cursor in batches, so a
 * 50,000-issue crawl never sits in memory. Returns camelCase objects.
 *
 * A report's scope is one single-page scan or one crawl; in a crawl only pages whose scan
 * succeeded contribute findings, as in the crawl's finalization.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { InteractionState, IssueStatus, IssueType, Severity, ViewportName, WcagLevel } from '../../shared/contracts.ts';
import type { Database } from '../schema.ts';
import { wcagCriteria } from '../../shared/wcag.ts';
import { FINDING_ELEMENT_COLUMNS } from './finding-columns.ts';
import { severityOfRank, severityRank } from './severity.ts';

/** Every field of an issue, one row per issue: the workbook's Issues sheet. */
export interface IssueRow {
  /** The site's issue id (crawl) or the finding id (scan). */
  id: string;
  pageUrl: string;
  pageTitle: string | null;
  ruleId: string;
  wcagCriterion: string;
  wcagLevel: WcagLevel;
  /** Every criterion it fails, the primary first. */
  wcagCriteria: string[];
  severity: Severity;
  type: IssueType;
  status: IssueStatus;
  selector: string;
  html: string;
  description: string;
  fixSuggestion: string;
  helpUrl: string | null;
  alsoFlaggedBy: string[];
  firstSeenAt: Date | null;
  lastSeenAt: Date | null;
  /** The interaction that revealed the issue, or null (the page as loaded). */
  state: InteractionState | null;
  /** The viewport of a crawl with several, or null. */
  viewport: ViewportName | null;
  /** The finding has a picture (served under the issue's id: the site issue's in a crawl, the finding's in a scan). */
  hasScreenshot: boolean;
}

/** A new or fixed issue of the diff against the previous crawl. */
export interface DiffRow {
  id: string;
  pageUrl: string;
  ruleId: string;
  wcagCriterion: string;
  wcagLevel: WcagLevel;
  /** Every criterion it fails, the primary first. */
  wcagCriteria: string[];
  severity: Severity;
  type: IssueType;
  selector: string;
  /** When the crawl recorded the change. */
  at: Date | null;
  /** `new`, `reopened` or `fixed`. */
  change: 'new' | 'reopened' | 'fixed';
}

/** Counts of new or fixed issues per rule, for the PDF. */
export interface DiffByRule {
  ruleId: string;
  title: string;
  wcagCriterion: string;
  severity: Severity;
  count: number;
}

export type ReportScope = { kind: 'scan'; scanId: string } | { kind: 'crawl'; crawlId: string; siteId: string };

const SUCCEEDED = sql`('completed', 'completed_partial')`;

/** The page scans a report covers, as a condition on `ps`. */
function inScope(scope: ReportScope): RawBuilder<SqlBool> {
  return scope.kind === 'scan'
    ? sql<SqlBool>`ps.id = ${scope.scanId}`
    : sql<SqlBool>`ps.kind = 'crawl' and ps.crawl_id = ${scope.crawlId} and ps.status in ${SUCCEEDED}`;
}

const SEVERITY_RANK = severityRank('f.severity');

// ---- the crawl before ------------------------------------------------------------------------

/** The site's last crawl that ended with results before this one. */
export async function previousCrawl(db: Database, siteId: string, crawl: { id: string; createdAt: Date }) {
  const r = await db
    .selectFrom('crawls')
    .select(['id', 'completed_at', 'overall_score'])
    .where('site_id', '=', siteId)
    .where('id', '!=', crawl.id)
    .where('created_at', '<', crawl.createdAt)
    .where('status', 'in', ['completed', 'completed_partial', 'cancelled'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r ? { id: r.id, completedAt: r.completed_at, overallScore: r.overall_score } : null;
}

// ---- aggregates -----------------------------------------------------------------------------

export interface CountsRow {
  severity: Severity;
  type: IssueType;
  principle: number;
  n: number;
}

/** Findings counted by severity, type and WCAG principle (the criterion's first digit). */
export async function findingCounts(db: Database, scope: ReportScope): Promise<{ rows: CountsRow[]; pagesAffected: number }> {
  const [rows, pages] = await Promise.all([
    sql<CountsRow>`
      select f.severity, f.type, substr(f.wcag_criterion, 1, 1)::int as principle, count(*)::int as n
      from findings f join page_scans ps on ps.id = f.page_scan_id
      where ${inScope(scope)}
      group by 1, 2, 3`.execute(db),
    sql<{ n: number }>`
      select count(distinct ps.id)::int as n
      from page_scans ps
      where ${inScope(scope)} and exists (select 1 from findings f where f.page_scan_id = ps.id)`.execute(db),
  ]);
  return { rows: rows.rows, pagesAffected: pages.rows[0]?.n ?? 0 };
}

/**
 * Confirmed findings per WCAG criterion (each of a finding's criteria, the primary and the further
 * ones) and the distinct pages they are on: what a conformance report states per criterion.
 */
/** A scan that audited a document (a PDF) rather than an HTML page. */
const DOCUMENT_SCAN = sql<SqlBool>`coalesce(ps.coverage ? 'document', false)`;

/** Confirmed issues per criterion and the pages they are on, HTML pages and documents apart (`document`). */
export async function confirmedByCriterion(db: Database, scope: ReportScope): Promise<Array<{ criterion: string; issues: number; pages: number; document: boolean }>> {
  const res = await sql<{ criterion: string; issues: number; pages: number; document: boolean }>`
    with fc as (
      select distinct f.id, f.page_scan_id, c, ${DOCUMENT_SCAN} as document
      from findings f join page_scans ps on ps.id = f.page_scan_id
      cross join lateral unnest(array_append(f.wcag_criteria, f.wcag_criterion)) as c
      where ${inScope(scope)} and f.type = 'confirmed'
    )
    select c as criterion, document, count(*)::int as issues, count(distinct page_scan_id)::int as pages from fc group by c, document`.execute(db);
  return res.rows;
}

export interface GroupRow {
  ruleId: string;
  wcagCriterion: string;
  wcagLevel: WcagLevel;
  /** Every criterion the group's members fail, the primary first (its first example's). */
  wcagCriteria: string[];
  severity: Severity;
  type: IssueType;
  elements: number;
  pages: number;
  title: string;
  description: string;
  fixSuggestion: string;
  enrichedBy: string | null;
  helpUrl: string | null;
  examples: ReportExampleRow[];
  examplePages: string[];
}

export interface ReportExampleRow {
  pageUrl: string;
  selector: string;
  html: string;
  /** The finding's id (its picture's key). */
  findingId: string;
  /** The site issue's id in a crawl (null when none matches), the finding's in a scan: the id its picture is served under. */
  issueId: string | null;
  state: InteractionState | null;
  viewport: ViewportName | null;
  hasScreenshot: boolean;
}

/**
 * Findings grouped by WCAG criterion and rule, with up to three examples (one with a picture first,
 * when the group has one) and five page URLs each.
 */
export async function issueGroups(db: Database, scope: ReportScope, htmlChars = 400): Promise<GroupRow[]> {
  const res = await sql<{
    rule_id: string;
    wcag_criterion: string;
    wcag_level: WcagLevel;
    wcag_criteria: string | null;
    sev: number;
    confirmed: boolean;
    elements: number;
    pages: number;
    example_pages: string[];
    examples: Array<
      Omit<ReportExampleRow, 'issueId'> & { issueId: string | null; title: string; description: string; fix: string; enrichedBy: string | null; helpUrl: string | null }
    >;
  }>`
    with pictured as (
      select f.*, ps.url as page_url, ${SEVERITY_RANK} as sev,
             exists (select 1 from finding_screenshots s where s.finding_id = f.id) as has_screenshot
      from findings f join page_scans ps on ps.id = f.page_scan_id
      where ${inScope(scope)}
    ), ranked as (
      select p.*, ${scope.kind === 'crawl' ? sql`(select i.id from issues i where i.site_id = ${scope.siteId} and i.fingerprint = p.fingerprint)` : sql`p.id`} as issue_id,
             row_number() over (partition by p.wcag_criterion, p.rule_id order by p.has_screenshot desc, p.sev, p.page_url, p.id) as rn
      from pictured p
    )
    select wcag_criterion, rule_id, min(wcag_level) as wcag_level, (array_agg(array_to_string(wcag_criteria, ',') order by rn))[1] as wcag_criteria,
           min(sev) as sev, bool_or(type = 'confirmed') as confirmed,
           count(*)::int as elements, count(distinct page_url)::int as pages,
           (array_agg(distinct page_url order by page_url))[1:5] as example_pages,
           json_agg(json_build_object('pageUrl', page_url, 'selector', element_selector, 'html', left(element_html, ${htmlChars}),
                                      'title', engine_help, 'description', description, 'fix', fix_suggestion,
                                      'enrichedBy', enriched_by, 'helpUrl', help_url, 'findingId', id, 'issueId', issue_id,
                                      'state', state, 'viewport', viewport, 'hasScreenshot', has_screenshot) order by rn) filter (where rn <= 3) as examples
    from ranked
    group by wcag_criterion, rule_id`.execute(db);
  return res.rows.map((r) => {
    const first = r.examples[0]!;
    return {
      ruleId: r.rule_id,
      wcagCriterion: r.wcag_criterion,
      wcagLevel: r.wcag_level,
      wcagCriteria: wcagCriteria([r.wcag_criterion, ...(r.wcag_criteria ? r.wcag_criteria.split(',') : [])]),
      severity: severityOfRank(r.sev),
      type: r.confirmed ? 'confirmed' : 'needs_review',
      elements: r.elements,
      pages: r.pages,
      title: first.title,
      description: first.description,
      fixSuggestion: first.fix,
      enrichedBy: first.enrichedBy,
      helpUrl: first.helpUrl,
      examples: r.examples.map((e) => ({
        pageUrl: e.pageUrl,
        selector: e.selector,
        html: e.html,
        findingId: e.findingId,
        issueId: e.issueId,
        state: e.state ?? null,
        viewport: e.viewport ?? null,
        hasScreenshot: e.hasScreenshot && e.issueId !== null,
      })),
      examplePages: r.example_pages,
    };
  });
}

export interface PassRow {
  ruleId: string;
  help: string;
  wcagCriterion: string;
  elements: number;
  pages: number;
}

/** Rules that passed, per rule and criterion, over the report's pages (from each scan's stored passes). */
export async function passedRules(db: Database, scope: ReportScope): Promise<PassRow[]> {
  const res = await sql<PassRow>`
    select e->>'ruleId' as "ruleId", min(e->>'help') as help, e->>'wcagCriterion' as "wcagCriterion",
           coalesce(sum((e->>'elements')::int), 0)::int as elements, count(distinct ps.id)::int as pages
    from page_scans ps
    cross join lateral jsonb_array_elements(case when jsonb_typeof(ps.engine_passes) = 'array' then ps.engine_passes else '[]'::jsonb end) e
    where ${inScope(scope)}
    group by 1, 3`.execute(db);
  return res.rows;
}

export interface PageRow {
  url: string;
  title: string | null;
  /** A document (a PDF) the site links to, audited from the file. */
  document: boolean;
  score: number | null;
  scanned: boolean;
  error: { code: string; message: string } | null;
  critical: number;
  serious: number;
  moderate: number;
  minor: number;
}

const pageCounts = sql`
  count(f.id) filter (where f.severity = 'critical')::int as critical,
  count(f.id) filter (where f.severity = 'serious')::int as serious,
  count(f.id) filter (where f.severity = 'moderate')::int as moderate,
  count(f.id) filter (where f.severity = 'minor')::int as minor`;

/** The report's pages: every page scanned, and in a crawl every page that failed (not those a cancel left unscanned). */
export async function reportPages(db: Database, scope: ReportScope): Promise<PageRow[]> {
  // Two simple queries merged here rather than one join: on a crawl just written, stale planner
  // statistics turn the join of pages, scans and findings into a quadratic nested loop.
  const [pages, counts] = await Promise.all([
    scope.kind === 'scan'
      ? sql<Omit<PageRow, Severity> & { scanId: string }>`
          select ps.id as "scanId", coalesce(ps.final_url, ps.url) as url, ps.page_title as title, ps.score, true as scanned, ps.error, ${DOCUMENT_SCAN} as document
          from page_scans ps where ps.id = ${scope.scanId}`.execute(db)
      : sql<Omit<PageRow, Severity> & { scanId: string | null }>`
          select ps.id as "scanId", p.url, coalesce(ps.page_title, p.title) as title,
                 case when ps.status in ${SUCCEEDED} then ps.score end as score,
                 coalesce(ps.status in ${SUCCEEDED}, false) as scanned,
                 case when ps.status in ${SUCCEEDED} then null else coalesce(cp.error, ps.error) end as error,
                 (p.media_type is not null or ${DOCUMENT_SCAN}) as document
          from crawl_pages cp
          join pages p on p.id = cp.page_id
          left join page_scans ps on ps.kind = 'crawl' and ps.crawl_id = ${scope.crawlId} and ps.page_id = cp.page_id
          where cp.crawl_id = ${scope.crawlId}
            and (ps.status in ${SUCCEEDED} or ps.status = 'failed' or cp.state = 'failed')`.execute(db),
    sql<Record<Severity, number> & { scanId: string }>`
      select f.page_scan_id as "scanId", ${pageCounts}
      from findings f join page_scans ps on ps.id = f.page_scan_id
      where ${inScope(scope)}
      group by f.page_scan_id`.execute(db),
  ]);
  const byScan = new Map(counts.rows.map((c) => [c.scanId, c]));
  return pages.rows
    .map(({ scanId, ...p }) => {
      const c = scanId && p.scanned ? byScan.get(scanId) : undefined;
      return { ...p, critical: c?.critical ?? 0, serious: c?.serious ?? 0, moderate: c?.moderate ?? 0, minor: c?.minor ?? 0 };
    })
    .sort((a, b) => (a.score ?? Infinity) - (b.score ?? Infinity) || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

export interface TrendRow {
  crawlId: string;
  completedAt: Date | null;
  overallScore: number | null;
  newIssues: number | null;
  fixedIssues: number | null;
  critical: number;
  serious: number;
  moderate: number;
  minor: number;
}

/** The site's crawls that ended with results, up to and including this one, oldest first (at most `max`). */
export async function crawlTrend(db: Database, siteId: string, upTo: { createdAt: Date }, max = 12): Promise<TrendRow[]> {
  const res = await sql<TrendRow>`
    select c.id as "crawlId", c.completed_at as "completedAt", c.overall_score as "overallScore",
           c.new_issues as "newIssues", c.fixed_issues as "fixedIssues", k.critical, k.serious, k.moderate, k.minor
    from (select * from crawls
          where site_id = ${siteId} and created_at <= ${upTo.createdAt}
            and status in ('completed', 'completed_partial', 'cancelled') and overall_score is not null
          order by created_at desc, id desc limit ${max}) c
    cross join lateral (
      select ${pageCounts}
      from page_scans ps join findings f on f.page_scan_id = ps.id
      where ps.kind = 'crawl' and ps.crawl_id = c.id and ps.status in ${SUCCEEDED}) k
    order by c.created_at, c.id`.execute(db);
  return res.rows;
}

// ---- long lists, streamed --------------------------------------------------------------------

/** Yields a cursor-backed row stream in arrays of `size`; breaking out of the loop closes the cursor. */
async function* batches<T>(rows: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Every finding of the report, ordered by severity, page URL and id. In a crawl each carries the
 * site issue it belongs to (id, status, first and last seen); a single scan's findings are open.
 */
export function streamIssueRows(db: Database, scope: ReportScope, batchSize = 1000): AsyncGenerator<IssueRow[]> {
  const siteId = scope.kind === 'crawl' ? scope.siteId : null;
  const rows = db
    .selectFrom('findings as f')
    .innerJoin('page_scans as ps', 'ps.id', 'f.page_scan_id')
    .leftJoin('pages as p', 'p.id', 'ps.page_id')
    .leftJoin('issues as i', (j) => j.onRef('i.fingerprint', '=', 'f.fingerprint').on('i.site_id', '=', siteId))
    .select([
      sql<string>`coalesce(i.id, f.id)`.as('id'),
      sql<string>`coalesce(p.url, ps.final_url, ps.url)`.as('pageUrl'),
      sql<string | null>`coalesce(ps.page_title, p.title)`.as('pageTitle'),
      'f.rule_id as ruleId',
      'f.wcag_criterion as wcagCriterion',
      'f.wcag_level as wcagLevel',
      'f.wcag_criteria as wcagCriteria',
      'f.severity as severity',
      'f.type as type',
      sql<IssueRow['status']>`coalesce(i.status, 'open')`.as('status'),
      ...FINDING_ELEMENT_COLUMNS,
      'f.help_url as helpUrl',
      sql<string[]>`case when jsonb_typeof(f.data->'alsoFlaggedBy') = 'array' then f.data->'alsoFlaggedBy' else '[]'::jsonb end`.as('alsoFlaggedBy'),
      'i.first_seen_at as firstSeenAt',
      'i.last_seen_at as lastSeenAt',
      'f.state as state',
      'f.viewport as viewport',
      sql<boolean>`(${siteId === null ? sql`true` : sql`i.id is not null`} and exists (select 1 from finding_screenshots s where s.finding_id = f.id))`.as('hasScreenshot'),
    ])
    .where(inScope(scope))
    .orderBy(SEVERITY_RANK)
    .orderBy(sql`coalesce(p.url, ps.final_url, ps.url)`)
    .orderBy('f.id')
    .stream(batchSize);
  return batches(rows as AsyncIterable<IssueRow>, batchSize);
}

export type DiffChange = 'new' | 'fixed';

/**
 * The status-history entry a crawl wrote when it found an issue new or reopened (`to: open`) or
 * fixed (`to: fixed`): exactly what the crawl's `newIssues` and `fixedIssues` count.
 */
function changeEntry(crawlId: string, change: DiffChange) {
  return JSON.stringify([{ crawlId, changedBy: 'crawl', to: change === 'new' ? 'open' : 'fixed' }]);
}

export function streamDiffRows(db: Database, siteId: string, crawlId: string, change: DiffChange, batchSize = 1000): AsyncGenerator<DiffRow[]> {
  const entry = changeEntry(crawlId, change);
  const rows = db
    .selectFrom('issues as i')
    .innerJoin('pages as p', 'p.id', 'i.page_id')
    .select([
      'i.id',
      'p.url as pageUrl',
      'i.rule_id as ruleId',
      'i.wcag_criterion as wcagCriterion',
      'i.wcag_level as wcagLevel',
      'i.wcag_criteria as wcagCriteria',
      'i.severity',
      'i.type',
      'i.element_selector as selector',
      // A crawl that found a fixed issue again reopened it (`from: fixed`): new to this crawl all the same.
      (change === 'fixed'
        ? sql<DiffRow['change']>`'fixed'`
        : sql<DiffRow['change']>`(select case e->>'from' when 'fixed' then 'reopened' else 'new' end
                                  from jsonb_array_elements(i.status_history) e where e @> (${entry}::jsonb -> 0) limit 1)`
      ).as('change'),
      sql<Date | null>`(select (e->>'at')::timestamptz from jsonb_array_elements(i.status_history) e where e @> (${entry}::jsonb -> 0) limit 1)`.as('at'),
    ])
    .where('i.site_id', '=', siteId)
    .where(sql<SqlBool>`i.status_history @> ${entry}::jsonb`)
    .orderBy(severityRank('i.severity'))
    .orderBy('p.url')
    .orderBy('i.id')
    .stream(batchSize);
  return batches(rows as AsyncIterable<DiffRow>, batchSize);
}

/** New or fixed issues of a crawl counted per rule, most first. */
export async function diffByRule(db: Database, siteId: string, crawlId: string, change: DiffChange): Promise<DiffByRule[]> {
  const res = await sql<{ rule_id: string; title: string | null; wcag_criterion: string; sev: number; n: number }>`
    select i.rule_id, min(f.engine_help) as title, i.wcag_criterion,
           min(${severityRank('i.severity')}) as sev,
           count(*)::int as n
    from issues i left join findings f on f.id = i.last_finding_id
    where i.site_id = ${siteId} and i.status_history @> ${changeEntry(crawlId, change)}::jsonb
    group by i.rule_id, i.wcag_criterion
    order by n desc, sev, i.rule_id`.execute(db);
  return res.rows.map((r) => ({
    ruleId: r.rule_id,
    title: r.title ?? r.rule_id,
    wcagCriterion: r.wcag_criterion,
    severity: severityOfRank(r.sev),
    count: r.n,
  }));
}
