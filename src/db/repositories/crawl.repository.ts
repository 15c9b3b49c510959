/** Crawl rows: one per crawl of a site, with the counters its pages move. */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../schema.ts';
import { crawlFromRow, mapRow, type CrawlRecord, type ErrorInfo } from './records.ts';

type Db = Kysely<DB> | Transaction<DB>;

export const ENDED_CRAWL_STATUSES = ['completed', 'completed_partial', 'cancelled', 'failed'] as const;

export function isCrawlEnded(status: string): boolean {
  return (ENDED_CRAWL_STATUSES as readonly string[]).includes(status);
}

export class CrawlInProgressError extends Error {
  readonly crawlId: string;
  constructor(crawlId: string) {
    super(`crawl ${crawlId} of this site is still queued or running`);
    this.crawlId = crawlId;
  }
}

/** Inserts a queued crawl; the partial unique index turns a second active crawl into CrawlInProgressError. */
export async function insertCrawl(db: Kysely<DB>, v: { siteId: string; maxPages: number }): Promise<CrawlRecord> {
  try {
    return crawlFromRow(await db.insertInto('crawls').values({ site_id: v.siteId, max_pages: v.maxPages }).returningAll().executeTakeFirstOrThrow());
  } catch (err) {
    if ((err as { code?: string }).code === '23505') {
      const active = await db
        .selectFrom('crawls')
        .select('id')
        .where('site_id', '=', v.siteId)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      if (active) throw new CrawlInProgressError(active.id);
    }
    throw err;
  }
}

export async function deleteCrawl(db: Db, id: string): Promise<void> {
  await db.deleteFrom('crawls').where('id', '=', id).execute();
}

export async function findCrawl(db: Db, id: string): Promise<CrawlRecord | undefined> {
  return mapRow(crawlFromRow, await db.selectFrom('crawls').selectAll().where('id', '=', id).executeTakeFirst());
}

export async function findSiteCrawl(db: Db, siteId: string, id: string): Promise<CrawlRecord | undefined> {
  return mapRow(crawlFromRow, await db.selectFrom('crawls').selectAll().where('id', '=', id).where('site_id', '=', siteId).executeTakeFirst());
}

export async function listCrawls(db: Db, siteId: string, page: { limit: number; offset: number }): Promise<{ rows: CrawlRecord[]; total: number }> {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('crawls')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db.selectFrom('crawls').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(crawlFromRow), total: total.n };
}

export async function latestCrawl(db: Db, siteId: string): Promise<CrawlRecord | undefined> {
  return mapRow(
    crawlFromRow,
    await db.selectFrom('crawls').selectAll().where('site_id', '=', siteId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst(),
  );
}

export async function markCrawlRunning(db: Db, id: string): Promise<CrawlRecord | undefined> {
  const row = await db
    .updateTable('crawls')
    .set({ status: 'running', started_at: sql<Date>`coalesce(started_at, now())` })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .returningAll()
    .executeTakeFirst();
  return mapRow(crawlFromRow, row);
}

/** Discovery is over; `error` says why it stopped short (the first reason given is kept). */
export async function setDiscoveryDone(db: Db, id: string, error?: ErrorInfo): Promise<void> {
  await db
    .updateTable('crawls')
    .set(error ? { discovery_done: true, discovery_error: sql`coalesce(discovery_error, ${JSON.stringify(error)}::jsonb)` } : { discovery_done: true })
    .where('id', '=', id)
    .execute();
}


export async function incrementBrokenLinks(db: Db, crawlId: string): Promise<void> {
  await db.updateTable('crawls').set((eb) => ({ broken_links: eb('broken_links', '+', 1) })).where('id', '=', crawlId).execute();
}


/** Adds what enriching one page cost to the crawl's totals (in the page's enrichment transaction). */
export async function addEnrichmentUsage(
  db: Db,
  crawlId: string,
  u: { calls: number; cacheHits: number; inputTokens: number; outputTokens: number },
): Promise<void> {
  if (u.calls === 0 && u.cacheHits === 0 && u.inputTokens === 0 && u.outputTokens === 0) return;
  await db
    .updateTable('crawls')
    .set((eb) => ({
      ai_calls: eb('ai_calls', '+', u.calls),
      ai_cache_hits: eb('ai_cache_hits', '+', u.cacheHits),
      ai_input_tokens: eb('ai_input_tokens', '+', u.inputTokens),
      ai_output_tokens: eb('ai_output_tokens', '+', u.outputTokens),
    }))
    .where('id', '=', crawlId)
    .execute();
}
