/** Per-host pacing (see src/shared/politeness.ts): one row per host, shared by every worker process. */
import { sql } from 'kysely';
import type { Database } from '../schema.ts';

export interface HostPacingState {
  crawlDelayMs: number;
  /** Epoch ms until which every fetch to the host waits (0: none). */
  pausedUntil: number;
  /** Pages at once; null: the configured maximum. */
  window: number | null;
}

export async function readHostPacing(db: Database, host: string): Promise<HostPacingState | undefined> {
  const row = await db.selectFrom('host_pacing').select(['crawl_delay_ms', 'paused_until', 'window']).where('host', '=', host).executeTakeFirst();
  return row && { crawlDelayMs: row.crawl_delay_ms, pausedUntil: row.paused_until?.getTime() ?? 0, window: row.window };
}

export async function setHostCrawlDelay(db: Database, host: string, crawlDelayMs: number): Promise<void> {
  await db
    .insertInto('host_pacing')
    .values({ host, crawl_delay_ms: crawlDelayMs })
    .onConflict((oc) => oc.column('host').doUpdateSet({ crawl_delay_ms: crawlDelayMs, updated_at: sql`now()` }))
    .execute();
}

/**
 * Takes the host's next fetch slot: the later of now, the host's next free slot and the end of its
 * pause; the slot after it is `crawlDelayMs` later. Answers how long from now the caller waits.
 * The slot orders the host's fetches; `claimHostFetch` then makes each wait for the one before.
 */
export async function reserveHostFetch(db: Database, host: string): Promise<number> {
  const r = await sql<{ wait_ms: number }>`
    insert into host_pacing as h (host) values (${host})
    on conflict (host) do update set
      next_fetch_at = greatest(h.next_fetch_at, now(), coalesce(h.paused_until, now())) + h.crawl_delay_ms * interval '1 millisecond',
      updated_at = now()
    returning greatest(0, extract(epoch from (h.next_fetch_at - h.crawl_delay_ms * interval '1 millisecond' - now())) * 1000)::float8 as wait_ms`.execute(db);
  return Math.max(0, Math.round(Number(r.rows[0]?.wait_ms ?? 0)));
}

/**
 * The host's one fetch in flight, while it asks for a Crawl-delay: taken (`token`, leased for
 * `leaseMs`) when nobody holds it and the last fetch got its answer `crawl_delay_ms` ago or more,
 * and no pause is on. Answers 0 when taken, else how long to wait before asking again (`busyMs`
 * while another fetch is in flight).
 */
export async function claimHostFetch(db: Database, host: string, token: string, leaseMs: number, busyMs: number): Promise<number> {
  const r = await sql<{ wait_ms: number; taken: boolean }>`
    with cur as (select * from host_pacing where host = ${host} for update),
    took as (
      update host_pacing h set fetching_token = ${token}, fetching_until = now() + ${leaseMs}::int * interval '1 millisecond', updated_at = now()
      from cur
      where h.host = cur.host
        and (cur.fetching_until is null or cur.fetching_until <= now() or cur.fetching_token = ${token})
        and (cur.last_fetch_done_at is null or cur.last_fetch_done_at + cur.crawl_delay_ms * interval '1 millisecond' <= now())
        and (cur.paused_until is null or cur.paused_until <= now())
      returning h.host
    )
    select (exists (select 1 from took) or not exists (select 1 from cur)) as taken,
      coalesce((select greatest(
        case when cur.fetching_until > now() and cur.fetching_token is distinct from ${token} then ${busyMs}::float8 else 0 end,
        extract(epoch from (cur.last_fetch_done_at + cur.crawl_delay_ms * interval '1 millisecond' - now())) * 1000,
        extract(epoch from (cur.paused_until - now())) * 1000,
        1
      ) from cur), 0)::float8 as wait_ms`.execute(db);
  const row = r.rows[0];
  if (!row || row.taken) return 0;
  return Math.max(1, Math.round(Number(row.wait_ms)));
}

/** The fetch holding `token` got its answer (or failed): the host's Crawl-delay counts from now, and the next fetch may go. */
export async function releaseHostFetch(db: Database, host: string, token: string): Promise<void> {
  await sql`
    update host_pacing set
      last_fetch_done_at = greatest(coalesce(last_fetch_done_at, now()), now()),
      fetching_token = case when fetching_token = ${token} then null else fetching_token end,
      fetching_until = case when fetching_token = ${token} then null else fetching_until end,
      updated_at = now()
    where host = ${host}`.execute(db);
}

/**
 * The host pushed back: every fetch to it waits until `pausedUntil` at least, and its window of
 * pages at once becomes `window(current)` (`startAt`: the current one when none is set yet).
 */
export async function pauseHost(db: Database, host: string, waitMs: number, startAt: number, halve: (w: number) => number): Promise<void> {
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
export async function widenHost(db: Database, host: string, max: number, grow: (w: number) => number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('host_pacing').select('window').where('host', '=', host).forUpdate().executeTakeFirst();
    if (row?.window === null || row?.window === undefined) return;
    const next = grow(row.window);
    await trx.updateTable('host_pacing').set({ window: next >= max ? null : next, updated_at: sql`now()` }).where('host', '=', host).execute();
  });
}

export async function addCrawlThrottledMs(db: Database, crawlId: string, ms: number): Promise<void> {
  if (ms <= 0) return;
  await db.updateTable('crawls').set({ throttled_ms: sql`throttled_ms + ${Math.round(ms)}` }).where('id', '=', crawlId).execute();
}
