import { sql } from 'kysely';
import type { PassedRuleInfo, ScanSummary } from '../../shared/summary.ts';
import type { PageError, ScanCoverage, ScanStage, ScanStatus } from '../../shared/contracts.ts';
import { ENDED_SCAN_STATUSES, stageProgress } from '../../shared/contracts.ts';
import type { Database, NewFinding } from '../schema.ts';
import { findingFromRow, mapRow, scanFromRow, type ScanRecord } from './records.ts';
import type { FindingRecord, NewFindingRecord } from '../../shared/findings.ts';
import { severityRank } from './severity.ts';
import type { PageWaysFacts } from '../../shared/page-titles.ts';
import type { ResourceManifest, StoredRendered } from '../../shared/page-reuse.ts';
import { insertScreenshots, type ScreenshotStoreOptions } from './screenshot.repository.ts';

export async function insertSingleScan(db: Database, values: { url: string; clientIp: string | null }): Promise<ScanRecord> {
  const row = await db
    .insertInto('page_scans')
    .values({ kind: 'single', url: values.url, client_ip: values.clientIp })
    .returningAll()
    .executeTakeFirstOrThrow();
  return scanFromRow(row);
}

export async function deleteScan(db: Database, id: string): Promise<void> {
  await db.deleteFrom('page_scans').where('id', '=', id).execute();
}

export async function findScan(db: Database, id: string): Promise<ScanRecord | undefined> {
  return mapRow(scanFromRow, await db.selectFrom('page_scans').selectAll().where('id', '=', id).executeTakeFirst());
}

export async function findSingleScan(db: Database, id: string): Promise<ScanRecord | undefined> {
  return mapRow(scanFromRow, await db.selectFrom('page_scans').selectAll().where('id', '=', id).where('kind', '=', 'single').executeTakeFirst());
}

export async function listSingleScans(
  db: Database,
  page: { limit: number; offset: number },
): Promise<{ rows: ScanRecord[]; total: number }> {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('page_scans')
      .selectAll()
      .where('kind', '=', 'single')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('page_scans')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', 'single')
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(scanFromRow), total: total.n };
}

const notEnded = ENDED_SCAN_STATUSES as ScanStatus[];

/** Milliseconds from the scan's start (or creation) to now, for `duration_ms` when a scan ends. */
const DURATION_MS = sql<number>`(extract(epoch from (now() - coalesce(started_at, created_at))) * 1000)::int`;

export async function markScanRunning(db: Database, id: string): Promise<ScanRecord | undefined> {
  const row = await db
    .updateTable('page_scans')
    .set({
      status: 'running',
      current_stage: 'Loading',
      progress: sql<number>`greatest(progress, ${stageProgress('Loading')})`,
      started_at: sql<Date>`coalesce(started_at, now())`,
    })
    .where('id', '=', id)
    .where('status', 'not in', notEnded)
    .returningAll()
    .executeTakeFirst();
  return mapRow(scanFromRow, row);
}

