import { sql } from 'kysely';
import { SEVERITIES } from '../../shared/contracts.ts';
import type { Database, Issue } from '../schema.ts';
import { criteriaFilters, LEGACY_GROUP_PREFIX, type IssueGroupFilters } from './issue-group.repository.ts';
import { issueFromRow, mapRow, type IssueRecord } from './records.ts';
import { cacheOf } from './versioned-cache.ts';
import { appendHistory } from './status-history.ts';

/** The issue list's filters: the groups' own, plus the members of one group. */
export interface IssueFilters extends IssueGroupFilters {
  /** A group's members; `finding:<fingerprint>` names a group of one stored before groups existed. */
  groupKey?: string;
  /** The issues this crawl counted as new: opened or reopened by it (its status history says so). */
  newInCrawl?: string;
  /** Issues of HTML pages only, or of documents (PDFs) only. */
  pageKind?: 'page' | 'document';
}


/** An issue with the URL of its page. */
export type IssueWithPage = IssueRecord & { pageUrl: string };

function issueWithPageFromRow(row: Issue): IssueWithPage {
  return { ...issueFromRow(row), pageUrl: row.page_url };
}

function issueQuery(db: Database, siteId: string, f: IssueFilters) {
  let q = db.selectFrom('issues as i').where('i.site_id', '=', siteId);
  // By rank, so the list's indexes (which lead with the rank) serve the severity filter too.
  if (f.severity) q = q.where('i.severity_rank', '=', SEVERITIES.indexOf(f.severity));
  for (const w of criteriaFilters('i', f)) if (w) q = q.where(w);
  if (f.status) q = q.where('i.status', '=', f.status);
  if (f.pageId) q = q.where('i.page_id', '=', f.pageId);
  if (f.type) q = q.where('i.type', '=', f.type);
  if (f.ruleId) q = q.where('i.rule_id', '=', f.ruleId);
  if (f.groupKey) {
    q = f.groupKey.startsWith(LEGACY_GROUP_PREFIX)
      ? q.where('i.fingerprint', '=', f.groupKey.slice(LEGACY_GROUP_PREFIX.length))
      : q.where('i.group_key', '=', f.groupKey);
  }
  if (f.newInCrawl) {
    // The entry finalizeCrawl appended when it opened or reopened the issue (a user's reopen has no crawlId).
    q = q.where(sql<boolean>`i.status_history @> ${JSON.stringify([{ to: 'open', changedBy: 'crawl', crawlId: f.newInCrawl }])}::jsonb`);
  }
  if (f.pageKind) {
    const document = f.pageKind === 'document';
    q = q.where(sql<boolean>`exists (select 1 from pages p where p.id = i.page_id and (p.media_type is not null) = ${document})`);
  }
  return q;
}

/** Counts of a site's issues per filter, for the site's current `issues_version`. */
const issueCounts = (db: Database) => cacheOf<number>(db, 'issueCounts', 2000);

/** The cache key of a site's filter set. */
function filterKey(siteId: string, f: IssueFilters): string {
  return `${siteId}:${JSON.stringify([f.severity, f.wcagLevel, f.wcagCriterion, f.status, f.pageId, f.type, f.ruleId, f.groupKey, f.newInCrawl, f.pageKind])}`;
}

