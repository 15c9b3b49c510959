import { sql, type Kysely, type Transaction } from 'kysely';
import type { PageError, ScanStatus } from '../../shared/contracts.ts';
import type { CrawlPageState, DB } from '../schema.ts';
import { crawlFromRow, mapRow, scanFromRow, type CrawlRecord, type DiscoveredVia, type ErrorInfo, type ScanRecord } from './records.ts';

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

/** URLs discovery has already fetched in this crawl (its fetch budget survives a retry). */
export async function countFetchedUrls(db: Db, crawlId: string): Promise<number> {
  const r = await db
    .selectFrom('crawl_urls')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'done')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

// ---- discovery frontier ----------------------------------------------------------------

export interface FrontierUrl {
  url: string;
  depth: number;
  via: DiscoveredVia;
}

export async function enqueueUrls(db: Db, crawlId: string, urls: readonly FrontierUrl[]): Promise<void> {
  for (let i = 0; i < urls.length; i += 500) {
    await db
      .insertInto('crawl_urls')
      .values(urls.slice(i, i + 500).map((u) => ({ crawl_id: crawlId, url: u.url, depth: u.depth, via: u.via })))
      .onConflict((oc) => oc.columns(['crawl_id', 'url']).doNothing())
      .execute();
  }
}

export async function nextQueuedUrls(db: Db, crawlId: string, limit: number): Promise<FrontierUrl[]> {
  return db
    .selectFrom('crawl_urls')
    .select(['url', 'depth', 'via'])
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'queued')
    .orderBy('seq')
    .limit(limit)
    .execute();
}

export async function allFrontierUrls(db: Db, crawlId: string): Promise<string[]> {
  const rows = await db.selectFrom('crawl_urls').select('url').where('crawl_id', '=', crawlId).execute();
  return rows.map((r) => r.url);
}

export async function markUrlDone(db: Db, crawlId: string, url: string, outcome: string): Promise<void> {
  await db
    .insertInto('crawl_urls')
    .values({ crawl_id: crawlId, url, depth: 0, via: 'link', state: 'done', outcome })
    .onConflict((oc) => oc.columns(['crawl_id', 'url']).doUpdateSet({ state: 'done', outcome }))
    .execute();
}

/**
 * Records a discovered page for this crawl once: the page row (by site and URL) and its frontier
 * entry. Counters move only when the entry is new, so a rerun of discovery counts nothing twice.
 */
export async function registerPage(
  db: Kysely<DB>,
  v: {
    crawlId: string;
    siteId: string;
    url: string;
    path: string;
    depth: number;
    via: DiscoveredVia;
    httpStatus: number | null;
    failed?: ErrorInfo;
  },
): Promise<{ pageId: string; added: boolean }> {
  return db.transaction().execute(async (trx) => {
    const page = await trx
      .insertInto('pages')
      .values({ site_id: v.siteId, url: v.url, path: v.path, depth: v.depth, discovered_via: v.via, http_status: v.httpStatus })
      .onConflict((oc) => oc.columns(['site_id', 'url']).doUpdateSet({ http_status: sql`coalesce(excluded.http_status, pages.http_status)` }))
      .returning('id')
      .executeTakeFirstOrThrow();
    const added = await trx
      .insertInto('crawl_pages')
      .values({
        crawl_id: v.crawlId,
        page_id: page.id,
        depth: v.depth,
        state: v.failed ? 'failed' : 'pending',
        error: v.failed ? JSON.stringify(v.failed) : null,
      })
      .onConflict((oc) => oc.columns(['crawl_id', 'page_id']).doNothing())
      .returning('page_id')
      .executeTakeFirst();
    if (added) {
      await trx
        .updateTable('crawls')
        .set((eb) => ({
          total_pages: eb('total_pages', '+', 1),
          failed_pages: v.failed ? eb('failed_pages', '+', 1) : eb.ref('failed_pages'),
        }))
        .where('id', '=', v.crawlId)
        .execute();
    }
    return { pageId: page.id, added: !!added };
  });
}

export async function countCrawlPages(db: Db, crawlId: string): Promise<number> {
  const r = await db.selectFrom('crawls').select('total_pages').where('id', '=', crawlId).executeTakeFirstOrThrow();
  return r.total_pages;
}

export async function incrementBrokenLinks(db: Db, crawlId: string): Promise<void> {
  await db.updateTable('crawls').set((eb) => ({ broken_links: eb('broken_links', '+', 1) })).where('id', '=', crawlId).execute();
}

// ---- dispatch -----------------------------------------------------------------------------

