/**
 * A crawl's finalization: its score and status, the crawl-level findings, and the diff against the
 * site's issues, in one transaction, once.
 */
import { sql } from 'kysely';
import { decideCrawlStatus } from '../../shared/crawl-status.ts';
import type { NewFindingRecord } from '../../shared/findings.ts';
import type { CrawlPageForChecks } from '../../shared/page-titles.ts';
import type { Database } from '../schema.ts';
import { isCrawlEnded } from './crawl.repository.ts';
import { crawlFromRow, type CrawlRecord } from './records.ts';
import type { ErrorInfo, ViewportName } from '../../shared/contracts.ts';
import { findingToRow } from './scan.repository.ts';
import { appendHistory, historyEntry } from './status-history.ts';

export interface FinalizeOptions {
  cancelled: boolean;
  /**
   * Findings only the whole crawl shows (shared titles, multiple ways), judged by the caller from
   * `pagesForCrawlChecks` before this runs, stored on their pages' scans before the diff. Not
   * stored when the crawl is cancelled or had already ended.
   */
  crawlLevelFindings?: ReadonlyArray<{ pageScanId: string; finding: NewFindingRecord }>;
}

/** What the crawl-level checks read: the crawl's scanned pages, its viewports and the site's home. */
export async function pagesForCrawlChecks(
  db: Database,
  crawlId: string,
): Promise<{ pages: CrawlPageForChecks[]; crawl: { viewports: readonly ViewportName[] | null; homeUrl: string | null } }> {
  const crawl = await db.selectFrom('crawls').select(['site_id', 'viewports']).where('id', '=', crawlId).executeTakeFirstOrThrow();
  const pages = await db
    .selectFrom('page_scans')
    .select(['id', 'url', 'page_title', 'ways'])
    .where('kind', '=', 'crawl')
    .where('crawl_id', '=', crawlId)
    .where('status', 'in', ['completed', 'completed_partial'])
    .orderBy('created_at')
    .execute();
  const site = await db.selectFrom('sites').select('base_url').where('id', '=', crawl.site_id).executeTakeFirst();
  return {
    pages: pages.map((p) => ({ pageScanId: p.id, url: p.url, title: p.page_title, ways: p.ways })),
    crawl: { viewports: crawl.viewports, homeUrl: site?.base_url ?? null },
  };
}

export interface FinalizeResult {
  crawl: CrawlRecord;
  alreadyEnded: boolean;
}

/**
 * Ends a crawl once, in one transaction: the crawl score (page scores were stored as each page
 * was scanned), and the diff against the
 * site's issues (new, reopened-as-new, fixed on pages scanned successfully this time; dismissed
 * and cant_fix untouched), every status change appended to the issue's history.
 */
export async function finalizeCrawl(db: Database, crawlId: string, opts: FinalizeOptions): Promise<FinalizeResult> {
  const result = await diffAndEndCrawl(db, crawlId, opts);
  const changed = (result.crawl.newIssues ?? 0) + (result.crawl.fixedIssues ?? 0);
  // The issue lists read along indexes only when the planner knows how many rows a site has, and
  // skip the table only where the visibility map is current: after a diff this large, deep pages
  // would otherwise sort the whole site, or visit the table for every row they skip, until
  // autovacuum comes round. VACUUM runs outside the transaction and blocks no reader or writer.
  if (!result.alreadyEnded && changed >= LARGE_DIFF) await sql`vacuum (analyze) issues`.execute(db);
  return result;
}

/** Issues written by one finalization past which the table's statistics are refreshed at once. */
const LARGE_DIFF = 1000;

