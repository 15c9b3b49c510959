import { sql, type Kysely } from 'kysely';

/**
 * What a person meets beyond a page's first paint:
 * - pages found only in the rendered DOM (`rendered`) and a site's scripted flows (`flow`) as ways
 *   a page is discovered;
 * - `state` (the interaction that revealed a finding) and `viewport` (where a crawl checks several)
 *   on findings and issues, both part of an issue's identity through its fingerprint;
 * - `crawls.viewports`: the viewports a crawl checks each page at (null: desktop only);
 * - `site_flows`: a site's named scripted flows, encrypted like its authentication set-up;
 * - `finding_screenshots`: the failing element in context, outlined, one small image per finding
 *   at most, deleted with its finding.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table pages drop constraint if exists pages_discovered_via_check`.execute(db);
  await sql`alter table pages add constraint pages_discovered_via_check check (discovered_via in ('root', 'link', 'sitemap', 'rendered', 'flow'))`.execute(db);
  for (const table of ['findings', 'issues']) {
    await db.schema.alterTable(table).addColumn('state', 'jsonb').execute();
    await db.schema.alterTable(table).addColumn('viewport', 'jsonb').execute();
  }
  await db.schema.alterTable('crawls').addColumn('viewports', 'jsonb').execute();
  await db.schema
    .createTable('site_flows')
    .addColumn('site_id', 'uuid', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
    .addColumn('ciphertext', 'bytea', (c) => c.notNull())
    .addColumn('iv', 'bytea', (c) => c.notNull())
    .addColumn('tag', 'bytea', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('summary', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('finding_screenshots')
    .addColumn('finding_id', 'uuid', (c) => c.primaryKey().references('findings.id').onDelete('cascade'))
    .addColumn('crawl_id', 'uuid')
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('image', 'bytea', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('finding_screenshots_crawl_idx').on('finding_screenshots').column('crawl_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('finding_screenshots').execute();
  await db.schema.dropTable('site_flows').execute();
  await db.schema.alterTable('crawls').dropColumn('viewports').execute();
  for (const table of ['findings', 'issues']) {
    await db.schema.alterTable(table).dropColumn('state').execute();
    await db.schema.alterTable(table).dropColumn('viewport').execute();
  }
  await sql`alter table pages drop constraint if exists pages_discovered_via_check`.execute(db);
  await sql`alter table pages add constraint pages_discovered_via_check check (discovered_via in ('root', 'link', 'sitemap'))`.execute(db);
}
