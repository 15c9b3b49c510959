import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, Page } from '../schema.ts';

type Db = Kysely<DB> | Transaction<DB>;

export interface Counts {
  critical: number;
  serious: number;
  moderate: number;
  minor: number;
}

const countCols = (table: string) => sql<Counts>`json_build_object(
  'critical', count(*) filter (where ${sql.ref(`${table}.severity`)} = 'critical'),
  'serious', count(*) filter (where ${sql.ref(`${table}.severity`)} = 'serious'),
  'moderate', count(*) filter (where ${sql.ref(`${table}.severity`)} = 'moderate'),
  'minor', count(*) filter (where ${sql.ref(`${table}.severity`)} = 'minor'))`;

async function openIssueCounts(db: Db, pageIds: string[]): Promise<Map<string, Counts>> {
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

export async function listPages(db: Db, siteId: string, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    db.selectFrom('pages').selectAll().where('site_id', '=', siteId).orderBy('url').orderBy('id').limit(page.limit).offset(page.offset).execute(),
    db.selectFrom('pages').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow(),
  ]);
  const counts = await openIssueCounts(db, rows.map((r) => r.id));
  return { rows: rows.map((p) => ({ page: p, counts: counts.get(p.id) })), total: total.n };
}

export async function findPage(db: Db, siteId: string, pageId: string): Promise<{ page: Page; counts: Counts | undefined } | undefined> {
  const page = await db.selectFrom('pages').selectAll().where('id', '=', pageId).where('site_id', '=', siteId).executeTakeFirst();
  if (!page) return undefined;
  return { page, counts: (await openIssueCounts(db, [page.id])).get(page.id) };
}

/** The page's scans, newest first, each with its findings counted by severity. */
export async function pageScanHistory(db: Db, pageId: string) {
  return db
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
      sql<Counts>`json_build_object(
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
}
