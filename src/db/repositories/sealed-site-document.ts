import { sql } from 'kysely';
import type { Database } from '../schema.ts';

/** The tables that keep one sealed document per site: its authentication set-up, its scripted flows. */
export type SealedSiteTable = 'site_auth' | 'site_flows';

export interface SealedColumns {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
  keyId: string;
}

/** A site's sealed document; opening it is the caller's (src/security). `summary` holds no secret. */
export interface SealedSiteRow {
  siteId: string;
  sealed: SealedColumns;
  summary: unknown;
  createdAt: Date;
  updatedAt: Date;
}

/** Reads and writes one table of sealed per-site documents. */
export function sealedSiteDocuments(name: SealedSiteTable) {
  // Both tables have the same columns: typed as one of them, the queries below fit either.
  const table = name as 'site_auth';
  return {
    /** Writes (or replaces) the document in one statement: a failed write leaves the old one whole. */
    async put(db: Database, v: { siteId: string; sealed: SealedColumns; summary: unknown }): Promise<{ row: SealedSiteRow; created: boolean }> {
      const columns = { ciphertext: v.sealed.ciphertext, iv: v.sealed.iv, tag: v.sealed.tag, key_id: v.sealed.keyId, summary: JSON.stringify(v.summary) };
      const r = await db
        .insertInto(table)
        .values({ site_id: v.siteId, ...columns })
        .onConflict((oc) => oc.column('site_id').doUpdateSet({ ...columns, updated_at: sql<Date>`now()` }))
        .returningAll()
        // xmax = 0 only on a row this statement inserted (not one it updated).
        .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
        .executeTakeFirstOrThrow();
      return { row: fromRow(r), created: r.inserted };
    },

    async find(db: Database, siteId: string): Promise<SealedSiteRow | undefined> {
      const r = await db.selectFrom(table).selectAll().where('site_id', '=', siteId).executeTakeFirst();
      return r ? fromRow(r) : undefined;
    },

    /** Whether there was one to delete. */
    async delete(db: Database, siteId: string): Promise<boolean> {
      const r = await db.deleteFrom(table).where('site_id', '=', siteId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** The document of the site a crawl belongs to, with the site's current base URL; undefined when it has none. */
    async findForCrawl(db: Database, crawlId: string): Promise<(SealedSiteRow & { baseUrl: string }) | undefined> {
      const r = await db
        .selectFrom('crawls')
        .innerJoin('sites', 'sites.id', 'crawls.site_id')
        .innerJoin(`${table} as d`, 'd.site_id', 'sites.id')
        .select(['d.site_id', 'd.ciphertext', 'd.iv', 'd.tag', 'd.key_id', 'd.summary', 'd.created_at', 'd.updated_at', 'sites.base_url'])
        .where('crawls.id', '=', crawlId)
        .executeTakeFirst();
      return r ? { ...fromRow(r), baseUrl: r.base_url } : undefined;
    },
  };
}

function fromRow(r: { site_id: string; ciphertext: Buffer; iv: Buffer; tag: Buffer; key_id: string; summary: unknown; created_at: Date; updated_at: Date }): SealedSiteRow {
  return {
    siteId: r.site_id,
    sealed: { ciphertext: r.ciphertext, iv: r.iv, tag: r.tag, keyId: r.key_id },
    summary: r.summary,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
