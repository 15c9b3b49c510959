// What every crawl must look like after faults; checked by the chaos test and bench (test/support: shared by test/ and bench/).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.ts';

export interface CrawlInvariants {
  status: string;
  totalPages: number;
  scannedPages: number;
  enrichedPages: number;
  failedPages: number;
  /** Rows behind the counters. */
  rows: { pages: number; scanned: number; enriched: number; failed: number; scans: number; pagesWithoutScan: number; pagesWithSeveralScans: number };
  duplicateIssueFingerprints: number;
  duplicateFindingFingerprints: number;
  /** Empty when every invariant holds. */
  problems: string[];
}

/**
 * What a crawl must look like after any fault (killed workers, a restarted database): ended,
 * every page of it scanned at most once (exactly once unless it failed before its scan), no
 * issue or finding twice, and counters that agree with the rows they count.
 */
export async function crawlInvariants(db: Kysely<DB>, crawlId: string, expect: { status?: string[] } = {}): Promise<CrawlInvariants> {
  const crawl = await db.selectFrom('crawls').selectAll().where('id', '=', crawlId).executeTakeFirstOrThrow();
  const states = await db
    .selectFrom('crawl_pages')
    .select(['state', sql<number>`count(*)::int`.as('n')])
    .where('crawl_id', '=', crawlId)
    .groupBy('state')
    .execute();
  const count = (...s: string[]) => states.filter((r) => s.includes(r.state)).reduce((a, r) => a + r.n, 0);
  const perPage = await sql<{ scans: number; n: number }>`
    select coalesce(s.n, 0)::int as scans, count(*)::int as n
    from crawl_pages cp
    left join (select page_id, count(*) as n from page_scans where kind = 'crawl' and crawl_id = ${crawlId} group by page_id) s on s.page_id = cp.page_id
    where cp.crawl_id = ${crawlId}
    group by 1`.execute(db);
  const withScans = (f: (n: number) => boolean) => perPage.rows.filter((r) => f(r.scans)).reduce((a, r) => a + r.n, 0);
  const dupIssues = await sql<{ n: number }>`
    select count(*)::int as n from (select fingerprint from issues where site_id = ${crawl.site_id} group by fingerprint having count(*) > 1) d`.execute(db);
  const dupFindings = await sql<{ n: number }>`
    select count(*)::int as n from (
      select f.page_scan_id, f.fingerprint from findings f join page_scans ps on ps.id = f.page_scan_id
      where ps.crawl_id = ${crawlId} group by 1, 2 having count(*) > 1) d`.execute(db);
  const scans = await db
    .selectFrom('page_scans')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('kind', '=', 'crawl')
    .where('crawl_id', '=', crawlId)
    .executeTakeFirstOrThrow();

  const rows = {
    pages: count('pending', 'dispatched', 'scanned', 'failed', 'enriched', 'enrich_failed'),
    scanned: count('scanned', 'enriched', 'enrich_failed'),
    enriched: count('enriched'),
    failed: count('failed'),
    scans: scans.n,
    pagesWithoutScan: withScans((n) => n === 0),
    pagesWithSeveralScans: withScans((n) => n > 1),
  };
  const out: CrawlInvariants = {
    status: crawl.status,
    totalPages: crawl.total_pages,
    scannedPages: crawl.scanned_pages,
    enrichedPages: crawl.enriched_pages,
    failedPages: crawl.failed_pages,
    rows,
    duplicateIssueFingerprints: dupIssues.rows[0]!.n,
    duplicateFindingFingerprints: dupFindings.rows[0]!.n,
    problems: [],
  };
  const p = out.problems;
  const wanted = expect.status ?? ['completed'];
  if (!wanted.includes(crawl.status)) p.push(`status ${crawl.status}, expected ${wanted.join(' or ')}`);
  if (crawl.total_pages !== rows.pages) p.push(`totalPages ${crawl.total_pages} but ${rows.pages} pages`);
  if (crawl.scanned_pages !== rows.scanned) p.push(`scannedPages ${crawl.scanned_pages} but ${rows.scanned} scanned pages`);
  if (crawl.enriched_pages !== rows.enriched) p.push(`enrichedPages ${crawl.enriched_pages} but ${rows.enriched} enriched pages`);
  if (crawl.failed_pages !== rows.failed) p.push(`failedPages ${crawl.failed_pages} but ${rows.failed} failed pages`);
  if (rows.pagesWithSeveralScans > 0) p.push(`${rows.pagesWithSeveralScans} pages scanned more than once`);
  if (rows.pagesWithoutScan > rows.failed) p.push(`${rows.pagesWithoutScan - rows.failed} pages never scanned`);
  if (count('pending', 'dispatched') > 0) p.push(`${count('pending', 'dispatched')} pages left pending`);
  if (out.duplicateIssueFingerprints > 0) p.push(`${out.duplicateIssueFingerprints} issue fingerprints twice`);
  if (out.duplicateFindingFingerprints > 0) p.push(`${out.duplicateFindingFingerprints} finding fingerprints twice in one scan`);
  return out;
}

/** Timeouts seen in a crawl's workflow histories. */
export interface TimeoutReport {
  /** Workflow runs read (the crawl's runs and its discovery). */
  workflows: number;
  /** `<activity>:<TIMEOUT_TYPE>` -> count: attempts that timed out and were retried (the next attempt's `lastFailure`), or timed out for good. */
  byActivity: Record<string, number>;
  /** Timeouts of each type, over all activities. */
  byType: Record<string, number>;
}

const TIMEOUT_TYPES = ['UNSPECIFIED', 'START_TO_CLOSE', 'SCHEDULE_TO_START', 'SCHEDULE_TO_CLOSE', 'HEARTBEAT'];

/**
 * Activity timeouts in every run of a crawl's workflows. Temporal writes a retried attempt's
 * failure only into the next attempt's started event (`lastFailure`), so both that and final
 * timeouts are read. Heartbeat timeouts are how a killed worker is noticed; a start-to-close
 * timeout of an activity that heartbeats would mean it ran past its limit.
 */
export async function activityTimeouts(client: import('@temporalio/client').Client, crawlId: string): Promise<TimeoutReport> {
  const report: TimeoutReport = { workflows: 0, byActivity: {}, byType: {} };
  const typeName = (t: unknown) => (typeof t === 'number' ? (TIMEOUT_TYPES[t] ?? String(t)) : String(t));
  const add = (activity: string, t: unknown) => {
    const type = typeName(t);
    report.byActivity[`${activity}:${type}`] = (report.byActivity[`${activity}:${type}`] ?? 0) + 1;
    report.byType[type] = (report.byType[type] ?? 0) + 1;
  };
  for await (const wf of client.workflow.list({ query: `crawlId = "${crawlId}"` })) {
    report.workflows++;
    const history = await client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
    const names = new Map<string, string>();
    for (const e of history.events ?? []) {
      const id = String(e.eventId);
      if (e.activityTaskScheduledEventAttributes) names.set(id, e.activityTaskScheduledEventAttributes.activityType?.name ?? '?');
      const started = e.activityTaskStartedEventAttributes;
      const retried = started?.lastFailure?.timeoutFailureInfo?.timeoutType;
      if (started && retried !== undefined && retried !== null) add(names.get(String(started.scheduledEventId)) ?? '?', retried);
      const timedOut = e.activityTaskTimedOutEventAttributes;
      const final = timedOut?.failure?.timeoutFailureInfo?.timeoutType;
      if (timedOut && final !== undefined && final !== null) add(names.get(String(timedOut.scheduledEventId)) ?? '?', final);
    }
  }
  return report;
}
