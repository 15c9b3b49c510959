import { ActivityCancellationType, proxyActivities } from '@temporalio/workflow';
import type { AiEnrichmentActivities } from '../activities/ai-enrichment/index.ts';
import type { PageScanActivities } from '../activities/page-scan/index.ts';
import type { PersistenceActivities } from '../activities/persistence/index.ts';
import type { WebhookActivities } from '../activities/webhooks/index.ts';
import { FAILURE_TYPES } from '../shared/contracts.ts';
import { THROTTLE_ATTEMPTS } from '../shared/politeness.ts';
import type { TaskQueues } from '../shared/task-queues.ts';

/** Short database activities on the workflows queue: retried patiently through a database outage. */
export function persistenceActivities(queues: TaskQueues) {
  return proxyActivities<PersistenceActivities & Pick<WebhookActivities, 'planCrawlWebhooks' | 'planScanWebhooks'>>({
    taskQueue: queues.workflows,
    startToCloseTimeout: '2 minutes',
    retry: {
      initialInterval: '1 second',
      maximumInterval: '30 seconds',
      maximumAttempts: 30,
      nonRetryableErrorTypes: [FAILURE_TYPES.scanNotFound, FAILURE_TYPES.crawlNotFound],
    },
  });
}

/**
 * Page scans on `page-scan`. They heartbeat, so a cancellation reaches them and a dead worker is
 * noticed within 30 s. A page that does not load is a result; only a dead browser or database
 * gets another try.
 */
export function pageScanActivities(queues: TaskQueues) {
  return proxyActivities<PageScanActivities>({
    taskQueue: queues.pageScan,
    startToCloseTimeout: '4 minutes',
    heartbeatTimeout: '30 seconds',
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    // Attempts are lost to the machine, not the page: a killed worker (seen by the heartbeat
    // timeout), a dead browser, a database restart; or to a site that pushed back (429, 503), whose
    // wait the activity names itself (`nextRetryDelay`, SiteThrottled) and which it stops retrying
    // after THROTTLE_ATTEMPTS tries, answering the page's error. A page's own trouble is a result
    // and never retried, and every attempt is bounded by the scan deadline, so these attempts cost
    // little and keep a page through repeated worker deaths (bench/chaos.bench.ts lost 2 of 300
    // pages at 3).
    retry: {
      initialInterval: '2 seconds',
      maximumInterval: '30 seconds',
      maximumAttempts: THROTTLE_ATTEMPTS + 2,
      nonRetryableErrorTypes: [FAILURE_TYPES.scanNotFound, FAILURE_TYPES.crawlNotFound],
    },
  });
}

/** Enrichment on `ai-enrichment`; its retry budget comes from the workflow input (tests shorten it). */
export function enrichmentActivities(queues: TaskQueues, retry?: { maximumAttempts: number; initialIntervalMs: number }) {
  return proxyActivities<AiEnrichmentActivities>({
    taskQueue: queues.enrichment,
    // A page of many uncached issue groups makes one model call each, one after another.
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: '60 seconds',
    retry: {
      initialInterval: `${retry?.initialIntervalMs ?? 2000} milliseconds`,
      maximumAttempts: retry?.maximumAttempts ?? 3,
      nonRetryableErrorTypes: [FAILURE_TYPES.scanNotFound],
    },
  });
}
