import type { SearchAttributePair } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure, CancellationScope, isCancellation, ParentClosePolicy, patched, proxyActivities, startChild } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks/index.ts';
import { FAILURE_TYPES } from '../shared/contracts.ts';
import { webhookWorkflowId } from '../shared/search-attributes.ts';
import { webhookDeliveryQueue, type TaskQueues } from '../shared/task-queues.ts';
import { WEBHOOK_ATTEMPTS } from '../shared/webhook-delivery.ts';

export { WEBHOOK_ATTEMPTS };

export interface WebhookDeliveryInput {
  deliveryId: string;
  queues: TaskQueues;
}

/**
 * Deliveries on their own queue (`webhook-delivery`), each try deciding itself whether to retry
 * and when (see src/activities/webhooks): histories written before it replay the old way.
 */
export const WEBHOOK_DELIVERY_QUEUE_PATCH = 'webhook-delivery-queue';

/** Never reached in practice: the activity gives up after 24 hours on its own; this bounds a worker fleet that stopped. */
const DELIVERY_BACKSTOP = '26 hours';

const messageOf = (err: unknown) => (err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err));

/**
 * One webhook delivery (`webhook-<deliveryId>`), started by the crawl or scan that raised its event
 * and left to run on its own (the crawl ends without waiting). Its one activity, `deliverWebhook`
 * on `webhook-delivery`, is run again while its receiver is busy (WebhookReceiverBusy) or paused
 * (WebhookReceiverPaused), and after each failed attempt (WebhookDeliveryFailed, WebhookDnsFailed)
 * with back-off; the Web UI shows the pending activity's attempt count and its last failure, and
 * the delivery log has every attempt. It fails, visibly, when the delivery did: its address
 * refused (WebhookTargetForbidden), every attempt spent, or its time out (WebhookDeliveryExpired).
 */
export async function WebhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<{ status: number }> {
  if (!patched(WEBHOOK_DELIVERY_QUEUE_PATCH)) return legacyDelivery(input);
  const { deliverWebhook } = proxyActivities<WebhookActivities>({
    taskQueue: webhookDeliveryQueue(input.queues),
    startToCloseTimeout: '2 minutes', // the receiver lease's length (WEBHOOK_LEASE_MS): a dead worker's slot frees with it
    scheduleToCloseTimeout: DELIVERY_BACKSTOP,
    retry: {
      // Only for what the activity does not decide itself (a lost worker, a database outage): it
      // names the wait of every failure it raises (`nextRetryDelay`) and ends the delivery itself.
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '1 minute',
      nonRetryableErrorTypes: [
        FAILURE_TYPES.webhookForbidden,
        FAILURE_TYPES.webhookGone,
        FAILURE_TYPES.webhookSecretUnavailable,
        FAILURE_TYPES.webhookExpired,
      ],
    },
  });
  const { failWebhookDelivery } = proxyActivities<WebhookActivities>({
    taskQueue: input.queues.workflows,
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 30 },
  });
  try {
    return await deliverWebhook({ deliveryId: input.deliveryId });
  } catch (err) {
    // The activity ends its delivery row itself when it gives up (an ApplicationFailure); when it
    // was cut short instead (the backstop's timeout, a cancellation from the Web UI) the row must
    // not stay pending for ever.
    const endedByActivity = err instanceof ActivityFailure && err.cause instanceof ApplicationFailure;
    if (!endedByActivity) {
      const reason = isCancellation(err) ? 'cancelled' : `gave up: ${messageOf(err)}`;
      await CancellationScope.nonCancellable(() => failWebhookDelivery({ deliveryId: input.deliveryId, reason }));
    }
    if (isCancellation(err)) throw err;
    // The activity's failure as the cause: the Web UI shows why (its type) under the workflow's.
    throw ApplicationFailure.create({
      message: `webhook delivery ${input.deliveryId} not delivered: ${messageOf(err)}`,
      type: FAILURE_TYPES.webhookFailed,
      nonRetryable: true,
      cause: err instanceof Error ? err : undefined,
    });
  }
}

/** A delivery whose history began before deliveries had their own queue: on the workflows queue, bounded by Temporal's attempts. */
async function legacyDelivery(input: WebhookDeliveryInput): Promise<{ status: number }> {
  const { deliverWebhook } = proxyActivities<WebhookActivities>({
    taskQueue: input.queues.workflows,
    startToCloseTimeout: '1 minute',
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '10 minutes',
      maximumAttempts: WEBHOOK_ATTEMPTS,
      nonRetryableErrorTypes: [FAILURE_TYPES.webhookForbidden, FAILURE_TYPES.webhookGone],
    },
  });
  try {
    return await deliverWebhook({ deliveryId: input.deliveryId, maxAttempts: WEBHOOK_ATTEMPTS });
  } catch (err) {
    throw ApplicationFailure.nonRetryable(`webhook delivery ${input.deliveryId} not delivered: ${messageOf(err)}`, FAILURE_TYPES.webhookFailed);
  }
}

/**
 * Starts one delivery workflow per planned delivery and leaves them running: the caller (a crawl
 * or scan that just ended) does not wait for any receiver.
 */
export async function startWebhookDeliveries(deliveries: readonly string[], queues: TaskQueues, searchAttributes?: SearchAttributePair[]): Promise<void> {
  for (const deliveryId of deliveries) {
    await startChild(WebhookDeliveryWorkflow, {
      workflowId: webhookWorkflowId(deliveryId),
      taskQueue: queues.workflows,
      args: [{ deliveryId, queues }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      ...(searchAttributes ? { typedSearchAttributes: searchAttributes } : {}),
    });
  }
}