/** Moves a running scan to a stage; progress only ever rises. */
export async function setScanStage(db: Database, id: string, stage: ScanStage): Promise<void> {
  await db
    .updateTable('page_scans')
    .set({ current_stage: stage, progress: sql<number>`greatest(progress, ${stageProgress(stage)})` })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

export interface ScanResultValues {
  pageTitle: string | null;
  finalUrl: string | null;
  httpStatus: number | null;
  score: number;
  passes: PassedRuleInfo[];
  findings: NewFindingRecord[];
  /** Findings past the per-page cap, counted per rule. */
  issuesLeftOut?: { total: number; byRule: Record<string, number> } | null;
  /** Pictures of some of `findings`, by fingerprint, stored with them. */
  screenshots?: ScreenshotStoreOptions;
  /** What the scan checked beyond the default state (finalization reads it). */
  coverage?: ScanCoverage;
}

export function findingToRow(pageScanId: string, f: NewFindingRecord): NewFinding {
  return {
    rule_id: f.ruleId,
    type: f.type,
    severity: f.severity,
    wcag_criterion: f.wcagCriterion,
    wcag_level: f.wcagLevel,
    wcag_criteria: f.wcagCriteria,
    element_selector: f.elementSelector,
    element_html: f.elementHtml,
    engine_help: f.engineHelp,
    engine_description: f.engineDescription,
    failure_summary: f.failureSummary,
    help_url: f.helpUrl,
    description: f.description,
    fix_suggestion: f.fixSuggestion,
    data: JSON.stringify(f.data),
    fingerprint: f.fingerprint,
    group_key: f.groupKey,
    state: f.state ? JSON.stringify(f.state) : null,
    viewport: f.viewport !== null && f.viewport !== undefined ? JSON.stringify(f.viewport) : null,
    page_scan_id: pageScanId,
  };
}

/** Replaces the scan's findings with this result: a retried scan never adds duplicates. */
export async function saveScanResult(db: Database, id: string, r: ScanResultValues): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('findings').where('page_scan_id', '=', id).execute();
    const inserted = new Map<string, string>();
    if (r.findings.length > 0) {
      for (let i = 0; i < r.findings.length; i += 500) {
        const rows = await trx
          .insertInto('findings')
          .values(r.findings.slice(i, i + 500).map((f) => findingToRow(id, f)))
          .returning(['id', 'fingerprint'])
          .execute();
        for (const row of rows) if (!inserted.has(row.fingerprint)) inserted.set(row.fingerprint, row.id);
      }
    }
    if (r.screenshots?.shots.length) await insertScreenshots(trx, inserted, r.screenshots);
    await trx
      .updateTable('page_scans')
      .set({
        page_title: r.pageTitle,
        final_url: r.finalUrl,
        http_status: r.httpStatus,
        score: r.score,
        engine_passes: JSON.stringify(r.passes),
        issues_left_out: r.issuesLeftOut ? JSON.stringify(r.issuesLeftOut) : null,
        coverage: r.coverage ? JSON.stringify(r.coverage) : null,
      })
      .where('id', '=', id)
      .execute();
  });
}

export async function saveScanPageInfo(
  db: Database,
  id: string,
  v: { finalUrl: string | null; httpStatus: number | null; pageTitle?: string | null },
): Promise<void> {
  await db
    .updateTable('page_scans')
    .set({ final_url: v.finalUrl, http_status: v.httpStatus, ...(v.pageTitle !== undefined ? { page_title: v.pageTitle } : {}) })
    .where('id', '=', id)
    .execute();
}

/** Ends a scan once; a second call (a retried activity) changes nothing. */
export async function finishScan(
  db: Database,
  id: string,
  v: { status: ScanStatus; error?: PageError | null; summary?: ScanSummary },
): Promise<ScanRecord | undefined> {
  const succeeded = v.status === 'completed' || v.status === 'completed_partial';
  const row = await db
    .updateTable('page_scans')
    .set({
      status: v.status,
      current_stage: null,
      ...(succeeded ? { progress: 100 } : {}),
      ...(v.error ? { error: JSON.stringify(v.error) } : {}),
      ...(v.summary !== undefined ? { summary: JSON.stringify(v.summary) } : {}),
      completed_at: sql<Date>`now()`,
      duration_ms: DURATION_MS,
    })
    .where('id', '=', id)
    .where('status', 'not in', notEnded)
    .returningAll()
    .executeTakeFirst();
  return mapRow(scanFromRow, row);
}

/** What one retention run of single-page scans may delete: `batches` transactions of `batchSize` scans. */
export interface ScanRetentionBounds {
  batchSize: number;
  batches: number;
}

export const SCAN_RETENTION_BOUNDS: ScanRetentionBounds = { batchSize: 20, batches: 5 };

/**
 * Retention of single-page scans: deletes the single-page scans that ended more than `days` days
 * ago, oldest first, at most `batches` x `batchSize` of them, one statement (and transaction) per
 * batch, so no run is one giant delete however much is due. Their findings, pictures, judgement
 * candidates and `webhookUrl` webhook with its delivery log go with them (on delete cascade).
 * Crawl page scans are never touched (CRAWLS_KEPT_PER_SITE bounds them). Workers running this at
 * the same moment skip each other's rows instead of waiting on them; running it again deletes only
 * what is due then. Answers how many scans it deleted.
 */
