import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Database } from '../../../src/db/database.ts';
import { finishScan, insertSingleScan, purgeExpiredScans, saveScanResult } from '../../../src/db/repositories/scan.repository.ts';
import { purgeExpiredSingleScans } from '../../../src/activities/persistence/index.ts';
import type { ScanStatus } from '../../../src/shared/contracts.ts';
import { createLogger } from '../../../src/logger.ts';
import { createTestDatabase } from '../../helpers/test-env.ts';
import { findingRecord } from '../../helpers/finding-record.ts';

// Retention of single-page scans: what is due goes with its findings, pictures, judgement
// candidates and webhook; nothing of a crawl, nothing recent, nothing still running; each run is
// bounded and a second run finds nothing more to do.

const DAY = 86_400_000;
const logger = createLogger('test', 'silent');

const finding = (fp: string) => findingRecord(fp);
const shot = (fp: string) => ({ fingerprint: fp, groupKey: `g-${fp}`, mime: 'image/png', image: Buffer.from(`png ${fp}`), width: 3, height: 2 });

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
});
afterAll(async () => t?.drop());
beforeEach(async () => {
  await sql`truncate page_scans, sites, crawls, pages, issues, webhooks cascade`.execute(db);
});

/** Moves a row's clock back: it was created, started and ended `days` days ago. */
async function age(scanId: string, days: number) {
  const at = new Date(Date.now() - days * DAY);
  await db.updateTable('page_scans').set({ created_at: at, started_at: at, completed_at: at }).where('id', '=', scanId).execute();
}

