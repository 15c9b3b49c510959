/** The spec's stage queues plus one for workflows and short database activities. */
export const TASK_QUEUE_NAMES = {
  workflows: 'a11y-workflows',
  discovery: 'crawl-discovery',
  pageScan: 'page-scan',
  enrichment: 'ai-enrichment',
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
  };
}
