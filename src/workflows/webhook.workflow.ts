import type { SearchAttributePair } from '@temporalio/common';
import { ApplicationFailure, ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks/index.ts';
import { FAILURE_TYPES } from '../shared/contracts.ts';
import { webhookWorkflowId } from '../shared/search-attributes.ts';
import type { TaskQueues } from '../shared/task-queues.ts';

/** Attempts per delivery: 1 s, 2 s, 4 s … capped at 10 minutes apart, about 40 minutes in all. */
export const WEBHOOK_ATTEMPTS = 10;

export interface WebhookDeliveryInput {
  deliveryId: string;
  queues: TaskQueues;
}

/**
 * One webhook delivery (`webhook-<deliveryId>`), started by the crawl or scan that raised its event
 * and left to run on its own (the crawl ends without waiting). Its activity is retried with
 * back-off; each attempt's answer is in the Web UI and in the delivery log. It fails, visibly,
 * when every attempt did.
 */
export async function WebhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<{ status: number }> {
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
    const message = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    throw ApplicationFailure.nonRetryable(`webhook delivery ${input.deliveryId} not delivered: ${message}`, FAILURE_TYPES.webhookFailed);
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
