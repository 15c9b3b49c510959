/**
 * Issue groups of a crawl: its findings by group key (rule + template element), with the site
 * issue each belongs to for status and filters. Findings stored before group keys existed form
 * groups of one, keyed `finding:<fingerprint>`.
 */
import { sql } from 'kysely';
import type { IssueType, Severity, WcagLevel } from '../../shared/contracts.ts';
import type { Database } from '../database.ts';
import type { IssueStatus } from '../../shared/contracts.ts';
import { isCrawlEnded } from './crawl.repository.ts';
import { FINDING_ELEMENT_COLUMNS } from './finding-columns.ts';
import { severityOfRank, severityRank } from './severity.ts';
import { cacheOf } from './versioned-cache.ts';
import { criteriaOfLevel, wcagCriteria } from '../../shared/wcag.ts';

/**
 * The `wcagCriterion` and `wcagLevel` filters of issues and findings (`alias`): each matches any
 * of the row's criteria (`wcag_criteria`, the primary first), not only the primary.
 */
export function criteriaFilters(alias: 'fi' | 'i', f: Pick<IssueGroupFilters, 'wcagCriterion' | 'wcagLevel'>) {
  const col = sql.ref(`${alias}.wcag_criteria`);
  return [
    f.wcagCriterion ? sql<boolean>`${col} @> array[${f.wcagCriterion}]::text[]` : null,
    f.wcagLevel ? sql<boolean>`${col} && ${sql.val(criteriaOfLevel(f.wcagLevel))}::text[]` : null,
  ];
}

export interface IssueGroupFilters {
  severity?: Severity;
  /** Issues with a criterion of this level among their criteria (`wcagCriteria`), not only the primary's. */
  wcagLevel?: WcagLevel;
  /** Issues failing this criterion, primary or further (`wcagCriteria`). */
  wcagCriterion?: string;
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
  /** Every criterion its members fail, the primary first. */
  wcagCriteria: string[];
  severity: Severity;
  type: IssueType;
  pages: number;
  elements: number;
  /** A member, one with a picture when the group has one: its site issue (null when none matches yet) and whether it has a picture. */
  example: { pageUrl: string; selector: string; html: string; issueId: string | null; hasScreenshot: boolean };
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

interface GroupRow {
  group_key: string;
  rule_id: string;
  wcag_criterion: string;
  wcag_level: WcagLevel;
  sev: number;
  confirmed: boolean;
  pages: number;
  elements: number;
  example_id: string;
}

/**
 * Every group of an ended crawl for one filter set, in list order, for the site's current
 * `issues_version`: an ended crawl's findings no longer change, and issue statuses (the status
 * filter) only change with that version, so a group list is computed once, not per request.
 */
const endedCrawlGroups = (db: Database) => cacheOf<GroupRow[]>(db, 'endedCrawlGroups', 200);

/** All groups of the crawl matching the filters, sorted by severity, then pages affected, then elements. */
async function allGroups(db: Database, siteId: string, crawlId: string, f: IssueGroupFilters): Promise<GroupRow[]> {
  const where = [
    sql`ps.kind = 'crawl' and ps.crawl_id = ${crawlId} and ps.status in ('completed', 'completed_partial')`,
    f.severity ? sql`fi.severity = ${f.severity}` : null,
    ...criteriaFilters('fi', f),
    f.type ? sql`fi.type = ${f.type}` : null,
    f.ruleId ? sql`fi.rule_id = ${f.ruleId}` : null,
    f.pageId ? sql`ps.page_id = ${f.pageId}` : null,
    f.status ? sql`coalesce(i.status, 'open') = ${f.status}` : null,
  ].filter((w) => w !== null);
  const res = await sql<GroupRow>`
    with m as (
      select coalesce(fi.group_key, ${LEGACY_GROUP_PREFIX} || fi.fingerprint) as group_key, fi.id, fi.rule_id, fi.wcag_criterion,
             fi.wcag_level, fi.type, ps.page_id, ps.url as page_url,
             ${severityRank('fi.severity')} as sev,
             exists (select 1 from finding_screenshots s where s.finding_id = fi.id) as pictured
      from findings fi
      join page_scans ps on ps.id = fi.page_scan_id
      left join issues i on i.site_id = ${siteId} and i.fingerprint = fi.fingerprint
      where ${sql.join(where, sql` and `)}
    )
    select group_key, min(rule_id) as rule_id, min(wcag_criterion) as wcag_criterion, min(wcag_level) as wcag_level,
           min(sev) as sev, bool_or(type = 'confirmed') as confirmed, count(distinct page_id)::int as pages,
           count(*)::int as elements, (array_agg(id order by pictured desc, sev, page_url, id))[1] as example_id
    from m group by group_key
    order by sev, pages desc, elements desc, group_key`.execute(db);
  return res.rows;
}

/** Groups sorted by severity, then pages affected, then elements; one page of them and the total. */
export async function listIssueGroups(
  db: Database,
  siteId: string,
  crawlId: string,
  f: IssueGroupFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: IssueGroupRecord[]; total: number }> {
  const state = await db
    .selectFrom('crawls as c')
    .innerJoin('sites as s', 's.id', 'c.site_id')
    .select(['c.status', 's.issues_version'])
    .where('c.id', '=', crawlId)
    .executeTakeFirst();
  const ended = state !== undefined && isCrawlEnded(state.status);
  const key = `${siteId}:${crawlId}:${JSON.stringify([f.severity, f.wcagLevel, f.wcagCriterion, f.type, f.ruleId, f.pageId, f.status])}`;
  let groups = ended ? endedCrawlGroups(db).get(key, state.issues_version) : undefined;
  if (groups === undefined) {
    groups = await allGroups(db, siteId, crawlId, f);
    if (ended) endedCrawlGroups(db).set(key, state.issues_version, groups);
  }
  const res = { rows: groups.slice(page.offset, page.offset + page.limit) };
  const total = groups.length;
  const ids = res.rows.map((r) => r.example_id);
  const examples = ids.length
    ? await db
        .selectFrom('findings as f')
        .innerJoin('page_scans as ps', 'ps.id', 'f.page_scan_id')
        .leftJoin('issues as i', (j) => j.onRef('i.fingerprint', '=', 'f.fingerprint').on('i.site_id', '=', siteId))
        .select(['f.id', 'ps.url', ...FINDING_ELEMENT_COLUMNS, 'f.wcag_criteria', 'i.id as issue_id'])
        .select((eb) => eb.exists(eb.selectFrom('finding_screenshots as s').select('s.finding_id').whereRef('s.finding_id', '=', 'f.id')).as('pictured'))
        .where('f.id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(examples.map((e) => [e.id, e]));
  return {
    total,
    rows: res.rows.map((r) => {
      const e = byId.get(r.example_id)!;
      return {
        groupKey: r.group_key,
        ruleId: r.rule_id,
        wcagCriterion: r.wcag_criterion,
        wcagLevel: r.wcag_level,
        // The members share the rule and so its criteria: the example's, behind the group's primary.
        wcagCriteria: wcagCriteria([r.wcag_criterion, ...(e.wcag_criteria ?? [])]),
        severity: severityOfRank(r.sev),
        type: r.confirmed ? 'confirmed' : 'needs_review',
        pages: r.pages,
        elements: r.elements,
        example: { pageUrl: e.url, selector: e.selector, html: e.html, issueId: e.issue_id, hasScreenshot: Boolean(e.pictured) && e.issue_id !== null },
        description: e.description,
        fixSuggestion: e.fixSuggestion,
      };
    }),
  };
}
