/** The spec's stage queues, one for workflows and short database activities, and one for webhook deliveries. */
export const TASK_QUEUE_NAMES = {
  workflows: 'a11y-workflows',
  discovery: 'crawl-discovery',
  pageScan: 'page-scan',
  enrichment: 'ai-enrichment',
  /** Webhook deliveries: slots of their own, so a slow receiver never holds the workflows queue's. */
  webhookDelivery: 'webhook-delivery',
} as const;

export type TaskQueues = { readonly [K in keyof typeof TASK_QUEUE_NAMES]: string };

/** A prefix lets several deployments (or test files) share one Temporal namespace. */
export function taskQueues(prefix = ''): TaskQueues {
  const p = prefix ? `${prefix}-` : '';
  return {
    workflows: p + TASK_QUEUE_NAMES.workflows,
    discovery: p + TASK_QUEUE_NAMES.discovery,
    pageScan: p + TASK_QUEUE_NAMES.pageScan,
    enrichment: p + TASK_QUEUE_NAMES.enrichment,
    webhookDelivery: p + TASK_QUEUE_NAMES.webhookDelivery,
  };
}

/**
 * The webhook-delivery queue of a workflow's `queues`. Inputs written before that queue existed (a
 * Temporal Schedule's stored arguments, a crawl that continued as new) lack it: it is then the one
 * beside their workflows queue, under the same prefix. Deterministic, so workflows may call it.
 */
export function webhookDeliveryQueue(queues: Pick<TaskQueues, 'workflows'> & Partial<TaskQueues>): string {
  if (queues.webhookDelivery) return queues.webhookDelivery;
  const { workflows } = queues;
  const prefix = workflows.endsWith(TASK_QUEUE_NAMES.workflows) ? workflows.slice(0, -TASK_QUEUE_NAMES.workflows.length) : `${workflows}-`;
  return prefix + TASK_QUEUE_NAMES.webhookDelivery;
}
