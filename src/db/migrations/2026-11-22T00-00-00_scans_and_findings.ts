import { sql, type Kysely } from 'kysely';

// Migrations never import application code or the DB type: they must keep working as both change.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('page_scans')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('single', 'crawl')`))
    .addColumn('crawl_id', 'uuid')
    .addColumn('page_id', 'uuid')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status in ('queued', 'running', 'completed', 'completed_partial', 'failed', 'cancelled')`),
    )
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0).check(sql`progress between 0 and 100`))
    .addColumn('current_stage', 'text')
    .addColumn('page_title', 'text')
    .addColumn('final_url', 'text')
    .addColumn('http_status', 'integer')
    .addColumn('score', 'integer', (c) => c.check(sql`score between 0 and 100`))
    .addColumn('summary', 'jsonb')
    .addColumn('engine_passes', 'jsonb')
    .addColumn('error', 'jsonb')
    .addColumn('client_ip', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('duration_ms', 'integer')
    .execute();
  await db.schema
    .createIndex('page_scans_single_created_idx')
    .on('page_scans')
    .columns(['created_at desc', 'id desc'])
    .where(sql.ref('kind'), '=', 'single')
    .execute();

  await db.schema
    .createTable('findings')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('page_scan_id', 'uuid', (c) => c.notNull().references('page_scans.id').onDelete('cascade'))
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('confirmed', 'needs_review')`))
    .addColumn('severity', 'text', (c) =>
      c.notNull().check(sql`severity in ('critical', 'serious', 'moderate', 'minor')`),
    )
    .addColumn('wcag_criterion', 'text', (c) => c.notNull().check(sql`wcag_criterion ~ '^[1-4]\\.[0-9]+\\.[0-9]+$'`))
    .addColumn('wcag_level', 'text', (c) => c.notNull().check(sql`wcag_level in ('A', 'AA')`))
    .addColumn('element_selector', 'text', (c) => c.notNull())
    .addColumn('element_html', 'text', (c) => c.notNull())
    .addColumn('engine_help', 'text', (c) => c.notNull())
    .addColumn('engine_description', 'text', (c) => c.notNull())
    .addColumn('failure_summary', 'text', (c) => c.notNull())
    .addColumn('help_url', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('fix_suggestion', 'text', (c) => c.notNull())
    .addColumn('enriched_by', 'text')
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // One issue per element per criterion in one scan: a retried activity replaces, never adds.
    .addUniqueConstraint('findings_scan_element_criterion_uq', ['page_scan_id', 'wcag_criterion', 'element_selector'])
    .execute();

  await db.schema
    .createTable('rate_limit_windows')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_windows_pk', ['key', 'window_start'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit_windows').execute();
  await db.schema.dropTable('findings').execute();
  await db.schema.dropTable('page_scans').execute();
}
