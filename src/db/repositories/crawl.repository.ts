/** Crawl rows: one per crawl of a site, with the counters its pages move. */
import { sql } from 'kysely';
import type { Database } from '../schema.ts';
import { crawlFromRow, mapRow, type CrawlRecord } from './records.ts';
import type { ErrorInfo, ViewportName } from '../../shared/contracts.ts';
import { storedViewports } from '../../shared/viewports.ts';

export const ENDED_CRAWL_STATUSES = ['completed', 'completed_partial', 'cancelled', 'failed'] as const;

export function isCrawlEnded(status: string): boolean {
  return (ENDED_CRAWL_STATUSES as readonly string[]).includes(status);
}

/** The id of the site's queued or running crawl, if it has one. */
export async function activeCrawlId(db: Database, siteId: string): Promise<string | undefined> {
  const r = await db.selectFrom('crawls').select('id').where('site_id', '=', siteId).where('status', 'in', ['queued', 'running']).executeTakeFirst();
  return r?.id;
}

/**
 * Removes the row of a crawl whose workflow could not be started (the API wrote it just before):
 * nothing refers to it yet. Only while it is still `queued`.
 */
export async function removeUnstartedCrawl(db: Database, crawlId: string): Promise<void> {
  await db.deleteFrom('crawls').where('id', '=', crawlId).where('status', '=', 'queued').execute();
}

/**
 * Ends a queued crawl whose workflow does not exist (the process that wrote its row stopped before
 * it started the workflow, or Temporal lost it): `failed` with `not_started`, so the site can be
 * crawled again. False when the crawl was no longer queued.
 */
export async function failUnstartedCrawl(db: Database, crawlId: string): Promise<boolean> {
  const error = { code: 'not_started', message: 'the crawl was written but its workflow never started (the process that started it stopped, or the workflow service lost it)' };
  const r = await db
    .updateTable('crawls')
    .set({ status: 'failed', error: JSON.stringify(error), completed_at: sql<Date>`now()` })
    .where('id', '=', crawlId)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export type OpenCrawlResult = { opened: true } | { opened: false; reason: 'crawl_in_progress'; activeCrawlId: string } | { opened: false; reason: 'site_gone' };

/**
 * The crawl's row: written by the API before it starts the workflow, and by the workflow's first
 * step when a Temporal Schedule started it. Idempotent: the workflow, or a retry, finds the row. When the site
 * already has a queued or running crawl, the row is written `failed` with `crawl_in_progress`
 * naming that crawl, so whoever started this one can see why it never ran.
 */
export async function openCrawl(
  db: Database,
  v: { crawlId: string; siteId: string; maxPages: number; viewports?: readonly ViewportName[]; workflowId?: string; reuse?: boolean },
): Promise<OpenCrawlResult> {
  // Desktop only is stored as null, as on every crawl before viewports.
  const stored = storedViewports(v.viewports);
  const viewports = stored ? JSON.stringify(stored) : null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await findCrawl(db, v.crawlId);
    if (existing) {
      return existing.status === 'failed' && existing.error?.code === 'crawl_in_progress'
        ? { opened: false, reason: 'crawl_in_progress', activeCrawlId: String((existing.error as ErrorInfo & { crawlId?: string }).crawlId ?? '') }
        : { opened: true };
    }
    try {
      await db.insertInto('crawls').values({ id: v.crawlId, site_id: v.siteId, max_pages: v.maxPages, viewports, workflow_id: v.workflowId ?? null, reuse: v.reuse ?? true }).execute();
      return { opened: true };
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === '23503') return { opened: false, reason: 'site_gone' };
      if (code !== '23505') throw err;
      const active = await activeCrawlId(db, v.siteId);
      if (!active || active === v.crawlId) continue; // the other crawl ended meanwhile, or a retry raced this one
      const error = { code: 'crawl_in_progress', message: `crawl ${active} of this site was still queued or running`, crawlId: active };
      const wrote = await db
        .insertInto('crawls')
        .values({ id: v.crawlId, site_id: v.siteId, max_pages: v.maxPages, viewports, workflow_id: v.workflowId ?? null, status: 'failed', error: JSON.stringify(error), completed_at: sql<Date>`now()` })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (Number(wrote.numInsertedOrUpdatedRows ?? 0) === 1) return { opened: false, reason: 'crawl_in_progress', activeCrawlId: active };
    }
  }
  throw new Error(`crawl ${v.crawlId} could not be opened: its site's crawls kept changing`);
}

export async function findCrawl(db: Database, id: string): Promise<CrawlRecord | undefined> {
  return mapRow(crawlFromRow, await db.selectFrom('crawls').selectAll().where('id', '=', id).executeTakeFirst());
}