export async function purgeExpiredScans(db: Database, days: number, bounds: ScanRetentionBounds = SCAN_RETENTION_BOUNDS): Promise<number> {
  const cutoff = sql<Date>`now() - make_interval(days => ${days}::int)`;
  let deleted = 0;
  for (let batch = 0; batch < bounds.batches; batch++) {
    // A scan ends after it was created, so `created_at` before the cutoff narrows the search to
    // the old end of page_scans_single_created_idx before `completed_at` decides.
    const due = db
      .selectFrom('page_scans')
      .select('id')
      .where('kind', '=', 'single')
      .where('created_at', '<', cutoff)
      .where('status', 'in', [...ENDED_SCAN_STATUSES])
      .where('completed_at', '<', cutoff)
      .orderBy('created_at')
      .limit(bounds.batchSize)
      .forUpdate()
      .skipLocked();
    const r = await db.deleteFrom('page_scans').where('id', 'in', due).executeTakeFirst();
    const n = Number(r.numDeletedRows);
    deleted += n;
    if (n < bounds.batchSize) break;
  }
  return deleted;
}

/**
 * What a crawl page's scan leaves for later, written with its end in one statement: what the
 * audit loaded and under which key (page reuse), its links and search form (Multiple Ways) and
 * the rendered links and view it handed to discovery (for a crawl that reuses it).
 */
export interface CrawlPageFacts {
  audit?: { resources: ResourceManifest; auditKey: string };
  ways?: PageWaysFacts;
  rendered?: StoredRendered;
}

/**
 * Ends a crawl page's scan row with the outcome of its scan (`error` null: scanned), and returns
 * what the page row takes over from it.
 */
export async function endCrawlPageScan(
  db: Database,
  id: string,
  error: PageError | null,
  facts: CrawlPageFacts = {},
): Promise<Pick<ScanRecord, 'score' | 'pageTitle' | 'httpStatus'>> {
  const row = await db
    .updateTable('page_scans')
    .set({
      status: error ? 'failed' : 'completed',
      progress: 100,
      error: error ? JSON.stringify(error) : null,
      completed_at: sql<Date>`now()`,
      duration_ms: DURATION_MS,
      ...(facts.audit ? { resources: JSON.stringify(facts.audit.resources), audit_key: facts.audit.auditKey } : {}),
      ...(facts.ways ? { ways: JSON.stringify(facts.ways) } : {}),
      ...(facts.rendered ? { rendered: JSON.stringify(facts.rendered) } : {}),
    })
    .where('id', '=', id)
    .returning(['score', 'page_title', 'http_status'])
    .executeTakeFirstOrThrow();
  return { score: row.score, pageTitle: row.page_title, httpStatus: row.http_status };
}

export async function saveSummary(db: Database, id: string, summary: ScanSummary): Promise<void> {
  await db.updateTable('page_scans').set({ summary: JSON.stringify(summary) }).where('id', '=', id).execute();
}


export async function listFindings(db: Database, scanId: string): Promise<FindingRecord[]> {
  const rows = await db
    .selectFrom('findings')
    .selectAll()
    .where('page_scan_id', '=', scanId)
    .orderBy(severityRank('severity'))
    .orderBy('wcag_criterion')
    .orderBy('id')
    .execute();
  return rows.map(findingFromRow);
}

/** Records that the flow of a flow page's scan has run its steps (see `flowRanAt`). */
export async function markFlowRan(db: Database, id: string): Promise<void> {
  await db.updateTable('page_scans').set({ flow_ran_at: new Date() }).where('id', '=', id).where('flow_ran_at', 'is', null).execute();
}

/** When the flow of this flow page's scan ran its steps, if an attempt got that far. */
export async function flowRanAt(db: Database, id: string): Promise<Date | null> {
  const row = await db.selectFrom('page_scans').select('flow_ran_at').where('id', '=', id).executeTakeFirst();
  return row?.flow_ran_at ?? null;
}

export async function countFindings(db: Database, scanId: string): Promise<number> {
  const r = await db.selectFrom('findings').select((eb) => eb.fn.countAll<number>().as('n')).where('page_scan_id', '=', scanId).executeTakeFirstOrThrow();
  return r.n;
}

export async function updateFindingTexts(
  db: Database,
  texts: ReadonlyArray<{ id: string; description: string; fixSuggestion: string; enrichedBy: string }>,
): Promise<void> {
  // One statement per 500 findings: pages with hundreds of findings are common.
  for (let i = 0; i < texts.length; i += 500) {
    const rows = texts.slice(i, i + 500).map((t) => sql`(${t.id}::uuid, ${t.description}, ${t.fixSuggestion}, ${t.enrichedBy})`);
    await sql`
      update findings f set description = v.description, fix_suggestion = v.fix, enriched_by = v.enriched_by
      from (values ${sql.join(rows)}) as v(id, description, fix, enriched_by)
      where f.id = v.id`.execute(db);
  }
}