/**
 * Hands out up to `limit` pending pages under `claimKey`. The same key returns the same pages
 * again, so a retried claim activity never strands pages as dispatched-but-never-scanned.
 */
export async function claimPages(db: Kysely<DB>, crawlId: string, claimKey: string, limit: number): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const already = await trx.selectFrom('crawl_pages').select('page_id').where('crawl_id', '=', crawlId).where('claim_key', '=', claimKey).orderBy('seq').execute();
    if (already.length > 0) return already.map((r) => r.page_id);
    const rows = await sql<{ page_id: string }>`
      update crawl_pages set state = 'dispatched', claim_key = ${claimKey}
      where crawl_id = ${crawlId} and page_id in (
        select page_id from crawl_pages
        where crawl_id = ${crawlId} and state = 'pending'
        order by seq limit ${limit}
        for update skip locked)
      returning page_id, seq`.execute(trx);
    return rows.rows.map((r) => r.page_id);
  });
}

const COUNTER_FOR: Partial<Record<CrawlPageState, 'scanned_pages' | 'failed_pages' | 'enriched_pages' | 'enrich_failed_pages'>> = {
  scanned: 'scanned_pages',
  failed: 'failed_pages',
  enriched: 'enriched_pages',
  enrich_failed: 'enrich_failed_pages',
};

/**
 * Moves a page of a crawl from one of `from` to `to` and bumps the matching counter, in one
 * transaction and only if the move happens: retried activities count once.
 */
export async function transitionPage(
  db: Kysely<DB> | Transaction<DB>,
  v: { crawlId: string; pageId: string; from: CrawlPageState[]; to: CrawlPageState; error?: ErrorInfo },
): Promise<boolean> {
  const run = async (trx: Transaction<DB>) => {
    const moved = await trx
      .updateTable('crawl_pages')
      .set({ state: v.to, ...(v.error ? { error: JSON.stringify(v.error) } : {}) })
      .where('crawl_id', '=', v.crawlId)
      .where('page_id', '=', v.pageId)
      .where('state', 'in', v.from)
      .returning('page_id')
      .executeTakeFirst();
    const counter = COUNTER_FOR[v.to];
    if (moved && counter) {
      await trx.updateTable('crawls').set((eb) => ({ [counter]: eb(counter, '+', 1) })).where('id', '=', v.crawlId).execute();
    }
    return !!moved;
  };
  return db.isTransaction ? run(db as Transaction<DB>) : (db as Kysely<DB>).transaction().execute(run);
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

export async function crawlPageState(db: Db, crawlId: string, pageId: string): Promise<CrawlPageState | undefined> {
  const r = await db.selectFrom('crawl_pages').select('state').where('crawl_id', '=', crawlId).where('page_id', '=', pageId).executeTakeFirst();
  return r?.state;
}

/** The page_scans row of a page in a crawl, created on first use (one per page per crawl). */
export async function ensureCrawlPageScan(db: Db, v: { crawlId: string; pageId: string; url: string }): Promise<Pick<ScanRecord, 'id' | 'status'>> {
  const inserted = await sql<{ id: string; status: ScanStatus }>`
    insert into page_scans (kind, crawl_id, page_id, url, status, started_at)
    values ('crawl', ${v.crawlId}, ${v.pageId}, ${v.url}, 'running', now())
    on conflict (crawl_id, page_id) where kind = 'crawl' do update set url = excluded.url
    returning id, status`.execute(db);
  return inserted.rows[0]!;
}

/**
 * Sets the status of a page's scan row in a crawl (found by crawl and page, not by scan id), with
 * its error if given, and `completed_at` to now when `completed`.
 */
export async function updateCrawlPageScan(
  db: Db,
  crawlId: string,
  pageId: string,
  v: { status: ScanStatus; error?: PageError; completed?: boolean },
): Promise<void> {
  await db
    .updateTable('page_scans')
    .set({
      status: v.status,
      ...(v.error ? { error: JSON.stringify(v.error) } : {}),
      ...(v.completed ? { completed_at: sql<Date>`now()` } : {}),
    })
    .where('kind', '=', 'crawl')
    .where('crawl_id', '=', crawlId)
    .where('page_id', '=', pageId)
    .execute();
}

export async function findCrawlPageScan(db: Db, crawlId: string, pageId: string): Promise<ScanRecord | undefined> {
  return mapRow(
    scanFromRow,
    await db.selectFrom('page_scans').selectAll().where('kind', '=', 'crawl').where('crawl_id', '=', crawlId).where('page_id', '=', pageId).executeTakeFirst(),
  );
}
