import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ApiLimits } from '../concurrency.ts';
import type { AppDeps, EventStreamTiming, HonoEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { clientIp, rateLimitBucket } from '../middleware.ts';
import { notRunning } from '../temporal.ts';

/** The state of a scan or crawl as an event: its GET body, its change count, and whether it ended. */
export interface Snapshot {
  seq: number;
  data: unknown;
  ended: boolean;
  /** The workflow that moves it on: asked whether it still runs once the state stops changing. */
  workflowId?: string;
}

export const DEFAULT_EVENT_TIMING: Required<EventStreamTiming> = { pollMs: 2000, keepAliveMs: 15_000, stuckCheckMs: 30_000, maxLifetimeMs: 30 * 60_000 };

/** How a stream is bounded and may end early, as the OpenAPI descriptions of both event routes say it. */
export const EVENT_STREAM_BOUNDS =
  'Bounded: one API process serves at most EVENT_STREAMS_MAX streams (default 100) and EVENT_STREAMS_PER_CLIENT per client (default 10); beyond that 429 ' +
  '`concurrency_limited` with `Retry-After: 10`. A stream may also end with an `end` event (no id) whose `data` says why: `{reason: "workflow_not_running", workflowStatus}` ' +
  'when the run has not ended but its workflow no longer runs (terminated, timed out; checked once nothing has changed for 30 s), so it will not change any more ' +
  '(the event sets `retry` to 60 s); `{reason: "max_lifetime"}` after 30 minutes: reconnect with Last-Event-ID to go on; `{reason: "not_found"}` when it was deleted meanwhile.';

/** Seconds a client refused a stream is told to wait. */
const STREAM_RETRY_AFTER_S = 10;
/** What an `end` event for a run that will not move any more tells EventSource to wait before reconnecting. */
const STUCK_RETRY_MS = 60_000;

/**
 * Server-sent events of one scan or crawl: an `update` event with the object as its GET returns it
 * whenever its row changed (event id = the row's change count), keep-alive comments, and the end
 * of the stream after the first event with an ended status. `Last-Event-ID` resumes: the state is
 * sent again only if it changed since. Works in every API process alike: changes come from
 * PostgreSQL notifications (and a periodic re-read), never from process memory.
 *
 * Bounded: at most EVENT_STREAMS_MAX streams per process and EVENT_STREAMS_PER_CLIENT per client
 * (429 `concurrency_limited` beyond). A stream also ends, with an `end` event saying why, when
 * - its scan or crawl has not ended but its workflow no longer runs (terminated, timed out, lost):
 *   the row would never change again, so the stream would never end. Temporal is asked only once
 *   the row has not changed for `stuckCheckMs`, and then at most that often;
 * - it has lasted `maxLifetimeMs`: the client reconnects with Last-Event-ID and goes on.
 */
export function eventStream(c: Context<HonoEnv>, deps: AppDeps, limits: ApiLimits, key: string, load: () => Promise<Snapshot>) {
  const timing = { ...DEFAULT_EVENT_TIMING, ...deps.eventTiming };
  const client = rateLimitBucket(clientIp(c, deps.config.trustProxy));
  const releaseClient = limits.streamsPerClient.tryAcquire(client);
  if (!releaseClient) {
    throw new ApiError('concurrency_limited', `at most ${limits.streamsPerClient.max} event streams per client at once (EVENT_STREAMS_PER_CLIENT); close one first`, {
      headers: { 'Retry-After': String(STREAM_RETRY_AFTER_S) },
    });
  }
  const releaseProcess = limits.streams.tryAcquire();
  if (!releaseProcess) {
    releaseClient();
    throw new ApiError('concurrency_limited', `this API process serves at most ${limits.streams.max} event streams at once (EVENT_STREAMS_MAX); try again shortly`, {
      headers: { 'Retry-After': String(STREAM_RETRY_AFTER_S) },
    });
  }
  const release = () => {
    releaseClient();
    releaseProcess();
  };
  const header = c.req.header('last-event-id');
  const resumeFrom = header !== undefined && /^\d{1,15}$/.test(header.trim()) ? Number(header) : undefined;
  c.header('Cache-Control', 'no-cache');
  c.header('X-Accel-Buffering', 'no'); // nginx: pass events on at once
  return streamSSE(c, async (stream) => {
    let wake = () => {};
    let aborted = false;
    stream.onAbort(() => {
      aborted = true;
      wake();
    });
    const unsubscribe = deps.notifications?.subscribe(key, () => wake()) ?? (() => {});
    const opened = Date.now();
    try {
      await stream.write(`retry: ${timing.pollMs}\n\n`);
      let sent = resumeFrom;
      let lastWrite = Date.now();
      let seen: number | undefined;
      let changedAt = Date.now();
      let checkedAt = 0;
      while (!aborted) {
        let snap: Snapshot;
        try {
          snap = await load();
        } catch (err) {
          // Deleted meanwhile, or a crawl whose workflow ended before it wrote its row.
          if (!(err instanceof ApiError && err.code === 'not_found')) throw err;
          await stream.writeSSE({ event: 'end', data: JSON.stringify({ reason: 'not_found', message: err.detail }) });
          break;
        }
        if (snap.seq !== seen) {
          seen = snap.seq;
          changedAt = Date.now();
        }
        const now = Date.now();
        if (!snap.ended && snap.workflowId && now - changedAt >= timing.stuckCheckMs && now - checkedAt >= timing.stuckCheckMs) {
          checkedAt = now;
          const status = await notRunning(deps, snap.workflowId);
          // The workflow may have ended right after writing the final state: read it once more.
          if (status) snap = await load().catch(() => snap);
          if (status && !snap.ended) {
            if (snap.seq !== sent) await stream.writeSSE({ id: String(snap.seq), event: 'update', data: JSON.stringify(snap.data) });
            await stream.writeSSE({
              event: 'end',
              retry: STUCK_RETRY_MS,
              data: JSON.stringify({
                reason: 'workflow_not_running',
                workflowStatus: status,
                message: `its workflow ${snap.workflowId} is no longer running (${status}): this will not change any more and the stream ends`,
              }),
            });
            break;
          }
        }
        if (snap.seq !== sent) {
          await stream.writeSSE({ id: String(snap.seq), event: 'update', data: JSON.stringify(snap.data) });
          sent = snap.seq;
          lastWrite = Date.now();
        }
        if (snap.ended) break;
        if (Date.now() - opened >= timing.maxLifetimeMs) {
          await stream.writeSSE({
            event: 'end',
            data: JSON.stringify({ reason: 'max_lifetime', message: `streams last at most ${Math.round(timing.maxLifetimeMs / 1000)} s: reconnect with Last-Event-ID to go on` }),
          });
          break;
        }
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(timing.pollMs, timing.keepAliveMs, Math.max(1, opened + timing.maxLifetimeMs - Date.now())));
          wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        if (!aborted && Date.now() - lastWrite >= timing.keepAliveMs) {
          await stream.write(': keep-alive\n\n');
          lastWrite = Date.now();
        }
      }
    } finally {
      unsubscribe();
      release();
    }
  });
}
