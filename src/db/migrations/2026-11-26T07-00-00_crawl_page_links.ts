import type { Kysely } from 'kysely';

/**
 * `page_scans.ways`: a crawl page's same-site links (at most 500, normalised as rendered discovery
 * normalises them) and whether it offers a search, read at finalization to decide WCAG 2.4.5
 * Multiple Ways over the crawl. Goes with its page scan (and so with its crawl); null for a
 * single-page scan, a flow's end state, or a scan whose links could not be read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('page_scans').addColumn('ways', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('page_scans').dropColumn('ways').execute();
}
