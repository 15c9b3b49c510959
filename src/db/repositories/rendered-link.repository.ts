/**
 * Rendered discovery's hand-over: links the page-scan activity read in rendered pages, queued for
 * discovery, which admits them to the frontier (crawl_urls) or refuses them under its rules.
 */
import { sql } from 'kysely';
import type { Database } from '../schema.ts';
import { enqueueUrls, type FrontierUrl } from './frontier.repository.ts';

export interface RenderedLink {
  url: string;
  depth: number;
}

/**
 * Queues the links a scanned page showed, once per crawl and URL (a retried scan adds nothing),
 * leaving out URLs the frontier already knows. A crawl keeps at most 20 links per page of its
 * limit (and at least 5,000): a site whose every page shows thousands of new links cannot fill the
 * table past what its crawl could ever use.
 */
export async function addRenderedLinks(db: Database, v: { crawlId: string; urls: readonly string[]; depth: number; foundOn: string; foundOnHash: string | null }): Promise<number> {
  if (v.urls.length === 0) return 0;
  const r = await sql<{ url: string }>`
    insert into crawl_rendered_links (crawl_id, url, depth, found_on, found_on_hash)
    select ${v.crawlId}::uuid, u.url, ${v.depth}::int, ${v.foundOn}, ${v.foundOnHash}
    from unnest(${[...v.urls]}::text[]) with ordinality as u(url, n)
    where not exists (select 1 from crawl_urls c where c.crawl_id = ${v.crawlId}::uuid and c.url = u.url)
    order by u.n
    limit greatest(0,
      (select greatest(5000, max_pages * 20) from crawls where id = ${v.crawlId}::uuid)
      - (select count(*) from crawl_rendered_links where crawl_id = ${v.crawlId}::uuid))
    on conflict (crawl_id, url) do nothing
    returning url`.execute(db);
  return r.rows.length;
}

/** Links a crawl page's rendering showed, found on `foundOn` (its text's hash: see rendered-links.ts). */
export interface RenderedLinksFound {
  urls: readonly string[];
  foundOn: string;
  foundOnHash: string | null;
}

/** Queues a crawl page's rendered links one level below it (nothing when the page left the crawl). */
export async function addRenderedLinksFrom(db: Database, crawlId: string, pageId: string, links: RenderedLinksFound): Promise<number> {
  if (links.urls.length === 0) return 0;
  const depth = await crawlPageDepth(db, crawlId, pageId);
  if (depth === undefined) return 0;
  return addRenderedLinks(db, { crawlId, urls: links.urls, depth: depth + 1, foundOn: links.foundOn, foundOnHash: links.foundOnHash });
}

/** Queued links, shallowest first, then in the order they were found. */
export async function nextRenderedLinks(db: Database, crawlId: string, limit: number): Promise<RenderedLink[]> {
  return db
    .selectFrom('crawl_rendered_links')
    .select(['url', 'depth'])
    .where('crawl_id', '=', crawlId)
    .where('state', '=', 'queued')
    .orderBy('depth')
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** Discovery's verdict on queued links: the admitted ones join the frontier, in the same transaction. */
export async function admitRenderedLinks(db: Database, crawlId: string, admitted: readonly FrontierUrl[], refused: readonly string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await enqueueUrls(trx, crawlId, admitted);
    for (const [state, urls] of [
      ['admitted', admitted.map((a) => a.url)],
      ['refused', refused],
    ] as const) {
      if (urls.length === 0) continue;
      await trx.updateTable('crawl_rendered_links').set({ state }).where('crawl_id', '=', crawlId).where('url', 'in', urls).execute();
    }
  });
}

/** Where an admitted rendered link was first found, and what that page showed (for a route page's scan). */
export async function renderedLinkOrigin(db: Database, crawlId: string, url: string): Promise<{ foundOn: string; foundOnHash: string | null } | undefined> {
  const r = await db
    .selectFrom('crawl_rendered_links')
    .select(['found_on', 'found_on_hash'])
    .where('crawl_id', '=', crawlId)
    .where('url', '=', url)
    .where('state', '=', 'admitted')
    .executeTakeFirst();
  return r && { foundOn: r.found_on, foundOnHash: r.found_on_hash };
}

/**
 * Whether every page of the crawl has been scanned or has failed: no page is waiting or being
 * scanned, so no rendered link can still arrive from a page discovery already registered.
 */
export async function crawlScansSettled(db: Database, crawlId: string): Promise<boolean> {
  const r = await db
    .selectFrom('crawl_pages')
    .select('page_id')
    .where('crawl_id', '=', crawlId)
    .where('state', 'in', ['pending', 'dispatched'])
    .limit(1)
    .executeTakeFirst();
  return r === undefined;
}

/** The depth of a page in a crawl (undefined when it is not part of it). */
export async function crawlPageDepth(db: Database, crawlId: string, pageId: string): Promise<number | undefined> {
  const r = await db.selectFrom('crawl_pages').select('depth').where('crawl_id', '=', crawlId).where('page_id', '=', pageId).executeTakeFirst();
  return r?.depth;
}

/**
 * Takes a page found by rendered discovery back out of its crawl, once its scan showed it is none:
 * the app's "not found" view (then counted as a broken link, as an HTTP 404 is) or the same view as
 * the page that linked to it. Its scan and findings go, the crawl's page count goes down, its
 * frontier entry stays (as `outcome`) so the URL is not found again, and the page's row goes too
 * when no other crawl has it. Once only: a retry finds nothing left to take out.
 */
export async function dropRenderedPage(db: Database, v: { crawlId: string; pageId: string; url: string; brokenLink: boolean; outcome: string }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('crawl_pages').where('crawl_id', '=', v.crawlId).where('page_id', '=', v.pageId).returning('page_id').executeTakeFirst();
    if (!gone) return false;
    await trx.deleteFrom('page_scans').where('kind', '=', 'crawl').where('crawl_id', '=', v.crawlId).where('page_id', '=', v.pageId).execute();
    await trx
      .updateTable('crawls')
      .set((eb) => ({ total_pages: eb('total_pages', '-', 1), broken_links: v.brokenLink ? eb('broken_links', '+', 1) : eb.ref('broken_links') }))
      .where('id', '=', v.crawlId)
      .execute();
    await trx.updateTable('crawl_urls').set({ state: 'done', outcome: v.outcome }).where('crawl_id', '=', v.crawlId).where('url', '=', v.url).execute();
    await sql`
      delete from pages p where p.id = ${v.pageId}::uuid
        and not exists (select 1 from crawl_pages where page_id = p.id)
        and not exists (select 1 from page_scans where page_id = p.id)
        and not exists (select 1 from issues where page_id = p.id)`.execute(trx);
    return true;
  });
}
