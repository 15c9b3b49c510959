import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../schema.ts';

type Db = Kysely<DB> | Transaction<DB>;

type SealedColumns = { ciphertext: Buffer; iv: Buffer; tag: Buffer; keyId: string };

/** A site's sealed flows; opening them is the caller's (src/security/site-flows-seal.ts). `summary` has no value typed. */
export interface SiteFlowsRow {
  siteId: string;
  sealed: SealedColumns;
  summary: unknown;
  createdAt: Date;
  updatedAt: Date;
}

/** Writes (or replaces) the site's flows in one statement: a failed write leaves the old ones whole. */
export async function putSiteFlows(db: Db, v: { siteId: string; sealed: SealedColumns; summary: unknown }): Promise<{ row: SiteFlowsRow; created: boolean }> {
  const summary = JSON.stringify(v.summary);
  const r = await db
    .insertInto('site_flows')
    .values({ site_id: v.siteId, ciphertext: v.sealed.ciphertext, iv: v.sealed.iv, tag: v.sealed.tag, key_id: v.sealed.keyId, summary })
    .onConflict((oc) =>
      oc.column('site_id').doUpdateSet({
        ciphertext: v.sealed.ciphertext,
        iv: v.sealed.iv,
        tag: v.sealed.tag,
        key_id: v.sealed.keyId,
        summary,
        updated_at: sql<Date>`now()`,
      }),
    )
    .returningAll()
    // xmax = 0 only on a row this statement inserted (not one it updated).
    .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
    .executeTakeFirstOrThrow();
  return { row: fromRow(r), created: r.inserted };
}

export async function findSiteFlows(db: Db, siteId: string): Promise<SiteFlowsRow | undefined> {
  const r = await db.selectFrom('site_flows').selectAll().where('site_id', '=', siteId).executeTakeFirst();
  return r ? fromRow(r) : undefined;
}

/** Whether there were flows to delete. */
export async function deleteSiteFlows(db: Db, siteId: string): Promise<boolean> {
  const r = await db.deleteFrom('site_flows').where('site_id', '=', siteId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The flows of the site a crawl belongs to, with the site's id and current base URL; undefined when it has none. */
export async function findCrawlSiteFlows(db: Db, crawlId: string): Promise<(SiteFlowsRow & { baseUrl: string }) | undefined> {
  const r = await db
    .selectFrom('crawls')
    .innerJoin('sites', 'sites.id', 'crawls.site_id')
    .innerJoin('site_flows', 'site_flows.site_id', 'sites.id')
    .selectAll('site_flows')
    .select('sites.base_url')
    .where('crawls.id', '=', crawlId)
    .executeTakeFirst();
  return r ? { ...fromRow(r), baseUrl: r.base_url } : undefined;
}

function fromRow(r: { site_id: string; ciphertext: Buffer; iv: Buffer; tag: Buffer; key_id: string; summary: unknown; created_at: Date; updated_at: Date }): SiteFlowsRow {
  return {
    siteId: r.site_id,
    sealed: { ciphertext: r.ciphertext, iv: r.iv, tag: r.tag, keyId: r.key_id },
    summary: r.summary,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
