import type { Kysely } from 'kysely';

/**
 * `page_scans.coverage`: what a crawl page's scan really checked: the viewports it was checked at
 * (a later viewport may run out of time or fail to load) and the interaction states it opened (by
 * trigger; a page's states are bounded by a count and a time budget). Finalization only finds an
 * issue of a viewport or state fixed when the scan checked that viewport and that state; null (a
 * scan stored before this column) checked the default state at the crawl's viewports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('page_scans').addColumn('coverage', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('page_scans').dropColumn('coverage').execute();
}
