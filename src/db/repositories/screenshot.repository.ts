/**
 * Pictures of findings (`finding_screenshots`): one small image per finding at most, deleted with
 * its finding. A crawl keeps one per issue group (the first page scanned that has the group) up to
 * its cap; a single-page scan keeps those its scan took.
 */
import { sql, type Transaction } from 'kysely';
import type { Database, DB } from '../schema.ts';

export interface ScreenshotImage {
  mime: string;
  image: Buffer;
  width: number;
  height: number;
}

/** A picture to store with the finding that has `fingerprint` in the scan being saved. */
export interface NewScreenshot extends ScreenshotImage {
  fingerprint: string;
  groupKey: string | null;
}

export interface ScreenshotStoreOptions {
  /** The crawl the scan belongs to (null: a single-page scan). */
  crawlId: string | null;
  /** A crawl keeps at most this many pictures (null: no cap). */
  perCrawl: number | null;
  shots: readonly NewScreenshot[];
}

/** Of these group keys, those the crawl already has a picture of, and how many pictures it has. */
export async function crawlPictures(db: Database, crawlId: string, groupKeys: readonly string[]): Promise<{ pictured: Set<string>; count: number }> {
  const [count, rows] = await Promise.all([
    db.selectFrom('finding_screenshots').select((eb) => eb.fn.countAll<number>().as('n')).where('crawl_id', '=', crawlId).executeTakeFirstOrThrow(),
    groupKeys.length
      ? db
          .selectFrom('finding_screenshots as s')
          .innerJoin('findings as f', 'f.id', 's.finding_id')
          .select('f.group_key')
          .distinct()
          .where('s.crawl_id', '=', crawlId)
          .where('f.group_key', 'in', [...new Set(groupKeys)])
          .execute()
      : Promise.resolve([]),
  ]);
  return { pictured: new Set(rows.flatMap((r) => (r.group_key ? [r.group_key] : []))), count: Number(count.n) };
}

/**
 * Stores the pictures of a scan's findings just inserted (`inserted`: their ids by fingerprint),
 * inside the caller's transaction. In a crawl, pages saved at the same time are serialised per
 * crawl, so one group gets one picture and the cap holds exactly.
 */
export async function insertScreenshots(trx: Transaction<DB>, inserted: ReadonlyMap<string, string>, o: ScreenshotStoreOptions): Promise<number> {
  let shots = o.shots.filter((s) => inserted.has(s.fingerprint));
  if (!shots.length) return 0;
  if (o.crawlId) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`finding_screenshots:${o.crawlId}`}, 0))`.execute(trx);
    const { pictured, count } = await crawlPictures(trx, o.crawlId, shots.flatMap((s) => (s.groupKey ? [s.groupKey] : [])));
    const seen = new Set<string>();
    shots = shots.filter((s) => {
      if (!s.groupKey) return true;
      if (pictured.has(s.groupKey) || seen.has(s.groupKey)) return false;
      seen.add(s.groupKey);
      return true;
    });
    if (o.perCrawl !== null) shots = shots.slice(0, Math.max(0, o.perCrawl - count));
  }
  const rows = new Map(shots.map((s) => [inserted.get(s.fingerprint)!, s]));
  if (!rows.size) return 0;
  await trx
    .insertInto('finding_screenshots')
    .values([...rows].map(([findingId, s]) => ({ finding_id: findingId, crawl_id: o.crawlId, mime: s.mime, image: s.image, width: s.width, height: s.height })))
    .onConflict((oc) => oc.column('finding_id').doNothing())
    .execute();
  return rows.size;
}

/** The picture of a single-page scan's finding, or undefined when the finding is not the scan's or has none. */
export async function scanFindingScreenshot(db: Database, scanId: string, findingId: string): Promise<ScreenshotImage | undefined> {
  return db
    .selectFrom('finding_screenshots as s')
    .innerJoin('findings as f', 'f.id', 's.finding_id')
    .innerJoin('page_scans as ps', 'ps.id', 'f.page_scan_id')
    .select(['s.mime', 's.image', 's.width', 's.height'])
    .where('ps.id', '=', scanId)
    .where('ps.kind', '=', 'single')
    .where('f.id', '=', findingId)
    .executeTakeFirst();
}

/**
 * The picture of a site issue: its latest finding's, or else the latest one taken of a finding with
 * the same identity on that site; undefined when the issue is not the site's or none exists.
 */
export async function siteIssueScreenshot(db: Database, siteId: string, issueId: string): Promise<ScreenshotImage | undefined> {
  const issue = await db.selectFrom('issues').select(['fingerprint', 'last_finding_id']).where('id', '=', issueId).where('site_id', '=', siteId).executeTakeFirst();
  if (!issue) return undefined;
  const cols = ['s.mime', 's.image', 's.width', 's.height'] as const;
  if (issue.last_finding_id) {
    const own = await db.selectFrom('finding_screenshots as s').select(cols).where('s.finding_id', '=', issue.last_finding_id).executeTakeFirst();
    if (own) return own;
  }
  return db
    .selectFrom('finding_screenshots as s')
    .innerJoin('findings as f', 'f.id', 's.finding_id')
    .innerJoin('crawls as c', 'c.id', 's.crawl_id')
    .select(cols)
    .where('c.site_id', '=', siteId)
    .where('f.fingerprint', '=', issue.fingerprint)
    .orderBy('s.created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Pictures of these findings (at most as many as asked), by finding id. */
export async function screenshotsOf(db: Database, findingIds: readonly string[]): Promise<Map<string, ScreenshotImage>> {
  if (!findingIds.length) return new Map();
  const rows = await db
    .selectFrom('finding_screenshots')
    .select(['finding_id', 'mime', 'image', 'width', 'height'])
    .where('finding_id', 'in', [...new Set(findingIds)])
    .execute();
  return new Map(rows.map(({ finding_id, ...img }) => [finding_id, img]));
}
