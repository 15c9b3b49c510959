import { sql, type Kysely } from 'kysely';

/**
 * Reports list what a crawl changed from each issue's status history (`{crawlId, to}` entries):
 * a GIN index answers that containment test without reading every issue of the site.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index issues_status_history_idx on issues using gin (status_history jsonb_path_ops)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists issues_status_history_idx`.execute(db);
}
