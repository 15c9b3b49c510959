import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sites')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('hostname', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('base_url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('crawls')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('site_id', 'uuid', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('queued').check(sql`status in ('queued', 'running', 'completed', 'completed_partial', 'cancelled', 'failed')`),
    )
    .addColumn('max_pages', 'integer', (c) => c.notNull().check(sql`max_pages > 0`))
    .addColumn('total_pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scanned_pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enriched_pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enrich_failed_pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('overall_score', 'integer')
    .addColumn('new_issues', 'integer')
    .addColumn('fixed_issues', 'integer')
    .addColumn('discovery_done', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('broken_links', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('crawls_site_created_idx').on('crawls').columns(['site_id', 'created_at desc', 'id desc']).execute();
  // At most one queued or running crawl per site: the database, not a race in the API, says 409.
  await sql`create unique index crawls_one_active_per_site on crawls (site_id) where status in ('queued', 'running')`.execute(db);

  await db.schema
    .createTable('pages')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('site_id', 'uuid', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('discovered_via', 'text', (c) => c.notNull().check(sql`discovered_via in ('root', 'link', 'sitemap')`))
    .addColumn('http_status', 'integer')
    .addColumn('latest_score', 'integer')
    .addColumn('last_scanned_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('pages_site_url_uq', ['site_id', 'url'])
    .execute();

  // The crawl frontier and each page's progress through the pipeline.
  await db.schema
    .createTable('crawl_pages')
    .addColumn('crawl_id', 'uuid', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
    .addColumn('page_id', 'uuid', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('seq', 'bigserial', (c) => c.notNull())
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`state in ('pending', 'dispatched', 'scanned', 'failed', 'enriched', 'enrich_failed')`),
    )
    .addColumn('claim_key', 'text')
    .addColumn('error', 'jsonb')
    .addPrimaryKeyConstraint('crawl_pages_pk', ['crawl_id', 'page_id'])
    .execute();
  await db.schema.createIndex('crawl_pages_pending_idx').on('crawl_pages').columns(['crawl_id', 'seq']).where(sql.ref('state'), '=', 'pending').execute();
  await db.schema.createIndex('crawl_pages_claim_idx').on('crawl_pages').columns(['crawl_id', 'claim_key']).execute();

  // URLs discovery has seen (pages or not), so a retried discovery resumes instead of restarting.
  await db.schema
    .createTable('crawl_urls')
    .addColumn('crawl_id', 'uuid', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigserial', (c) => c.notNull())
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('via', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued').check(sql`state in ('queued', 'done')`))
    .addColumn('outcome', 'text')
    .addPrimaryKeyConstraint('crawl_urls_pk', ['crawl_id', 'url'])
    .execute();
  await db.schema.createIndex('crawl_urls_queued_idx').on('crawl_urls').columns(['crawl_id', 'seq']).where(sql.ref('state'), '=', 'queued').execute();

  await sql`alter table page_scans add constraint page_scans_crawl_fk foreign key (crawl_id) references crawls(id) on delete cascade`.execute(db);
  await sql`alter table page_scans add constraint page_scans_page_fk foreign key (page_id) references pages(id) on delete cascade`.execute(db);
  // Exactly one scan of a page per crawl, however often the activity runs.
  await sql`create unique index page_scans_crawl_page_uq on page_scans (crawl_id, page_id) where kind = 'crawl'`.execute(db);
  await db.schema.createIndex('page_scans_page_idx').on('page_scans').columns(['page_id', 'created_at desc']).execute();

  await db.schema
    .createTable('issues')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('site_id', 'uuid', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('page_id', 'uuid', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('wcag_criterion', 'text', (c) => c.notNull())
    .addColumn('wcag_level', 'text', (c) => c.notNull())
    .addColumn('element_selector', 'text', (c) => c.notNull())
    .addColumn('element_html', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('fix_suggestion', 'text', (c) => c.notNull())
    .addColumn('help_url', 'text')
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status in ('open', 'fixed', 'dismissed', 'cant_fix')`))
    .addColumn('status_history', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('last_finding_id', 'uuid')
    .addColumn('first_crawl_id', 'uuid')
    .addColumn('last_crawl_id', 'uuid')
    .addColumn('first_seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('issues_site_fingerprint_uq', ['site_id', 'fingerprint'])
    .execute();
  await db.schema.createIndex('issues_site_status_idx').on('issues').columns(['site_id', 'status']).execute();
  await db.schema.createIndex('issues_page_idx').on('issues').columns(['page_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('issues').execute();
  await sql`drop index if exists page_scans_page_idx`.execute(db);
  await sql`drop index if exists page_scans_crawl_page_uq`.execute(db);
  await sql`alter table page_scans drop constraint if exists page_scans_page_fk`.execute(db);
  await sql`alter table page_scans drop constraint if exists page_scans_crawl_fk`.execute(db);
  await db.schema.dropTable('crawl_urls').execute();
  await db.schema.dropTable('crawl_pages').execute();
  await db.schema.dropTable('pages').execute();
  await db.schema.dropTable('crawls').execute();
  await db.schema.dropTable('sites').execute();
}