/** A site's issue list total for a filter set, counted once per site version and filter set. */
async function issueTotal(db: Database, siteId: string, f: IssueFilters, version: string): Promise<number> {
  const countKey = filterKey(siteId, f);
  let total = issueCounts(db).get(countKey, version);
  if (total === undefined) {
    total = Number((await issueQuery(db, siteId, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    issueCounts(db).set(countKey, version, total);
  }
  return total;
}

/** A row's place in the list's order: severity rank, page URL, id. */
export type ListKey = [rank: number, pageUrl: string, id: string];

/**
 * Where pages of a list served earlier ended, per site version and filter set: position → the key
 * of the row just before it. A later page that starts at or past a bookmark reads on from that
 * key along the index instead of stepping over every row before it, so paging through 50,000
 * issues costs the same on the last page as on the first. The version is read in the same
 * statement as the rows, so a bookmark never outlives the data it was taken from.
 */
const listBookmarks = (db: Database) => cacheOf<Map<number, ListKey>>(db, 'listBookmarks', 500);
const BOOKMARKS_PER_LIST = 200;
/** Each site's `issues_version` as last read, to pick bookmarks before the statement reads it again. */
const lastVersions = (db: Database) => cacheOf<string>(db, 'lastVersions', 10_000);

/** The bookmark furthest along that a page starting at `offset` can read on from (none before the first row). */
export function nearestBookmark(marks: ReadonlyMap<number, ListKey> | undefined, offset: number): { at: number; key: ListKey } | undefined {
  let best: { at: number; key: ListKey } | undefined;
  for (const [at, key] of marks ?? []) if (at > 0 && at <= offset && (!best || at > best.at)) best = { at, key };
  return best;
}

/** ISO 8601 UTC with milliseconds, truncated as node-postgres truncates (the API's `iso()`). */
const isoText = (col: string) => sql`to_char(${sql.ref(col)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * One page of the site's list in one statement: the site's issue version, the page's rows as the
 * API's JSON array, the key of its last row, and the key of the row just before it (read along
 * with the page), so that both ends of the page become bookmarks: the same deep page read again
 * starts at its own bookmark. No row: the site does not exist.
 */
function listPageQuery(db: Database, siteId: string, f: IssueFilters, page: { limit: number; offset: number }, from: { at: number; key: ListKey } | undefined) {
  let keys = issueQuery(db, siteId, f).select(['i.id', 'i.severity_rank', 'i.page_url']);
  if (from) keys = keys.where(sql<boolean>`(i.severity_rank, i.page_url, i.id) > (${from.key[0]}::int, ${from.key[1]}::text, ${from.key[2]}::uuid)`);
  const at = from?.at ?? 0;
  // Unless the page starts at the bookmark (or the list's start), read one row more in front of it.
  const before = page.offset > at ? 1 : 0;
  keys = keys
    .orderBy('i.severity_rank')
    .orderBy('i.page_url')
    .orderBy('i.id')
    .limit(page.limit + before)
    .offset(page.offset - at - before);
  return db
    .with('w', () => keys)
    .with('k', (q) => q.selectFrom('w').selectAll().orderBy('w.severity_rank').orderBy('w.page_url').orderBy('w.id').offset(before))
    .selectFrom('sites as s')
    .where('s.id', '=', siteId)
    .select([
      's.issues_version as version',
      sql<number>`(select count(*)::int from k)`.as('count'),
      sql<string>`(select coalesce(json_agg(json_build_object(
          'id', i.id, 'siteId', i.site_id, 'pageId', i.page_id, 'pageUrl', i.page_url, 'type', i.type, 'severity', i.severity,
          'wcagCriterion', i.wcag_criterion, 'wcagLevel', i.wcag_level, 'wcagCriteria', i.wcag_criteria, 'elementSelector', i.element_selector,
          'elementHtml', i.element_html, 'description', i.description, 'fixSuggestion', i.fix_suggestion, 'axeRuleId', i.rule_id,
          'groupKey', i.group_key, 'status', i.status, 'helpUrl', i.help_url,
          'alsoFlaggedBy', case when jsonb_typeof(i.data->'alsoFlaggedBy') = 'array' then i.data->'alsoFlaggedBy' else '[]'::jsonb end,
          'evidence', coalesce(i.data, '{}'::jsonb) - 'alsoFlaggedBy', 'state', i.state, 'viewport', i.viewport,
          'firstSeenAt', ${isoText('i.first_seen_at')}, 'lastSeenAt', ${isoText('i.last_seen_at')},
          'createdAt', ${isoText('i.created_at')}, 'updatedAt', ${isoText('i.updated_at')}
        ) order by k.severity_rank, k.page_url, k.id), '[]')::text from k join issues i on i.id = k.id)`.as('json'),
      sql<ListKey | null>`(select json_build_array(k.severity_rank, k.page_url, k.id) from k order by k.severity_rank desc, k.page_url desc, k.id desc limit 1)`.as('last'),
      before
        ? sql<ListKey | null>`(select json_build_array(w.severity_rank, w.page_url, w.id) from w order by w.severity_rank, w.page_url, w.id limit 1)`.as('before')
        : sql<ListKey | null>`null::json`.as('before'),
    ])
    .executeTakeFirst();
}

/**
 * One page of the issue list as the API's JSON array, written by PostgreSQL: the list endpoint is
 * read far more often than anything else, and rendering the rows there spares the API parsing
 * every column and serialising every element's HTML again. The shape is the API's issue object
 * (`issueDto`: `alsoFlaggedBy` out of `data`, the rest of `data` as `evidence`, dates as ISO
 * text); a test holds the two to the same output. Undefined when the site does not exist.
 */
export async function listIssuesJson(
  db: Database,
  siteId: string,
  f: IssueFilters,
  page: { limit: number; offset: number },
): Promise<{ json: string; count: number; total: number } | undefined> {
  const key = filterKey(siteId, f);
  const expected = lastVersions(db).get(siteId, '');
  const from = expected === undefined ? undefined : nearestBookmark(listBookmarks(db).get(key, expected), page.offset);
  let row = await listPageQuery(db, siteId, f, page, from);
  // The issues changed since the bookmark was taken: read the page from the start of the list.
  if (row && from && row.version !== expected) row = await listPageQuery(db, siteId, f, page, undefined);
  if (!row) return undefined;
  lastVersions(db).set(siteId, '', row.version);
  if (row.before || (row.last && row.count > 0)) {
    const marks = listBookmarks(db).get(key, row.version) ?? new Map<number, ListKey>();
    if (row.before) marks.set(page.offset, row.before);
    if (row.last && row.count > 0) marks.set(page.offset + row.count, row.last);
    while (marks.size > BOOKMARKS_PER_LIST) marks.delete(marks.keys().next().value!);
    listBookmarks(db).set(key, row.version, marks);
  }
  return { json: row.json, count: row.count, total: await issueTotal(db, siteId, f, row.version) };
}

export async function findIssue(db: Database, siteId: string, issueId: string): Promise<IssueWithPage | undefined> {
  const row = await issueQuery(db, siteId, {}).selectAll('i').where('i.id', '=', issueId).executeTakeFirst();
  return mapRow(issueWithPageFromRow, row);
}

export async function issuesOfPage(db: Database, siteId: string, pageId: string): Promise<IssueWithPage[]> {
  const rows = await issueQuery(db, siteId, { pageId }).selectAll('i').orderBy('i.severity_rank').orderBy('i.id').execute();
  return rows.map(issueWithPageFromRow);
}

/** A user's status change; the same status again changes nothing and adds no history. */
export async function setIssueStatus(
  db: Database,
  siteId: string,
  issueId: string,
  v: { status: 'open' | 'dismissed' | 'cant_fix'; note: string | null },
): Promise<IssueWithPage | undefined> {
  await db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom('issues').select('status').where('id', '=', issueId).where('site_id', '=', siteId).forUpdate().executeTakeFirst();
    if (!current || current.status === v.status) return;
    const entry = { from: current.status, to: v.status, changedBy: 'user', crawlId: null, note: v.note, at: new Date().toISOString() };
    await sql`update issues i set status = ${v.status}, ${appendHistory('i', sql`${JSON.stringify([entry])}::jsonb`)}, updated_at = now() where i.id = ${issueId}`.execute(trx);
  });
  return findIssue(db, siteId, issueId);
}
