/**
 * Each webhook receiver's share of the workers, kept in PostgreSQL so every worker process sees
 * the same: the deliveries in flight to it (leases, at most `limit` at once) and its circuit
 * breaker (consecutive failures; paused until a time once they reach the threshold; after the
 * pause one delivery at a time probes it, half-open, and the first success closes it again). A
 * receiver is a URL origin. Every decision on one receiver is made under one advisory lock, so
 * two workers never both take its last slot. Times are the database's (`now()`), one clock for
 * every worker.
 */
import { sql, type Transaction } from 'kysely';
import type { Database, DB } from '../schema.ts';

export interface ReceiverLimits {
  /** Deliveries in flight to one receiver at once (1 while it is half-open). */
  limit: number;
  /** Consecutive failures that pause it. */
  failuresToPause: number;
  /** How long a lease holds without its delivery ending (a worker that died mid-attempt). */
  leaseMs: number;
}

export type ReceiverGate =
  | { kind: 'acquired'; probe: boolean }
  | { kind: 'busy'; inFlight: number; limit: number }
  | { kind: 'paused'; until: Date; failures: number };

/** What the attempt said about the receiver: it answered as a server should, it did not, or nothing was tried. */
export type ReceiverOutcome = 'healthy' | 'unwell' | 'untried';

const lock = (trx: Transaction<DB>, origin: string) => sql`select pg_advisory_xact_lock(hashtext(${`webhook-receiver:${origin}`}))`.execute(trx);

/** Takes one of the receiver's slots for `deliveryId` (again, if it holds one), or says why not. */
export async function acquireReceiverSlot(db: Database, origin: string, deliveryId: string, limits: ReceiverLimits): Promise<ReceiverGate> {
  return db.transaction().execute(async (trx) => {
    await lock(trx, origin);
    const state = await trx
      .selectFrom('webhook_receivers')
      .select(['consecutive_failures', 'paused_until', sql<boolean>`coalesce(paused_until > now(), false)`.as('paused')])
      .where('origin', '=', origin)
      .executeTakeFirst();
    if (state?.paused && state.paused_until) return { kind: 'paused', until: state.paused_until, failures: state.consecutive_failures };
    const halfOpen = (state?.consecutive_failures ?? 0) >= limits.failuresToPause;
    const limit = halfOpen ? 1 : limits.limit;
    await trx.deleteFrom('webhook_receiver_leases').where('origin', '=', origin).where('expires_at', '<=', sql<Date>`now()`).execute();
    const held = await trx
      .selectFrom('webhook_receiver_leases')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('origin', '=', origin)
      .where('delivery_id', '!=', deliveryId)
      .executeTakeFirstOrThrow();
    if (Number(held.n) >= limit) return { kind: 'busy', inFlight: Number(held.n), limit };
    const expires = sql<Date>`now() + ${limits.leaseMs}::double precision * interval '1 millisecond'`;
    await trx
      .insertInto('webhook_receiver_leases')
      .values({ delivery_id: deliveryId, origin, expires_at: expires })
      .onConflict((oc) => oc.column('delivery_id').doUpdateSet({ origin, expires_at: expires }))
      .execute();
    return { kind: 'acquired', probe: halfOpen };
  });
}

/**
 * Gives the slot back and records what the attempt said: a healthy answer closes the breaker
 * (the receiver's row goes), an unwell one counts, and the one that reaches the threshold, or
 * fails a probe, pauses the receiver for `pauseMs(pauses)` (the `pauses`-th pause in a row).
 * Returns the pause this call started, if any.
 */
export async function releaseReceiverSlot(
  db: Database,
  origin: string,
  deliveryId: string,
  outcome: ReceiverOutcome,
  breaker: { failuresToPause: number; pauseMs: (pauses: number) => number },
): Promise<{ failures: number; until: Date } | undefined> {
  return db.transaction().execute(async (trx) => {
    await lock(trx, origin);
    await trx.deleteFrom('webhook_receiver_leases').where('delivery_id', '=', deliveryId).execute();
    if (outcome === 'untried') return undefined;
    if (outcome === 'healthy') {
      await trx.deleteFrom('webhook_receivers').where('origin', '=', origin).execute();
      return undefined;
    }
    const row = await trx
      .insertInto('webhook_receivers')
      .values({ origin, consecutive_failures: 1 })
      .onConflict((oc) => oc.column('origin').doUpdateSet({ consecutive_failures: sql<number>`webhook_receivers.consecutive_failures + 1`, updated_at: sql<Date>`now()` }))
      .returning(['consecutive_failures', 'pauses', sql<boolean>`coalesce(paused_until > now(), false)`.as('paused')])
      .executeTakeFirstOrThrow();
    // Already paused (this attempt began before the pause): the pause stands as it is.
    if (row.paused || row.consecutive_failures < breaker.failuresToPause) return undefined;
    const pauses = row.pauses + 1;
    const paused = await trx
      .updateTable('webhook_receivers')
      .set({ pauses, paused_until: sql<Date>`now() + ${breaker.pauseMs(pauses)}::double precision * interval '1 millisecond'`, updated_at: sql<Date>`now()` })
      .where('origin', '=', origin)
      .returning('paused_until')
      .executeTakeFirstOrThrow();
    // A receiver nobody delivers to any more keeps no row for long.
    await trx
      .deleteFrom('webhook_receivers')
      .where('updated_at', '<', sql<Date>`now() - interval '7 days'`)
      .where((eb) => eb.or([eb('paused_until', 'is', null), eb('paused_until', '<', sql<Date>`now()`)]))
      .execute();
    return { failures: row.consecutive_failures, until: paused.paused_until! };
  });
}

/** A receiver's breaker as it stands (tests and operators): undefined when it has no failures to remember. */
export async function findReceiver(db: Database, origin: string) {
  return db.selectFrom('webhook_receivers').selectAll().where('origin', '=', origin).executeTakeFirst();
}
