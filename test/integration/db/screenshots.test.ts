import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.ts';
import { insertSingleScan, saveScanResult } from '../../../src/db/repositories/scan.repository.ts';
import { scanFindingScreenshot, screenshotsOf } from '../../../src/db/repositories/screenshot.repository.ts';
import { createTestDatabase } from '../../helpers/test-env.ts';
import { findingRecord } from '../../helpers/finding-record.ts';

// Storing pictures with a scan's findings: one per issue group and crawl, capped per crawl, even
// when the crawl's pages are saved at the same moment; a retried save replaces them.

const finding = (fp: string, groupKey: string) =>
  findingRecord(fp, { ruleId: 'button-name', wcagCriterion: '4.1.2', wcagCriteria: ['4.1.2'], elementHtml: '<button></button>', engineHelp: 'Buttons must have discernible text', groupKey });
const shot = (fingerprint: string, groupKey: string) => ({ fingerprint, groupKey, mime: 'image/png', image: Buffer.from(`png ${fingerprint}`), width: 3, height: 2 });

describe('finding screenshots in the database', () => {
  let t: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Database;
  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.db;
  });
  afterAll(async () => t?.drop());

  async function save(scanId: string, groups: string[], crawlId: string | null, perCrawl: number | null) {
    const fps = groups.map((g) => `${scanId}-${g}`);
    await saveScanResult(db, scanId, {
      pageTitle: null,
      finalUrl: null,
      httpStatus: 200,
      score: 50,
      passes: [],
      findings: fps.map((fp, i) => finding(fp, groups[i]!)),
      screenshots: { crawlId, perCrawl, shots: fps.map((fp, i) => shot(fp, groups[i]!)) },
    });
  }
  const scanRow = async () => (await insertSingleScan(db, { url: 'https://example.org/', clientIp: null })).id;
  const crawlCount = async (crawlId: string) =>
    (await db.selectFrom('finding_screenshots').select('finding_id').where('crawl_id', '=', crawlId).execute()).length;

  it('keeps one picture per group and crawl, up to the cap, with pages saved at once', async () => {
    const crawlId = randomUUID();
    const scans = await Promise.all([scanRow(), scanRow(), scanRow(), scanRow()]);
    await Promise.all(scans.map((id) => save(id, ['g1', 'g2'], crawlId, 3)));
    const rows = await db
      .selectFrom('finding_screenshots as s')
      .innerJoin('findings as f', 'f.id', 's.finding_id')
      .select('f.group_key')
      .where('s.crawl_id', '=', crawlId)
      .execute();
    expect(rows.map((r) => r.group_key).sort()).toEqual(['g1', 'g2']);
    const next = await scanRow();
    await save(next, ['g3', 'g4', 'g5'], crawlId, 3);
    expect(await crawlCount(crawlId)).toBe(3);
  });

  it('keeps every picture of a single-page scan, replaces them when the scan is saved again, and serves them by finding', async () => {
    const id = await scanRow();
    await save(id, ['a', 'a', 'b'].map((g, i) => `${g}${i}`), null, null);
    const findings = await db.selectFrom('findings').select(['id', 'fingerprint']).where('page_scan_id', '=', id).execute();
    expect((await screenshotsOf(db, findings.map((f) => f.id))).size).toBe(3);
    await save(id, ['a0'], null, null);
    const again = await db.selectFrom('findings').select(['id']).where('page_scan_id', '=', id).execute();
    expect(again).toHaveLength(1);
    const img = await scanFindingScreenshot(db, id, again[0]!.id);
    expect(img).toMatchObject({ mime: 'image/png', width: 3, height: 2 });
    expect(img!.image.toString()).toBe(`png ${id}-a0`);
    // The old findings' pictures went with them; another scan's finding is not this scan's.
    expect((await screenshotsOf(db, findings.map((f) => f.id))).size).toBe(0);
    const other = await scanRow();
    expect(await scanFindingScreenshot(db, other, again[0]!.id)).toBeUndefined();
  });
});
