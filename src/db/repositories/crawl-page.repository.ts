/** The pages of a crawl: registered once, claimed for scanning, moved through their states once. */
import { sql, type Transaction } from 'kysely';
import type { PageError, ScanStatus } from '../../shared/contracts.ts';
import type { CrawlPageState, Database, DB } from '../schema.ts';
import type { ScanSummary } from '../../shared/summary.ts';
import { addEnrichmentUsage } from './crawl.repository.ts';
import { savePageScanOutcome } from './page.repository.ts';
import { mapRow, scanFromRow, type ScanRecord } from './records.ts';
import type { DiscoveredVia, ErrorInfo } from '../../shared/contracts.ts';
import { endCrawlPageScan, saveSummary, updateFindingTexts, type CrawlPageFacts } from './scan.repository.ts';
import { addRenderedLinksFrom, type RenderedLinksFound } from './rendered-link.repository.ts';

/**
 * Records a discovered page for this crawl once: the page row (by site and URL) and its frontier
 * entry. Counters move only when the entry is new, so a rerun of discovery counts nothing twice.
 */
export async function registerPage(
  db: Database,
  v: {
    crawlId: string;
    siteId: string;
    url: string;
    path: string;
    depth: number;
    via: DiscoveredVia;
    httpStatus: number | null;
    failed?: ErrorInfo;
    /** What the answer was: a document's media type, null for HTML; unset when there was no answer (kept as it was). */
    mediaType?: string | null;
  },
): Promise<{ pageId: string; added: boolean }> {
  return db.transaction().execute(async (trx) => {
    const page = await trx
      .insertInto('pages')
      .values({ site_id: v.siteId, url: v.url, path: v.path, depth: v.depth, discovered_via: v.via, http_status: v.httpStatus, media_type: v.mediaType ?? null })
      .onConflict((oc) =>
        oc.columns(['site_id', 'url']).doUpdateSet({
          http_status: sql`coalesce(excluded.http_status, pages.http_status)`,
          ...(v.mediaType === undefined ? {} : { media_type: sql`excluded.media_type` }),
        }),
      )
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

export async function countCrawlPages(db: Database, crawlId: string): Promise<number> {
  const r = await db.selectFrom('crawls').select('total_pages').where('id', '=', crawlId).executeTakeFirstOrThrow();
  return r.total_pages;
}

/**
 * Hands out up to `limit` pending pages under `claimKey`. The same key returns the same pages
 * again, so a retried claim activity never strands pages as dispatched-but-never-scanned.
 */
export async function claimPages(db: Database, crawlId: string, claimKey: string, limit: number): Promise<string[]> {
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
  db: Database,
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
  return db.isTransaction ? run(db as Transaction<DB>) : db.transaction().execute(run);
}


export async function crawlPageState(db: Database, crawlId: string, pageId: string): Promise<CrawlPageState | undefined> {
  const r = await db.selectFrom('crawl_pages').select('state').where('crawl_id', '=', crawlId).where('page_id', '=', pageId).executeTakeFirst();
  return r?.state;
}

/** The page_scans row of a page in a crawl, created on first use (one per page per crawl). */
export async function ensureCrawlPageScan(db: Database, v: { crawlId: string; pageId: string; url: string }): Promise<Pick<ScanRecord, 'id' | 'status'>> {
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
  db: Database,
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

export async function findCrawlPageScan(db: Database, crawlId: string, pageId: string): Promise<ScanRecord | undefined> {
  return mapRow(
    scanFromRow,
    await db.selectFrom('page_scans').selectAll().where('kind', '=', 'crawl').where('crawl_id', '=', crawlId).where('page_id', '=', pageId).executeTakeFirst(),
  );
}

// ---- one step of a page, in one transaction ------------------------------------------------

/**
 * The end of a crawl page's scan: its scan row, the page's latest outcome (HTTP status always;
 * score, title and time when scanned) and the page's state with the crawl's counters, together.
 */
export async function recordCrawlPageScan(
  db: Database,
  v: { crawlId: string; pageId: string; scanId: string; error: PageError | null; facts?: CrawlPageFacts; links?: RenderedLinksFound },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const ok = v.error === null;
    const scan = await endCrawlPageScan(trx, v.scanId, v.error, v.facts);
    // Queued with the page's move to scanned: discovery never sees the page done without its links.
    if (v.links) await addRenderedLinksFrom(trx, v.crawlId, v.pageId, v.links);
    await savePageScanOutcome(trx, v.pageId, { httpStatus: scan.httpStatus, ...(ok ? { scanned: { score: scan.score, title: scan.pageTitle } } : {}) });
    await transitionPage(trx, {
      crawlId: v.crawlId,
      pageId: v.pageId,
      from: ['dispatched', 'pending'],
      to: ok ? 'scanned' : 'failed',
      ...(v.error ? { error: v.error } : {}),
    });
  });
}

/** A page whose scan activity failed for good (browser crashes): its scan and its state, counted once. */
export async function markCrawlPageScanFailed(db: Database, v: { crawlId: string; pageId: string; error: PageError }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await updateCrawlPageScan(trx, v.crawlId, v.pageId, { status: 'failed', error: v.error, completed: true });
    await transitionPage(trx, { crawlId: v.crawlId, pageId: v.pageId, from: ['dispatched', 'pending'], to: 'failed', error: v.error });
  });
}

/** A page whose enrichment failed for good: the engine's texts stay, the scan is partial, counted once. */
export async function markCrawlPageEnrichFailed(db: Database, v: { crawlId: string; pageId: string }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await updateCrawlPageScan(trx, v.crawlId, v.pageId, { status: 'completed_partial' });
    await transitionPage(trx, { crawlId: v.crawlId, pageId: v.pageId, from: ['scanned'], to: 'enrich_failed' });
  });
}

/**
 * A page's enrichment: each finding's texts and the page summary, and for a crawl page its move to
 * `enriched` with what it cost added to the crawl's totals (only if the move happens), together.
 */
export async function saveEnrichment(
  db: Database,
  v: {
    scanId: string;
    texts: Parameters<typeof updateFindingTexts>[1];
    summary: ScanSummary;
    crawlPage?: { crawlId: string; pageId: string; usage: Parameters<typeof addEnrichmentUsage>[2] };
  },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await updateFindingTexts(trx, v.texts);
    await saveSummary(trx, v.scanId, v.summary);
    if (v.crawlPage) {
      const { crawlId, pageId, usage } = v.crawlPage;
      const moved = await transitionPage(trx, { crawlId, pageId, from: ['scanned'], to: 'enriched' });
      if (moved) await addEnrichmentUsage(trx, crawlId, usage);
    }
  });
}
