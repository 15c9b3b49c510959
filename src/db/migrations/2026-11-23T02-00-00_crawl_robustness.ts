import { sql, type Kysely } from 'kysely';

/**
 * - `crawls.discovery_error`: why discovery stopped short (it failed after its retries, spent its
 *   fetch budget, or robots.txt shut the site); kept apart from `error` until finalization, which
 *   makes the crawl `completed_partial` (or `failed` when no page was scanned) and shows it.
 * - `page_scans.issues_left_out`: findings past the per-page cap, counted per rule.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table crawls add column discovery_error jsonb`.execute(db);
  await sql`alter table page_scans add column issues_left_out jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table crawls drop column if exists discovery_error`.execute(db);
  await sql`alter table page_scans drop column if exists issues_left_out`.execute(db);
}
