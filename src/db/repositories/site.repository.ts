import type { Database } from '../schema.ts';
import { mapRow, siteFromRow, type SiteRecord } from './records.ts';

/** Creates the site of a host name, or returns the one that exists (`created: false`). */
export async function upsertSite(db: Database, v: { hostname: string; baseUrl: string }): Promise<{ site: SiteRecord; created: boolean }> {
  const inserted = await db
    .insertInto('sites')
    .values({ hostname: v.hostname, name: v.hostname, base_url: v.baseUrl })
    .onConflict((oc) => oc.column('hostname').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { site: siteFromRow(inserted), created: true };
  const existing = await db.selectFrom('sites').selectAll().where('hostname', '=', v.hostname).executeTakeFirstOrThrow();
  return { site: siteFromRow(existing), created: false };
}

export async function findSite(db: Database, id: string): Promise<SiteRecord | undefined> {
  return mapRow(siteFromRow, await db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirst());
}

/** The address the site really lives at (its home page redirected, e.g. to www.); its identity, `hostname`, stays. */
export async function setSiteBaseUrl(db: Database, id: string, baseUrl: string): Promise<void> {
  await db.updateTable('sites').set({ base_url: baseUrl }).where('id', '=', id).execute();
}

export async function listSites(db: Database): Promise<SiteRecord[]> {
  return (await db.selectFrom('sites').selectAll().orderBy('hostname').orderBy('id').execute()).map(siteFromRow);
}

export async function countOpenIssues(db: Database, siteId: string): Promise<number> {
  const r = await db
    .selectFrom('issues')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('site_id', '=', siteId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return r.n;
}
