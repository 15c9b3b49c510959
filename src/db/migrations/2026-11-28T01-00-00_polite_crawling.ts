import { sql, type Kysely } from 'kysely';

/**
 * A careful guest on the sites it audits:
 * - `host_pacing`: per host (and port), what the site asked for and how it behaved: robots.txt's
 *   Crawl-delay, when the next fetch may go (`next_fetch_at`), until when everyone waits because
 *   it answered 429 or 503 (`paused_until`), and its window of pages loaded at once (AIMD), shared
 *   by every worker process;
 * - `crawls.throttled_ms`: how long the crawl's fetches waited for the site in all;
 * - `crawl_urls.attempts` and `not_before`: a URL discovery was told to fetch later.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('host_pacing')
    .addColumn('host', 'text', (c) => c.primaryKey())
    .addColumn('crawl_delay_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_fetch_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('paused_until', 'timestamptz')
    .addColumn('window', 'real')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.alterTable('crawls').addColumn('throttled_ms', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('crawl_urls').addColumn('attempts', 'smallint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('crawl_urls').addColumn('not_before', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('crawl_urls').dropColumn('not_before').execute();
  await db.schema.alterTable('crawl_urls').dropColumn('attempts').execute();
  await db.schema.alterTable('crawls').dropColumn('throttled_ms').execute();
  await db.schema.dropTable('host_pacing').execute();
}
