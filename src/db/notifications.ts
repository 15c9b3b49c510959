import pg from 'pg';
import type { Logger } from '../logger.ts';

/** The channel the crawls and page_scans triggers notify on, with payload `crawl:<id>` or `scan:<id>`. */
const CHANNEL = 'a11y_events';

/**
 * PostgreSQL notifications of changed crawls and single-page scans, for one process: one
 * connection LISTENs (opened with the first subscriber, reconnected with back-off while anyone is
 * subscribed) and calls the subscribers of the row that changed. Notifications come when the
 * writing transaction commits, from whichever process wrote it. They can be missed while the
 * connection is down: subscribers also re-read on a timer (see the event streams).
 */
export interface Notifications {
  /** Calls `onChange` whenever the row `key` (`crawl:<id>`, `scan:<id>`) changes; returns the unsubscribe. */
  subscribe(key: string, onChange: () => void): () => void;
  close(): Promise<void>;
}

export function createNotifications(databaseUrl: string, logger: Logger): Notifications {
  const subscribers = new Map<string, Set<() => void>>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let retryMs = 1000;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const dispatch = (msg: pg.Notification) => {
    if (msg.channel !== CHANNEL || !msg.payload) return;
    for (const fn of subscribers.get(msg.payload) ?? []) fn();
  };

  const connect = (): Promise<void> => {
    if (client || connecting || closed || subscribers.size === 0) return connecting ?? Promise.resolve();
    const c = new pg.Client({ connectionString: databaseUrl, application_name: 'a11y-audit events' });
    const lost = (err?: Error) => {
      if (client !== c) return;
      client = undefined;
      c.removeAllListeners('notification');
      void c.end().catch(() => {});
      if (closed || subscribers.size === 0) return;
      logger.warn({ err: err?.message }, 'event notifications connection lost; reconnecting');
      // Whatever changed meanwhile is found by re-reading.
      for (const set of subscribers.values()) for (const fn of set) fn();
      timer = setTimeout(() => void connect(), retryMs);
      retryMs = Math.min(retryMs * 2, 30_000);
    };
    connecting = c
      .connect()
      .then(() => c.query(`listen ${CHANNEL}`))
      .then(() => {
        client = c;
        retryMs = 1000;
        c.on('notification', dispatch);
        c.on('error', lost);
        c.on('end', () => lost());
      })
      .catch((err: Error) => {
        void c.end().catch(() => {});
        if (closed || subscribers.size === 0) return;
        logger.warn({ err: err.message }, 'event notifications unavailable; retrying');
        timer = setTimeout(() => void connect(), retryMs);
        retryMs = Math.min(retryMs * 2, 30_000);
      })
      .finally(() => {
        connecting = undefined;
      });
    return connecting;
  };

  return {
    subscribe(key, onChange) {
      let set = subscribers.get(key);
      if (!set) subscribers.set(key, (set = new Set()));
      set.add(onChange);
      void connect();
      return () => {
        set.delete(onChange);
        if (set.size === 0) subscribers.delete(key);
        if (subscribers.size === 0 && client) {
          // Nobody listens: give the connection back.
          const c = client;
          client = undefined;
          void c.end().catch(() => {});
        }
      };
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      subscribers.clear();
      await connecting?.catch(() => {});
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
