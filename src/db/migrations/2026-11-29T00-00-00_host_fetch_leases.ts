import type { Kysely } from 'kysely';

/**
 * Crawl-delay counted from when the host's last fetch got its answer, not from when it was due:
 * a fetch reaches the site some time after its slot (a browser's document load on a busy worker
 * most of all), so spacing slots alone can bring two fetches closer than the site asked.
 * - `fetching_token` and `fetching_until`: the fetch in flight to the host (one at a time while it
 *   asks for a Crawl-delay), leased so that a worker that died mid-fetch holds nobody up for long;
 * - `last_fetch_done_at`: when the last fetch to the host got its answer (or failed).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('host_pacing')
    .addColumn('fetching_token', 'text')
    .addColumn('fetching_until', 'timestamptz')
    .addColumn('last_fetch_done_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('host_pacing').dropColumn('last_fetch_done_at').dropColumn('fetching_until').dropColumn('fetching_token').execute();
}
