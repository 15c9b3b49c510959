import { sql, type Kysely } from 'kysely';

/**
 * Page reuse (a re-crawl at the cost of what changed):
 * - `page_scans.resources`: what the page loaded for its audit (URL, status, validators, sha256),
 *   or why that cannot be checked again; `audit_key`: the engines' versions and the settings that
 *   decide findings; `rendered`: the rendered links and view handed to discovery, so that a reused
 *   page still feeds discovery; `reused_from_scan_id` and `audited_at`: the scan whose audit a
 *   reused page's row carries, and when that audit ran (REUSE_MAX_AGE counts from there).
 * - `crawls.reuse` (`{"reuse": false}` audits every page afresh) and `crawls.reused_pages`.
 * - An index to find a page's last reusable scan.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('page_scans')
    .addColumn('resources', 'jsonb')
    .addColumn('audit_key', 'text')
    .addColumn('rendered', 'jsonb')
    .addColumn('reused_from_scan_id', 'uuid', (c) => c.references('page_scans.id').onDelete('set null'))
    .addColumn('audited_at', 'timestamptz')
    .execute();
  await db.schema
    .alterTable('crawls')
    .addColumn('reuse', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('reused_pages', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('page_scans_reusable_idx')
    .on('page_scans')
    .columns(['page_id', 'audit_key', 'completed_at desc'])
    .where(sql.ref('audit_key'), 'is not', null)
    .execute();
  // A scan that was reused from is deleted with its crawl's results: the reusing rows keep their copy.
  await sql`create index page_scans_reused_from_idx on page_scans (reused_from_scan_id) where reused_from_scan_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('page_scans_reused_from_idx').execute();
  await db.schema.dropIndex('page_scans_reusable_idx').execute();
  await db.schema.alterTable('crawls').dropColumn('reuse').dropColumn('reused_pages').execute();
  await db.schema.alterTable('page_scans').dropColumn('resources').dropColumn('audit_key').dropColumn('rendered').dropColumn('reused_from_scan_id').dropColumn('audited_at').execute();
}
