import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { TargetPolicy } from '../security/target-policy.ts';
import type { TaskQueues } from '../shared/task-queues.ts';
import type { DiscoveryOptions } from '../shared/contracts.ts';

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
}

export interface HonoEnv {
  Variables: { requestId: string; logger: Logger };
}
