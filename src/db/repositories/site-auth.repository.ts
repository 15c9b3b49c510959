import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../schema.ts';

type Db = Kysely<DB> | Transaction<DB>;

/** A site's sealed authentication set-up; opening it is the caller's (src/security/secrets.ts). */
export interface SiteAuthRow {
  siteId: string;
  sealed: { ciphertext: Buffer; iv: Buffer; tag: Buffer; keyId: string };
  summary: unknown;
  createdAt: Date;
  updatedAt: Date;
}

/** Writes (or replaces) the set-up in one statement: a failed write leaves the old one whole. */
export async function putSiteAuth(
  db: Db,
  v: { siteId: string; sealed: { ciphertext: Buffer; iv: Buffer; tag: Buffer; keyId: string }; summary: unknown },
): Promise<{ row: SiteAuthRow; created: boolean }> {
  const values = {
    site_id: v.siteId,
    ciphertext: v.sealed.ciphertext,
    iv: v.sealed.iv,
    tag: v.sealed.tag,
    key_id: v.sealed.keyId,
    summary: JSON.stringify(v.summary),
  };
  const r = await db
    .insertInto('site_auth')
    .values(values)
    .onConflict((oc) =>
      oc.column('site_id').doUpdateSet({
        ciphertext: v.sealed.ciphertext,
        iv: v.sealed.iv,
        tag: v.sealed.tag,
        key_id: v.sealed.keyId,
        summary: values.summary,
        updated_at: sql<Date>`now()`,
      }),
    )
    .returningAll()
    // xmax = 0 only on a row this statement inserted (not one it updated).
    .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
    .executeTakeFirstOrThrow();
  return { row: fromRow(r), created: r.inserted };
}

export async function findSiteAuth(db: Db, siteId: string): Promise<SiteAuthRow | undefined> {
  const r = await db.selectFrom('site_auth').selectAll().where('site_id', '=', siteId).executeTakeFirst();
  return r ? fromRow(r) : undefined;
}

/** Whether there was one to delete. */
export async function deleteSiteAuth(db: Db, siteId: string): Promise<boolean> {
  const r = await db.deleteFrom('site_auth').where('site_id', '=', siteId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

function fromRow(r: { site_id: string; ciphertext: Buffer; iv: Buffer; tag: Buffer; key_id: string; summary: unknown; created_at: Date; updated_at: Date }): SiteAuthRow {
  return {
    siteId: r.site_id,
    sealed: { ciphertext: r.ciphertext, iv: r.iv, tag: r.tag, keyId: r.key_id },
    summary: r.summary,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The set-up of the site a crawl belongs to, with the site's current base URL; undefined when it has none. */
export async function findCrawlSiteAuth(db: Db, crawlId: string): Promise<(SiteAuthRow & { baseUrl: string }) | undefined> {
  const r = await db
    .selectFrom('crawls')
    .innerJoin('sites', 'sites.id', 'crawls.site_id')
    .innerJoin('site_auth', 'site_auth.site_id', 'sites.id')
    .selectAll('site_auth')
    .select('sites.base_url')
    .where('crawls.id', '=', crawlId)
    .executeTakeFirst();
  return r ? { ...fromRow(r), baseUrl: r.base_url } : undefined;
}
