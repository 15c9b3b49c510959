/** Per-host pacing (see src/shared/politeness.ts): one row per host, shared by every worker process. */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../schema.ts';

type Db = Kysely<DB> | Transaction<DB>;

export interface HostPacingState {
  crawlDelayMs: number;
  /** Epoch ms until which every fetch to the host waits (0: none). */
  pausedUntil: number;
  /** Pages at once; null: the configured maximum. */
  window: number | null;
}

export async function readHostPacing(db: Db, host: string): Promise<HostPacingState | undefined> {
  const row = await db.selectFrom('host_pacing').select(['crawl_delay_ms', 'paused_until', 'window']).where('host', '=', host).executeTakeFirst();
  return row && { crawlDelayMs: row.crawl_delay_ms, pausedUntil: row.paused_until?.getTime() ?? 0, window: row.window };
}

export async function setHostCrawlDelay(db: Db, host: string, crawlDelayMs: number): Promise<void> {
  await db
    .insertInto('host_pacing')
    .values({ host, crawl_delay_ms: crawlDelayMs })
    .onConflict((oc) => oc.column('host').doUpdateSet({ crawl_delay_ms: crawlDelayMs, updated_at: sql`now()` }))
    .execute();
}

/**
 * Takes the host's next fetch slot: the later of now, the host's next free slot and the end of its
 * pause; the slot after it is `crawlDelayMs` (plus `lateMs`, how late the fetch may reach the site)
 * later. Answers how long from now the caller waits.
 */
export async function reserveHostFetch(db: Db, host: string, lateMs = 0): Promise<number> {
  const r = await sql<{ wait_ms: number }>`
    insert into host_pacing as h (host) values (${host})
    on conflict (host) do update set
      next_fetch_at = greatest(h.next_fetch_at, now(), coalesce(h.paused_until, now())) + (h.crawl_delay_ms + ${lateMs}::int) * interval '1 millisecond',
      updated_at = now()
    returning greatest(0, extract(epoch from (h.next_fetch_at - (h.crawl_delay_ms + ${lateMs}::int) * interval '1 millisecond' - now())) * 1000)::float8 as wait_ms`.execute(db);
  return Math.max(0, Math.round(Number(r.rows[0]?.wait_ms ?? 0)));
}

/**
 * The host pushed back: every fetch to it waits until `pausedUntil` at least, and its window of
 * pages at once becomes `window(current)` (`startAt`: the current one when none is set yet).
 */
export async function pauseHost(db: Db, host: string, waitMs: number, startAt: number, halve: (w: number) => number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('host_pacing').select('window').where('host', '=', host).forUpdate().executeTakeFirst();
    const window = halve(row?.window ?? startAt);
    const until = sql<Date>`greatest(coalesce(host_pacing.paused_until, now()), now() + ${waitMs} * interval '1 millisecond')`;
    await trx
      .insertInto('host_pacing')
      .values({ host, window, paused_until: sql`now() + ${waitMs} * interval '1 millisecond'` })
      .onConflict((oc) => oc.column('host').doUpdateSet({ window, paused_until: until, updated_at: sql`now()` }))
      .execute();
  });
}

/** A page of the host went through: its window grows (`grow`), up to the maximum (then it is forgotten: null). */
export async function widenHost(db: Db, host: string, max: number, grow: (w: number) => number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('host_pacing').select('window').where('host', '=', host).forUpdate().executeTakeFirst();
    if (row?.window === null || row?.window === undefined) return;
    const next = grow(row.window);
    await trx.updateTable('host_pacing').set({ window: next >= max ? null : next, updated_at: sql`now()` }).where('host', '=', host).execute();
  });
}

export async function addCrawlThrottledMs(db: Db, crawlId: string, ms: number): Promise<void> {
  if (ms <= 0) return;
  await db.updateTable('crawls').set({ throttled_ms: sql`throttled_ms + ${Math.round(ms)}` }).where('id', '=', crawlId).execute();
}