export async function findSiteCrawl(db: Database, siteId: string, id: string): Promise<CrawlRecord | undefined> {
  return mapRow(crawlFromRow, await db.selectFrom('crawls').selectAll().where('id', '=', id).where('site_id', '=', siteId).executeTakeFirst());
}

export async function listCrawls(db: Database, siteId: string, page: { limit: number; offset: number }): Promise<{ rows: CrawlRecord[]; total: number }> {
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

/**
 * The site's trend: its crawls that ran and ended (a run a Schedule started while another crawl
 * was under way never ran), newest first.
 */
export async function crawlTrend(db: Database, siteId: string, page: { limit: number; offset: number }): Promise<{ rows: CrawlRecord[]; total: number }> {
  const ran = db.selectFrom('crawls').where('site_id', '=', siteId).where('completed_at', 'is not', null).where('started_at', 'is not', null);
  const [rows, total] = await Promise.all([
    ran.selectAll().orderBy('completed_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    ran.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(crawlFromRow), total: Number(total.n) };
}

/** The crawls that the given Temporal workflows run, by workflow id. */
export async function crawlsOfWorkflows(db: Database, workflowIds: readonly string[]): Promise<Map<string, string>> {
  if (workflowIds.length === 0) return new Map();
  const rows = await db.selectFrom('crawls').select(['id', 'workflow_id']).where('workflow_id', 'in', [...workflowIds]).execute();
  return new Map(rows.map((r) => [r.workflow_id!, r.id]));
}

export async function latestCrawl(db: Database, siteId: string): Promise<CrawlRecord | undefined> {
  return mapRow(
    crawlFromRow,
    await db.selectFrom('crawls').selectAll().where('site_id', '=', siteId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst(),
  );
}

export async function markCrawlRunning(db: Database, id: string): Promise<CrawlRecord | undefined> {
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
export async function setDiscoveryDone(db: Database, id: string, error?: ErrorInfo): Promise<void> {
  await db
    .updateTable('crawls')
    .set(error ? { discovery_done: true, discovery_error: sql`coalesce(discovery_error, ${JSON.stringify(error)}::jsonb)` } : { discovery_done: true })
    .where('id', '=', id)
    .execute();
}


/** Counts same-site URLs discovery skipped for their length. */
export async function addSkippedUrls(db: Database, crawlId: string, n: number): Promise<void> {
  if (n <= 0) return;
  await db.updateTable('crawls').set((eb) => ({ skipped_urls: eb('skipped_urls', '+', n) })).where('id', '=', crawlId).execute();
}

export async function incrementBrokenLinks(db: Database, crawlId: string): Promise<void> {
  await db.updateTable('crawls').set((eb) => ({ broken_links: eb('broken_links', '+', 1) })).where('id', '=', crawlId).execute();
}


/** Adds what enriching one page cost to the crawl's totals (in the page's enrichment transaction). */
export async function addEnrichmentUsage(
  db: Database,
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

/**
 * Retention: the page scans, findings and frontier of a site's ended crawls older than its newest
 * `keep` ended crawls are deleted (one transaction per crawl), and the crawl marked with
 * `results_deleted_at`. The crawl row (score, counts, trend point) stays; the site's issues,
 * their identity and their status history are not touched. Answers the crawls it purged.
 */
export async function purgeOldCrawlResults(db: Database, siteId: string, keep: number): Promise<string[]> {
  const ended = [...ENDED_CRAWL_STATUSES];
  const rows = await db
    .selectFrom('crawls')
    .select('id')
    .where('site_id', '=', siteId)
    .where('status', 'in', ended)
    .where('results_deleted_at', 'is', null)
    .where(
      'id',
      'not in',
      db.selectFrom('crawls').select('id').where('site_id', '=', siteId).where('status', 'in', ended).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(keep),
    )
    .execute();
  for (const { id } of rows) {
    await db.transaction().execute(async (trx) => {
      // Findings go with their scans (on delete cascade).
      await trx.deleteFrom('page_scans').where('kind', '=', 'crawl').where('crawl_id', '=', id).execute();
      await trx.deleteFrom('crawl_pages').where('crawl_id', '=', id).execute();
      await trx.deleteFrom('crawl_urls').where('crawl_id', '=', id).execute();
      await trx.deleteFrom('crawl_rendered_links').where('crawl_id', '=', id).execute();
      await trx.updateTable('crawls').set({ results_deleted_at: sql<Date>`now()` }).where('id', '=', id).execute();
    });
  }
  return rows.map((r) => r.id);
}
