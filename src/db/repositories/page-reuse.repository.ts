/**
 * Page reuse: finding a page's last reusable audit (from the facts its scan left: what it loaded,
 * under which audit key, the rendered links it handed to discovery; see `CrawlPageFacts`), and carrying it into a new
 * crawl's scan row with its findings (same fingerprints, so issues keep their identity), pictures,
 * texts and summary, in one transaction with the page's moves to `scanned` and `enriched`.
 */
import { sql } from 'kysely';
import type { Database } from '../schema.ts';
import type { ResourceEntry, ResourceManifest, StoredRendered } from '../../shared/page-reuse.ts';
import { savePageScanOutcome } from './page.repository.ts';
import { transitionPage } from './crawl-page.repository.ts';
import { addRenderedLinksFrom, type RenderedLinksFound } from './rendered-link.repository.ts';

/** What identifies the version of a crawl's site's authentication set-up (null: it has none). */
export async function siteAuthVersion(db: Database, crawlId: string): Promise<string | null> {
  const row = await db
    .selectFrom('crawls as c')
    .innerJoin('site_auth as a', 'a.site_id', 'c.site_id')
    .select('a.updated_at')
    .where('c.id', '=', crawlId)
    .executeTakeFirst();
  return row ? new Date(row.updated_at).toISOString() : null;
}

/**
 * Of `pageIds`, those with a completed scan of another crawl whose record of what it loaded is
 * usable: the only pages worth asking `reuseUnchangedPage` about (a first crawl asks about none).
 */
export async function pagesWithReusableScan(db: Database, crawlId: string, pageIds: readonly string[]): Promise<string[]> {
  if (pageIds.length === 0) return [];
  const rows = await db
    .selectFrom('page_scans')
    .select('page_id')
    .distinct()
    .where('kind', '=', 'crawl')
    .where('page_id', 'in', pageIds)
    .where('audit_key', 'is not', null)
    .where('crawl_id', '!=', crawlId)
    .where('status', '=', 'completed')
    .where(sql<boolean>`resources->>'usable' = 'true'`)
    .execute();
  return rows.map((r) => r.page_id!);
}

export interface ReusableScan {
  id: string;
  crawlId: string;
  /** The scan whose audit this is (itself, or the one it was reused from). */
  auditScanId: string;
  auditedAt: Date;
  entries: ResourceEntry[];
  rendered: StoredRendered | null;
}

/**
 * The page's newest scan that can stand for this crawl's: of another crawl, under the same audit
 * key, completed with its enrichment (not partial, a summary written), with a usable manifest,
 * its audit no older than `auditedAfter`.
 */
export async function findReusableScan(db: Database, v: { crawlId: string; pageId: string; auditKey: string; auditedAfter: Date }): Promise<ReusableScan | undefined> {
  const row = await db
    .selectFrom('page_scans')
    .select(['id', 'crawl_id', 'reused_from_scan_id', 'audited_at', 'completed_at', 'resources', 'rendered'])
    .where('kind', '=', 'crawl')
    .where('page_id', '=', v.pageId)
    .where('audit_key', '=', v.auditKey)
    .where('crawl_id', '!=', v.crawlId)
    .where('status', '=', 'completed')
    .where('summary', 'is not', null)
    .where(sql<boolean>`resources->>'usable' = 'true'`)
    .where(sql<boolean>`coalesce(audited_at, completed_at) >= ${v.auditedAfter}`)
    .orderBy('completed_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row || !row.resources || !row.resources.usable || !row.crawl_id) return undefined;
  return {
    id: row.id,
    crawlId: row.crawl_id,
    auditScanId: row.reused_from_scan_id ?? row.id,
    auditedAt: new Date(row.audited_at ?? row.completed_at!),
    entries: row.resources.entries,
    rendered: row.rendered ?? null,
  };
}

/**
 * Carries `source` into the crawl page's scan row `scanId`: findings (new rows, same fingerprints,
 * texts and enrichment), their pictures, the page's facts (title, status, score, summary, passes,
 * coverage, ways), the manifest as it stands now, and `reused_from_scan_id`/`audited_at`; the scan
 * is completed and the page moves to `scanned` then `enriched` (counted once; `reused_pages` too).
 * Idempotent: a retry replaces the copy it made.
 */
export async function carryOverScan(
  db: Database,
  v: { crawlId: string; pageId: string; scanId: string; source: ReusableScan; resources: ResourceManifest; auditKey: string; links?: RenderedLinksFound },
): Promise<{ findings: number; moved: boolean }> {
  return db.transaction().execute(async (trx) => {
    // The rendered links go to discovery again, with the page's move to scanned.
    if (v.links) await addRenderedLinksFrom(trx, v.crawlId, v.pageId, v.links);
    await trx.deleteFrom('findings').where('page_scan_id', '=', v.scanId).execute();
    const copied = await sql<{ n: number }>`
      with src as materialized (select f.*, gen_random_uuid() as new_id from findings f where f.page_scan_id = ${v.source.id}),
      ins as (
        insert into findings (id, page_scan_id, rule_id, type, severity, wcag_criterion, wcag_level, wcag_criteria, element_selector, element_html,
                              engine_help, engine_description, failure_summary, help_url, description, fix_suggestion, enriched_by, data,
                              fingerprint, group_key, state, viewport)
        select new_id, ${v.scanId}, rule_id, type, severity, wcag_criterion, wcag_level, wcag_criteria, element_selector, element_html,
               engine_help, engine_description, failure_summary, help_url, description, fix_suggestion, enriched_by, data,
               fingerprint, group_key, state, viewport
        from src
        returning id),
      shots as (
        insert into finding_screenshots (finding_id, crawl_id, mime, image, width, height)
        select src.new_id, ${v.crawlId}, s.mime, s.image, s.width, s.height
        from src join finding_screenshots s on s.finding_id = src.id
        returning finding_id)
      select (select count(*) from ins)::int as n`.execute(trx);
    await sql`
      update page_scans t set
        page_title = s.page_title, final_url = s.final_url, http_status = s.http_status, score = s.score, summary = s.summary,
        engine_passes = s.engine_passes, issues_left_out = s.issues_left_out, coverage = s.coverage, ways = s.ways, rendered = s.rendered,
        resources = ${JSON.stringify(v.resources)}::jsonb, audit_key = ${v.auditKey},
        reused_from_scan_id = ${v.source.auditScanId}, audited_at = ${v.source.auditedAt},
        status = 'completed', progress = 100, current_stage = null, error = null, completed_at = now(),
        duration_ms = (extract(epoch from (now() - coalesce(t.started_at, t.created_at))) * 1000)::int
      from page_scans s
      where t.id = ${v.scanId} and s.id = ${v.source.id}`.execute(trx);
    const scan = await trx.selectFrom('page_scans').select(['score', 'page_title', 'http_status']).where('id', '=', v.scanId).executeTakeFirstOrThrow();
    await savePageScanOutcome(trx, v.pageId, { httpStatus: scan.http_status, scanned: { score: scan.score, title: scan.page_title } });
    const scanned = await transitionPage(trx, { crawlId: v.crawlId, pageId: v.pageId, from: ['dispatched', 'pending'], to: 'scanned' });
    const enriched = await transitionPage(trx, { crawlId: v.crawlId, pageId: v.pageId, from: ['scanned'], to: 'enriched' });
    if (scanned && enriched) await trx.updateTable('crawls').set((eb) => ({ reused_pages: eb('reused_pages', '+', 1) })).where('id', '=', v.crawlId).execute();
    return { findings: copied.rows[0]?.n ?? 0, moved: scanned && enriched };
  });
}
