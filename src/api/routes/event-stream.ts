import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppDeps, HonoEnv } from '../env.ts';

/** The state of a scan or crawl as an event: its GET body, its change count, and whether it ended. */
export interface Snapshot {
  seq: number;
  data: unknown;
  ended: boolean;
}

export interface EventStreamTiming {
  /** Re-read this often even without a notification (one may be missed while the LISTEN connection is down). */
  pollMs: number;
  /** A comment this often keeps proxies from closing a quiet stream. */
  keepAliveMs: number;
}

export const DEFAULT_EVENT_TIMING: EventStreamTiming = { pollMs: 2000, keepAliveMs: 15_000 };

/**
 * Server-sent events of one scan or crawl: an `update` event with the object as its GET returns it
 * whenever its row changed (event id = the row's change count), keep-alive comments, and the end
 * of the stream after the first event with an ended status. `Last-Event-ID` resumes: the state is
 * sent again only if it changed since. Works in every API process alike: changes come from
 * PostgreSQL notifications (and a periodic re-read), never from process memory.
 */
export function eventStream(c: Context<HonoEnv>, deps: AppDeps, key: string, load: () => Promise<Snapshot>) {
  const timing = deps.eventTiming ?? DEFAULT_EVENT_TIMING;
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
    try {
      await stream.write(`retry: ${timing.pollMs}\n\n`);
      let sent = resumeFrom;
      let lastWrite = Date.now();
      while (!aborted) {
        const snap = await load();
        if (snap.seq !== sent) {
          await stream.writeSSE({ id: String(snap.seq), event: 'update', data: JSON.stringify(snap.data) });
          sent = snap.seq;
          lastWrite = Date.now();
        }
        if (snap.ended) break;
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(timing.pollMs, timing.keepAliveMs));
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
    }
  });
}
