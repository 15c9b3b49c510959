/**
 * Issue groups of a crawl: its findings by group key (rule + template element), with the site
 * issue each belongs to for status and filters. Findings stored before group keys existed form
 * groups of one, keyed `finding:<fingerprint>`.
 */
import { sql } from 'kysely';
import type { IssueType, Severity, WcagLevel } from '../../shared/contracts.ts';
import type { Database } from '../database.ts';
import type { IssueStatus } from './records.ts';
import { severityOfRank, severityRank } from './severity.ts';

export interface IssueGroupFilters {
  severity?: Severity;
  wcagLevel?: WcagLevel;
  status?: IssueStatus;
  pageId?: string;
  type?: IssueType;
  ruleId?: string;
}

export interface IssueGroupRecord {
  groupKey: string;
  ruleId: string;
  wcagCriterion: string;
  wcagLevel: WcagLevel;
  severity: Severity;
  type: IssueType;
  pages: number;
  elements: number;
  example: { pageUrl: string; selector: string; html: string };
  description: string;
  fixSuggestion: string;
}

/** The group key of a finding: its own, or `finding:<fingerprint>` for findings stored before groups existed. */
export const LEGACY_GROUP_PREFIX = 'finding:';

/** The site's last crawl that ended with results (the default for groups). */
export async function latestEndedCrawlId(db: Database, siteId: string): Promise<string | undefined> {
  const r = await db
    .selectFrom('crawls')
    .select('id')
    .where('site_id', '=', siteId)
    .where('status', 'in', ['completed', 'completed_partial', 'cancelled'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r?.id;
}

/** Groups sorted by severity, then pages affected, then elements; one page of them and the total. */
export async function listIssueGroups(
  db: Database,
  siteId: string,
  crawlId: string,
  f: IssueGroupFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: IssueGroupRecord[]; total: number }> {
  const where = [
    sql`ps.kind = 'crawl' and ps.crawl_id = ${crawlId} and ps.status in ('completed', 'completed_partial')`,
    f.severity ? sql`fi.severity = ${f.severity}` : null,
    f.wcagLevel ? sql`fi.wcag_level = ${f.wcagLevel}` : null,
    f.type ? sql`fi.type = ${f.type}` : null,
    f.ruleId ? sql`fi.rule_id = ${f.ruleId}` : null,
    f.pageId ? sql`ps.page_id = ${f.pageId}` : null,
    f.status ? sql`coalesce(i.status, 'open') = ${f.status}` : null,
  ].filter((w) => w !== null);
  const res = await sql<{
    group_key: string;
    rule_id: string;
    wcag_criterion: string;
    wcag_level: WcagLevel;
    sev: number;
    confirmed: boolean;
    pages: number;
    elements: number;
    example_id: string;
    total: number;
  }>`
    with m as (
      select coalesce(fi.group_key, ${LEGACY_GROUP_PREFIX} || fi.fingerprint) as group_key, fi.id, fi.rule_id, fi.wcag_criterion,
             fi.wcag_level, fi.type, ps.page_id, ps.url as page_url,
             ${severityRank('fi.severity')} as sev
      from findings fi
      join page_scans ps on ps.id = fi.page_scan_id
      left join issues i on i.site_id = ${siteId} and i.fingerprint = fi.fingerprint
      where ${sql.join(where, sql` and `)}
    ), g as (
      select group_key, min(rule_id) as rule_id, min(wcag_criterion) as wcag_criterion, min(wcag_level) as wcag_level,
             min(sev) as sev, bool_or(type = 'confirmed') as confirmed, count(distinct page_id)::int as pages,
             count(*)::int as elements, (array_agg(id order by sev, page_url, id))[1] as example_id
      from m group by group_key
    )
    select g.*, count(*) over ()::int as total from g
    order by sev, pages desc, elements desc, group_key
    limit ${page.limit} offset ${page.offset}`.execute(db);

  const ids = res.rows.map((r) => r.example_id);
  const examples = ids.length
    ? await db
        .selectFrom('findings as fi')
        .innerJoin('page_scans as ps', 'ps.id', 'fi.page_scan_id')
        .select(['fi.id', 'ps.url', 'fi.element_selector', 'fi.element_html', 'fi.description', 'fi.fix_suggestion'])
        .where('fi.id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(examples.map((e) => [e.id, e]));
  let total = res.rows[0]?.total ?? 0;
  if (res.rows.length === 0 && page.offset > 0) {
    // Past the end: the window count has no row to ride on, so count on its own.
    total = (await listIssueGroups(db, siteId, crawlId, f, { limit: 1, offset: 0 })).total;
  }
  return {
    total,
    rows: res.rows.map((r) => {
      const e = byId.get(r.example_id)!;
      return {
        groupKey: r.group_key,
        ruleId: r.rule_id,
        wcagCriterion: r.wcag_criterion,
        wcagLevel: r.wcag_level,
        severity: severityOfRank(r.sev),
        type: r.confirmed ? 'confirmed' : 'needs_review',
        pages: r.pages,
        elements: r.elements,
        example: { pageUrl: e.url, selector: e.element_selector, html: e.element_html },
        description: e.description,
        fixSuggestion: e.fix_suggestion,
      };
    }),
  };
}
