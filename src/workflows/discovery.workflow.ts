import { ActivityCancellationType, ActivityFailure, CancellationScope, isCancellation, log, proxyActivities } from '@temporalio/workflow';
import type { CrawlDiscoveryActivities } from '../activities/crawl-discovery/index.ts';
import { FAILURE_TYPES, type DiscoveryOptions } from '../shared/contracts.ts';
import type { TaskQueues } from '../shared/task-queues.ts';
import { persistenceActivities } from './activity-proxies.ts';

export interface DiscoveryWorkflowInput {
  crawlId: string;
  queues: TaskQueues;
  options: DiscoveryOptions;
}

/** Link and sitemap discovery of one crawl on `crawl-discovery`; it feeds the crawl through the database. */
export async function DiscoveryWorkflow(input: DiscoveryWorkflowInput): Promise<void> {
  const discovery = proxyActivities<CrawlDiscoveryActivities>({
    taskQueue: input.queues.discovery,
    startToCloseTimeout: '12 hours',
    heartbeatTimeout: '30 seconds',
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { initialInterval: '2 seconds', maximumAttempts: 5, nonRetryableErrorTypes: [FAILURE_TYPES.crawlNotFound] },
  });
  const db = persistenceActivities(input.queues);
  let error: { code: string; message: string } | undefined;
  try {
    await discovery.discoverPages({ crawlId: input.crawlId, options: input.options });
  } catch (err) {
    if (isCancellation(err)) throw err;
    // Pages found so far are still scanned; the crawl must not wait for ever, and it ends
    // completed_partial with this as its error.
    const cause = err instanceof ActivityFailure && err.cause ? err.cause.message : String(err);
    error = { code: 'discovery_failed', message: `discovery stopped after its retries: ${cause}` };
    log.error('discovery failed for good; scanning what was found', { crawlId: input.crawlId, error: cause });
  } finally {
    await CancellationScope.nonCancellable(() => db.markDiscoveryDone({ crawlId: input.crawlId, error }));
  }
}
