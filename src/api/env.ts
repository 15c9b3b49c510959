import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { TargetPolicy } from '../security/target-policy.ts';
import type { TaskQueues } from '../shared/task-queues.ts';
import type { DiscoveryOptions } from '../shared/contracts.ts';
import type { Notifications } from '../db/notifications.ts';

/** How event streams re-read, keep alive and end (DEFAULT_EVENT_TIMING in routes/event-stream.ts). */
export interface EventStreamTiming {
  /** Re-read this often even without a notification (one may be missed while the LISTEN connection is down). */
  pollMs: number;
  /** A comment this often keeps proxies from closing a quiet stream. */
  keepAliveMs: number;
  /** After this long without a change, and then at most this often, ask Temporal whether the workflow still runs. */
  stuckCheckMs?: number;
  /** A stream ends after this long (the client reconnects with Last-Event-ID), so none is held for ever. */
  maxLifetimeMs?: number;
}

export interface AppDeps {
  config: Config;
  db: Database;
  temporal: Client;
  logger: Logger;
  policy: TargetPolicy;
  queues: TaskQueues;
  /** Enrichment retry budget handed to workflows; tests shorten it. */
  enrichmentRetry?: { maximumAttempts: number; initialIntervalMs: number };
  /** Discovery knobs handed to crawl workflows; tests shorten the fetch timeout. */
  discoveryOptions?: Partial<DiscoveryOptions>;
  /** PostgreSQL notifications of changed scans and crawls, for event streams (without: they re-read on a timer only). */
  notifications?: Notifications;
  /** Event streams' re-read and keep-alive intervals; tests shorten them. */
  eventTiming?: EventStreamTiming;
}

export interface HonoEnv {
  Variables: { requestId: string; logger: Logger };
}
