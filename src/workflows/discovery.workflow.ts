import {
  ActivityCancellationType,
  ActivityFailure,
  CancellationScope,
  continueAsNew,
  isCancellation,
  log,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { CrawlDiscoveryActivities } from '../activities/crawl-discovery/index.ts';
import { FAILURE_TYPES, type DiscoveryOptions } from '../shared/contracts.ts';
import type { TaskQueues } from '../shared/task-queues.ts';
import { persistenceActivities } from './activity-proxies.ts';

export interface DiscoveryWorkflowInput {
  crawlId: string;
  queues: TaskQueues;
  options: DiscoveryOptions;
  /** Where the run before a continue-as-new left off while waiting for rendered links. */
  progress?: { mark: string; at: number };
}

/** Runs of the activity after which a waiting discovery continues as new (each adds about 6 events). */
const MAX_RUNS_PER_HISTORY = 500;

/**
 * Link, sitemap and rendered-link discovery of one crawl on `crawl-discovery`; it feeds the crawl
 * through the database.
 */
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
  let continuing = false;
  try {
    // A run waiting for the links of pages still being scanned hands the queue's slot back now
    // and then (`waiting`): it is run again at once, and resumes where it stopped.
    let progress = input.progress;
    for (let runs = 1; ; runs++) {
      const run = await discovery.discoverPages({ crawlId: input.crawlId, options: input.options, ...(progress ? { progress } : {}) });
      // (A worker of before rendered discovery returns no `waiting`.)
      if (run?.waiting !== true) break;
      progress = run.progress;
      // A crawl whose scans take many hours: a fresh history rather than one that grows without end.
      if (workflowInfo().continueAsNewSuggested || runs >= MAX_RUNS_PER_HISTORY) {
        continuing = true;
        return await continueAsNew<typeof DiscoveryWorkflow>({ ...input, progress });
      }
    }
  } catch (err) {
    if (continuing) throw err;
    if (isCancellation(err)) throw err;
    // Pages found so far are still scanned; the crawl must not wait for ever, and it ends
    // completed_partial with this as its error.
    const cause = err instanceof ActivityFailure && err.cause ? err.cause.message : String(err);
    error = { code: 'discovery_failed', message: `discovery stopped after its retries: ${cause}` };
    log.error('discovery failed for good; scanning what was found', { crawlId: input.crawlId, error: cause });
  } finally {
    if (!continuing) await CancellationScope.nonCancellable(() => db.markDiscoveryDone({ crawlId: input.crawlId, error }));
  }
}
