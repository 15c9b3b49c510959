import { sql } from 'kysely';
import type { Database } from '../database.ts';

/**
 * Counts one request of `key` in the window starting at `windowStart`, in one atomic upsert, so
 * every API process shares the count; returns the count including this request.
 */
export async function countRequest(db: Database, key: string, windowStart: Date): Promise<number> {
  const row = await db
    .insertInto('rate_limit_windows')
    .values({ key, window_start: windowStart, count: 1 })
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ count: sql`rate_limit_windows.count + 1` }))
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}

/** Drops the windows that started before `before`. */
export async function sweepRateLimitWindows(db: Database, before: Date): Promise<void> {
  await db.deleteFrom('rate_limit_windows').where('window_start', '<', before).execute();
}
