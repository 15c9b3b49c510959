import { sql } from 'kysely';
import type { PageError, ScanCoverage, ScanStatus } from '../../shared/contracts.ts';
import type { Database } from '../schema.ts';
import { pageFromRow, type PageRecord, type ScanRecord } from './records.ts';
import type { IssueCounts } from '../../shared/contracts.ts';

/** A page with its open issues counted by severity (undefined: none open). */
export interface PageWithCounts {
  page: PageRecord;
  counts: IssueCounts | undefined;
}

/** One scan of a page's history, with its findings counted by severity. */
export type PageScanHistoryEntry = Pick<ScanRecord, 'id' | 'crawlId' | 'status' | 'score' | 'completedAt' | 'createdAt' | 'durationMs' | 'error' | 'unfinishedEngines'> & {
  counts: IssueCounts;
  /** A reused page: the scan whose audit it carries. */
  reusedFrom: string | null;
};

const countCols = (table: string) => sql<IssueCounts>`json_build_object(
  'critical', count(*) filter (where ${sql.ref(`${table}.severity`)} = 'critical'),
  'serious', count(*) filter (where ${sql.ref(`${table}.severity`)} = 'serious'),
  'moderate', count(*) filter (where ${sql.ref(`${table}.severity`)} = 'moderate'),
  'minor', count(*) filter (where ${sql.ref(`${table}.severity`)} = 'minor'))`;

async function openIssueCounts(db: Database, pageIds: string[]): Promise<Map<string, IssueCounts>> {
  if (pageIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('issues')
    .select(['page_id', countCols('issues').as('counts')])
    .where('page_id', 'in', pageIds)
    .where('status', '=', 'open')
    .groupBy('page_id')
    .execute();
  return new Map(rows.map((r) => [r.page_id, r.counts]));
}

/** What a page is: an HTML page loaded in the browser, or a document (a PDF) the site links to. */
export type PageKind = 'page' | 'document';

export async function listPages(db: Database, siteId: string, page: { limit: number; offset: number; kind?: PageKind }): Promise<{ rows: PageWithCounts[]; total: number }> {
  const of = <Q extends { where: (...a: any[]) => Q }>(q: Q): Q =>
    page.kind === undefined ? q : page.kind === 'document' ? q.where('media_type', 'is not', null) : q.where('media_type', 'is', null);
  const [rows, total] = await Promise.all([
    of(db.selectFrom('pages').selectAll().where('site_id', '=', siteId)).orderBy('url').orderBy('id').limit(page.limit).offset(page.offset).execute(),
    of(db.selectFrom('pages').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId)).executeTakeFirstOrThrow(),
  ]);
  const counts = await openIssueCounts(db, rows.map((r) => r.id));
  return { rows: rows.map((p) => ({ page: pageFromRow(p), counts: counts.get(p.id) })), total: total.n };
}

export async function findPage(db: Database, siteId: string, pageId: string): Promise<PageWithCounts | undefined> {
  const page = await db.selectFrom('pages').selectAll().where('id', '=', pageId).where('site_id', '=', siteId).executeTakeFirst();
  if (!page) return undefined;
  return { page: pageFromRow(page), counts: (await openIssueCounts(db, [page.id])).get(page.id) };
}

/** A page's id and URL; throws if there is no such page. */
export async function getPageUrl(db: Database, pageId: string): Promise<Pick<PageRecord, 'id' | 'url' | 'mediaType'>> {
  const r = await db.selectFrom('pages').select(['id', 'url', 'media_type']).where('id', '=', pageId).executeTakeFirstOrThrow();
  return { id: r.id, url: r.url, mediaType: r.media_type };
}

/**
 * Records a scan of the page: its HTTP status always, and when it was scanned successfully
 * (`scanned` given) its latest score, title and scan time.
 */
export async function savePageScanOutcome(
  db: Database,
  pageId: string,
  v: { httpStatus: number | null; scanned?: { score: number | null; title: string | null } },
): Promise<void> {
  await db
    .updateTable('pages')
    .set({
      http_status: v.httpStatus,
      ...(v.scanned ? { latest_score: v.scanned.score, title: v.scanned.title, last_scanned_at: sql<Date>`now()` } : {}),
    })
    .where('id', '=', pageId)
    .execute();
}

/** The page's scans, newest first, each with its findings counted by severity. */
export async function pageScanHistory(db: Database, pageId: string): Promise<PageScanHistoryEntry[]> {
  const rows = await db
    .selectFrom('page_scans as ps')
    .leftJoin('findings as f', 'f.page_scan_id', 'ps.id')
    .select([
      'ps.id',
      'ps.crawl_id',
      'ps.status',
      'ps.score',
      'ps.completed_at',
      'ps.created_at',
      'ps.duration_ms',
      'ps.error',
      'ps.reused_from_scan_id',
      'ps.coverage',
      sql<IssueCounts>`json_build_object(
        'critical', count(f.id) filter (where f.severity = 'critical'),
        'serious', count(f.id) filter (where f.severity = 'serious'),
        'moderate', count(f.id) filter (where f.severity = 'moderate'),
        'minor', count(f.id) filter (where f.severity = 'minor'))`.as('counts'),
    ])
    .where('ps.page_id', '=', pageId)
    .groupBy('ps.id')
    .orderBy('ps.created_at', 'desc')
    .orderBy('ps.id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    crawlId: r.crawl_id,
    status: r.status as ScanStatus,
    score: r.score,
    completedAt: r.completed_at,
    createdAt: r.created_at,
    durationMs: r.duration_ms,
    error: (r.error as PageError | null) ?? null,
    unfinishedEngines: (r.coverage as ScanCoverage | null)?.unfinishedEngines ?? [],
    counts: r.counts,
    reusedFrom: r.reused_from_scan_id,
  }));
}
