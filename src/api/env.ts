import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { TargetPolicy } from '../security/target-policy.ts';
import type { TaskQueues } from '../shared/task-queues.ts';
import type { DiscoveryOptions } from '../shared/contracts.ts';
import type { Notifications } from '../db/notifications.ts';
import type { EventStreamTiming } from './routes/event-stream.ts';

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
