import { sql, type Kysely } from 'kysely';

/**
 * Rendered discovery: the links each scanned page of a crawl showed once rendered, handed
 * from the page-scan activity to discovery. One row per crawl and URL (the first page to show it
 * gives its depth and what it looked like); discovery takes the queued ones under the same rules as
 * links in served HTML, and the row then says whether it was admitted to the frontier or refused.
 * `found_on`/`found_on_hash` let the scan of a fragment route tell a route the app ignores (the same
 * view as the page that linked to it) from a route of its own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('crawl_rendered_links')
    .addColumn('crawl_id', 'uuid', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigserial', (c) => c.notNull())
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('found_on', 'text', (c) => c.notNull())
    .addColumn('found_on_hash', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued').check(sql`state in ('queued', 'admitted', 'refused')`))
    .addPrimaryKeyConstraint('crawl_rendered_links_pk', ['crawl_id', 'url'])
    .execute();
  await db.schema
    .createIndex('crawl_rendered_links_queued_idx')
    .on('crawl_rendered_links')
    .columns(['crawl_id', 'depth', 'seq'])
    .where(sql.ref('state'), '=', 'queued')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('crawl_rendered_links').execute();
}