/** A single-page scan ended `days` days ago (or still running), with two findings, their pictures, judgement candidates and a webhook with a delivery. */
async function singleScan(days: number, status: ScanStatus | 'running' = 'completed') {
  const { id } = await insertSingleScan(db, { url: 'https://example.org/', clientIp: null });
  await saveScanResult(db, id, {
    pageTitle: 'p',
    finalUrl: null,
    httpStatus: 200,
    score: 50,
    passes: [],
    findings: [finding(`${id}-a`), finding(`${id}-b`)],
    screenshots: { crawlId: null, perCrawl: null, shots: [shot(`${id}-a`), shot(`${id}-b`)] },
  });
  await db.insertInto('judgement_candidates').values({ page_scan_id: id, viewport: null, page_lang: 'en', candidates: '[]' }).execute();
  const hook = await db.insertInto('webhooks').values({ scan_id: id, url: 'https://hooks.example/', events: ['scan.completed'], secret: 's' }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('webhook_deliveries').values({ webhook_id: hook.id, event: 'scan.completed', subject_id: id, payload: '{}', status: 'delivered' }).execute();
  if (status === 'running') await db.updateTable('page_scans').set({ status: 'running' }).where('id', '=', id).execute();
  else await finishScan(db, id, { status });
  await age(id, days);
  return id;
}

/** A crawl of a site a year ago: one page scan with a finding and its picture, and the site's issue for it. */
async function oldCrawl() {
  const site = await db.insertInto('sites').values({ hostname: 'site.test', name: 'site.test', base_url: 'https://site.test/' }).returning('id').executeTakeFirstOrThrow();
  const page = await db.insertInto('pages').values({ site_id: site.id, url: 'https://site.test/', path: '/', depth: 0, discovered_via: 'root' }).returning('id').executeTakeFirstOrThrow();
  const crawl = await db.insertInto('crawls').values({ site_id: site.id, max_pages: 10, status: 'completed', completed_at: new Date(Date.now() - 365 * DAY) }).returning('id').executeTakeFirstOrThrow();
  const scan = await db
    .insertInto('page_scans')
    .values({ kind: 'crawl', crawl_id: crawl.id, page_id: page.id, url: 'https://site.test/', status: 'completed', score: 90 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await saveScanResult(db, scan.id, {
    pageTitle: 'p',
    finalUrl: null,
    httpStatus: 200,
    score: 90,
    passes: [],
    findings: [finding('crawl-a')],
    screenshots: { crawlId: crawl.id, perCrawl: 10, shots: [shot('crawl-a')] },
  });
  await age(scan.id, 365);
  const f = await db.selectFrom('findings').select('id').where('page_scan_id', '=', scan.id).executeTakeFirstOrThrow();
  await db
    .insertInto('issues')
    .values({
      site_id: site.id,
      page_id: page.id,
      fingerprint: 'crawl-a',
      rule_id: 'image-alt',
      type: 'confirmed',
      severity: 'critical',
      wcag_criterion: '1.1.1',
      wcag_level: 'A',
      element_selector: '#crawl-a',
      element_html: '<img>',
      description: 'd',
      fix_suggestion: 'f',
      data: '{}',
      status_history: '[]',
      last_finding_id: f.id,
      first_crawl_id: crawl.id,
      last_crawl_id: crawl.id,
      first_seen_at: new Date(Date.now() - 365 * DAY),
      last_seen_at: new Date(Date.now() - 365 * DAY),
    })
    .execute();
  return { crawlId: crawl.id, scanId: scan.id };
}

const count = async (table: 'page_scans' | 'findings' | 'finding_screenshots' | 'judgement_candidates' | 'webhooks' | 'webhook_deliveries' | 'issues') =>
  Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
const scanIds = async () => new Set((await db.selectFrom('page_scans').select('id').execute()).map((r) => r.id));

describe('retention of single-page scans', () => {
  it('deletes the scans that ended before the cutoff with their findings, pictures, candidates and webhook, and nothing else', async () => {
    const due = [await singleScan(40), await singleScan(31, 'failed'), await singleScan(35, 'cancelled'), await singleScan(60, 'completed_partial')];
    const recent = await singleScan(29);
    const stuck = await singleScan(90, 'running');
    const crawl = await oldCrawl();
    expect(await count('page_scans')).toBe(7);
    expect(await count('finding_screenshots')).toBe(13);

    expect(await purgeExpiredScans(db, 30)).toBe(4);

    const left = await scanIds();
    for (const id of due) expect(left.has(id)).toBe(false);
    expect(left).toEqual(new Set([recent, stuck, crawl.scanId]));
    // What belonged to the deleted scans went with them; two scans of two findings each, and the crawl's one, are left.
    expect(await count('findings')).toBe(5);
    expect(await count('finding_screenshots')).toBe(5);
    expect(await count('judgement_candidates')).toBe(2);
    expect(await count('webhooks')).toBe(2);
    expect(await count('webhook_deliveries')).toBe(2);
    // The crawl's page scan, finding, picture and issue are untouched, however old.
    expect(await db.selectFrom('finding_screenshots').select('crawl_id').where('crawl_id', '=', crawl.crawlId).execute()).toHaveLength(1);
    expect(await db.selectFrom('issues').select(['last_finding_id']).execute()).toHaveLength(1);
    expect((await db.selectFrom('crawls').select('results_deleted_at').where('id', '=', crawl.crawlId).executeTakeFirstOrThrow()).results_deleted_at).toBeNull();

    // Idempotent: nothing more is due.
    expect(await purgeExpiredScans(db, 30)).toBe(0);
    expect(await count('page_scans')).toBe(3);
  });

  it('deletes at most batches x batch size per run, oldest first, and the next runs take the rest', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await singleScan(100 - i));
    const bounds = { batchSize: 2, batches: 2 };
    expect(await purgeExpiredScans(db, 30, bounds)).toBe(4);
    expect(await scanIds()).toEqual(new Set(ids.slice(4)));
    expect(await purgeExpiredScans(db, 30, bounds)).toBe(3);
    expect(await purgeExpiredScans(db, 30, bounds)).toBe(0);
    expect(await count('findings')).toBe(0);
  });

  it('skips rows another run holds instead of waiting on them, and several runs at once delete each scan once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await singleScan(45 - i));
    // Another worker's delete holds the oldest due scan: this run goes past it at once.
    let release!: () => void;
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    const other = db.transaction().execute(async (trx) => {
      await trx.selectFrom('page_scans').select('id').where('id', '=', ids[0]!).forUpdate().execute();
      held();
      await new Promise<void>((r) => (release = r));
    });
    await holding;
    const run = purgeExpiredScans(db, 30, { batchSize: 2, batches: 10 });
    const outcome = await Promise.race([run, new Promise((r) => setTimeout(() => r('waited'), 5000))]);
    release();
    await other;
    expect(outcome).toBe(5);
    expect(await scanIds()).toEqual(new Set([ids[0]]));

    for (let i = 0; i < 11; i++) await singleScan(45);
    const runs = await Promise.all([1, 2, 3].map(() => purgeExpiredScans(db, 30, { batchSize: 2, batches: 10 })));
    expect(runs.reduce((a, b) => a + b, 0)).toBe(12);
    expect(await count('page_scans')).toBe(0);
  });

  it('follows the setting as workers run it: the default 30 days, a number of days, or never when off', async () => {
    const old = await singleScan(31);
    await singleScan(400);
    expect(await purgeExpiredSingleScans({ db, logger, scanRetentionDays: null })).toBe(0);
    expect(await purgeExpiredSingleScans({ db, logger, scanRetentionDays: 365 })).toBe(1);
    expect(await scanIds()).toEqual(new Set([old]));
    expect(await purgeExpiredSingleScans({ db, logger })).toBe(1);
    expect(await scanIds()).toEqual(new Set());
  });
});