async function diffAndEndCrawl(db: Database, crawlId: string, opts: FinalizeOptions): Promise<FinalizeResult> {
  return db.transaction().execute(async (trx) => {
    const crawl = await trx.selectFrom('crawls').selectAll().where('id', '=', crawlId).forUpdate().executeTakeFirstOrThrow();
    if (isCrawlEnded(crawl.status)) return { crawl: crawlFromRow(crawl), alreadyEnded: true };
    const siteId = crawl.site_id;

    if (opts.crawlLevelFindings?.length && !opts.cancelled) {
      const extra = opts.crawlLevelFindings;
      for (let i = 0; i < extra.length; i += 500) {
        // One finding per element and criterion: where the page's own scan already flagged its
        // title under 2.4.2 (a generic or unrelated title), that finding stays and names the
        // crawl-level rule in `alsoFlaggedBy`, with what the crawl saw.
        await trx
          .insertInto('findings')
          .values(extra.slice(i, i + 500).map((e) => findingToRow(e.pageScanId, e.finding)))
          .onConflict((oc) =>
            oc.constraint('findings_scan_element_criterion_uq').doUpdateSet({
              data: sql`findings.data || jsonb_build_object(
                'alsoFlaggedBy', coalesce(findings.data->'alsoFlaggedBy', '[]'::jsonb) || to_jsonb(excluded.rule_id),
                'pagesWithTitle', excluded.data->'pagesWithTitle',
                'otherPages', excluded.data->'otherPages')`,
              // Its further criteria, if any, join the finding's (after them), as in mergeFindings.
              wcag_criteria: sql`findings.wcag_criteria || array(select c from unnest(excluded.wcag_criteria) c where c <> all(findings.wcag_criteria))`,
              wcag_level: sql`least(findings.wcag_level, excluded.wcag_level)`,
            }),
          )
          .execute();
      }
    }

    await sql`
      create temp table crawl_findings on commit drop as
      select distinct on (fi.fingerprint) fi.*, ps.page_id
      from findings fi join page_scans ps on ps.id = fi.page_scan_id
      where ps.kind = 'crawl' and ps.crawl_id = ${crawlId} and ps.status in ('completed', 'completed_partial')
      order by fi.fingerprint, fi.id`.execute(trx);
    await sql`create index on crawl_findings (fingerprint)`.execute(trx);

    const reopened = await sql<{ id: string }>`
      update issues i set status = 'open', ${appendHistory('i', historyEntry('fixed', 'open', crawlId))}, updated_at = now()
      from crawl_findings f
      where i.site_id = ${siteId} and i.fingerprint = f.fingerprint and i.status = 'fixed'
      returning i.id`.execute(trx);

    const upserted = await sql<{ inserted: boolean }>`
      insert into issues (site_id, page_id, fingerprint, group_key, state, viewport, rule_id, type, severity, wcag_criterion, wcag_level, wcag_criteria, element_selector,
                          element_html, description, fix_suggestion, help_url, data, status, status_history, status_history_total, last_finding_id,
                          first_crawl_id, last_crawl_id, first_seen_at, last_seen_at)
      select ${siteId}, f.page_id, f.fingerprint, f.group_key, f.state, f.viewport, f.rule_id, f.type, f.severity, f.wcag_criterion, f.wcag_level, f.wcag_criteria, f.element_selector,
             f.element_html, f.description, f.fix_suggestion, f.help_url, f.data, 'open', ${historyEntry(null, 'open', crawlId)}, 1, f.id,
             ${crawlId}, ${crawlId}, now(), now()
      from crawl_findings f
      on conflict (site_id, fingerprint) do update set
        page_id = excluded.page_id, group_key = coalesce(excluded.group_key, issues.group_key), type = excluded.type, severity = excluded.severity, wcag_criterion = excluded.wcag_criterion,
        wcag_level = excluded.wcag_level, wcag_criteria = excluded.wcag_criteria, element_html = excluded.element_html, description = excluded.description,
        fix_suggestion = excluded.fix_suggestion, help_url = excluded.help_url, data = excluded.data,
        last_finding_id = excluded.last_finding_id, last_crawl_id = excluded.last_crawl_id, last_seen_at = now(), updated_at = now()
      returning (xmax = 0) as inserted`.execute(trx);
    const inserted = upserted.rows.filter((r) => r.inserted).length;

    const fixed = await sql<{ id: string }>`
      update issues i set status = 'fixed', ${appendHistory('i', historyEntry('open', 'fixed', crawlId))}, updated_at = now()
      where i.site_id = ${siteId} and i.status = 'open'
        and exists (select 1 from page_scans ps
                    where ps.kind = 'crawl' and ps.crawl_id = ${crawlId} and ps.page_id = i.page_id and ps.status in ('completed', 'completed_partial')
                      -- An issue of a viewport or an interaction state is fixed only where the scan checked that viewport
                      -- (a later one may run out of time) and opened that state (a page's states are bounded).
                      and (i.viewport is null or ps.coverage is null or coalesce(ps.coverage->'viewports', '[]'::jsonb) @> jsonb_build_array(i.viewport))
                      and (i.state is null or coalesce(ps.coverage->'states', '[]'::jsonb) @> jsonb_build_array(i.state->'target'))
                      -- Nor by a scan where the engine that finds it did not finish (out of time, or broken on the page).
                      and not coalesce(ps.coverage->'unfinishedEngines', '[]'::jsonb) @> jsonb_build_array(jsonb_build_object('engine', i.data->'engine')))
        and not exists (select 1 from crawl_findings f where f.fingerprint = i.fingerprint)
      returning i.id`.execute(trx);

    const stats = await sql<{ scanned: number; score: number | null; root_error: unknown }>`
      select count(*)::int as scanned, round(avg(ps.score))::int as score,
             (select cp.error from crawl_pages cp where cp.crawl_id = ${crawlId} and cp.error is not null order by cp.seq limit 1) as root_error
      from page_scans ps
      where ps.kind = 'crawl' and ps.crawl_id = ${crawlId} and ps.status in ('completed', 'completed_partial')`.execute(trx);
    const { scanned, score, root_error } = stats.rows[0]!;

    // What this crawl found, by severity (one per fingerprint), for the site's trend.
    const found = await sql<{ critical: number; serious: number; moderate: number; minor: number }>`
      select count(*) filter (where severity = 'critical')::int as critical, count(*) filter (where severity = 'serious')::int as serious,
             count(*) filter (where severity = 'moderate')::int as moderate, count(*) filter (where severity = 'minor')::int as minor
      from crawl_findings`.execute(trx);

    const { status, error } = decideCrawlStatus({
      cancelled: opts.cancelled,
      scannedPages: scanned,
      failedPages: crawl.failed_pages,
      enrichFailedPages: crawl.enrich_failed_pages,
      discoveryError: crawl.discovery_error as ErrorInfo | null,
      firstPageError: root_error as ErrorInfo | null,
    });

    const done = await trx
      .updateTable('crawls')
      .set({
        status,
        overall_score: score,
        new_issues: inserted + reopened.rows.length,
        fixed_issues: fixed.rows.length,
        issue_counts: JSON.stringify(found.rows[0]!),
        error: error ? JSON.stringify(error) : null,
        completed_at: sql<Date>`now()`,
      })
      .where('id', '=', crawlId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { crawl: crawlFromRow(done), alreadyEnded: false };
  });
}

// ---- reading and updating issues ---------------------------------------------------------------
