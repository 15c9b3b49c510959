/** Discovery's frontier: the URLs of a crawl, queued and fetched, so discovery can resume. */
import { sql } from 'kysely';
import type { Database } from '../schema.ts';
import type { DiscoveredVia } from '../../shared/contracts.ts';

/** URLs discovery has already fetched in this crawl (its fetch budget survives a retry). */
export async function countFetchedUrls(db: Database, crawlId: string): Promise<number> {
  const r = await db
    .selectFrom('crawl_urls')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'done')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** URLs the crawl's frontier holds at all: none until discovery seeded it with the home page and sitemaps. */
export async function countFrontierUrls(db: Database, crawlId: string): Promise<number> {
  const r = await db.selectFrom('crawl_urls').select((eb) => eb.fn.countAll<string>().as('n')).where('crawl_id', '=', crawlId).executeTakeFirstOrThrow();
  return Number(r.n);
}

export interface FrontierUrl {
  url: string;
  depth: number;
  via: DiscoveredVia;
}

export async function enqueueUrls(db: Database, crawlId: string, urls: readonly FrontierUrl[]): Promise<void> {
  for (let i = 0; i < urls.length; i += 500) {
    await db
      .insertInto('crawl_urls')
      .values(urls.slice(i, i + 500).map((u) => ({ crawl_id: crawlId, url: u.url, depth: u.depth, via: u.via })))
      .onConflict((oc) => oc.columns(['crawl_id', 'url']).doNothing())
      .execute();
  }
}

/** Queued URLs due now (not waiting out a pause the site asked for), oldest first, with their throttled tries. */
export async function nextQueuedUrls(db: Database, crawlId: string, limit: number): Promise<Array<FrontierUrl & { attempts: number }>> {
  return db
    .selectFrom('crawl_urls')
    .select(['url', 'depth', 'via', 'attempts'])
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'queued')
    .where((eb) => eb.or([eb('not_before', 'is', null), eb('not_before', '<=', sql<Date>`now()`)]))
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** The site answered 429 or 503 for `url`: it stays queued, fetched again no earlier than `waitMs` from now. */
export async function deferUrl(db: Database, crawlId: string, url: string, waitMs: number): Promise<void> {
  await db
    .updateTable('crawl_urls')
    .set({ attempts: sql`attempts + 1`, not_before: sql`now() + ${Math.round(waitMs)} * interval '1 millisecond'` })
    .where('crawl_id', '=', crawlId)
    .where('url', '=', url)
    .execute();
}

/** How long until the first queued URL waiting out a pause is due (undefined: none waits). */
export async function nextDeferredInMs(db: Database, crawlId: string): Promise<number | undefined> {
  const r = await db
    .selectFrom('crawl_urls')
    .select(sql<number | null>`extract(epoch from (min(not_before) - now())) * 1000`.as('ms'))
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'queued')
    .where('not_before', 'is not', null)
    .executeTakeFirst();
  return r?.ms === null || r?.ms === undefined ? undefined : Math.max(0, Number(r.ms));
}

export async function allFrontierUrls(db: Database, crawlId: string): Promise<string[]> {
  const rows = await db.selectFrom('crawl_urls').select('url').where('crawl_id', '=', crawlId).execute();
  return rows.map((r) => r.url);
}

export async function markUrlDone(db: Database, crawlId: string, url: string, outcome: string): Promise<void> {
  await db
    .insertInto('crawl_urls')
    .values({ crawl_id: crawlId, url, depth: 0, via: 'link', state: 'done', outcome })
    .onConflict((oc) => oc.columns(['crawl_id', 'url']).doUpdateSet({ state: 'done', outcome }))
    .execute();
}
