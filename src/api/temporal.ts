/**
 * Everything the API asks of Temporal's workflows, in one place: the crawl's input (built once for
 * a start through the API and for a Schedule's runs), starting the scan and crawl workflows by their
 * shared type names (src/shared/workflow-types.ts) once their rows are written, and cancelling.
 * Schedules are in schedules.ts.
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { DEFAULT_DISCOVERY_OPTIONS, type CrawlWorkflowInput, type ScanWorkflowInput, type ScheduledBy, type ViewportName } from '../shared/contracts.ts';
import { storedViewports } from '../shared/viewports.ts';
import { crawlSearchAttributes, crawlWorkflowId, scanWorkflowId } from '../shared/search-attributes.ts';
import { WORKFLOW_TYPES, type CrawlWorkflowType, type ScanWorkflowType } from '../shared/workflow-types.ts';
import type { AppDeps } from './env.ts';
import { ApiError, isTemporalUnreachable } from './errors.ts';

/** A crawl's workflow input: one crawl started through the API (`crawlId`), or every run of a Schedule (`scheduledBy`). */
type CrawlSettings = { siteId: string; maxPages: number; viewports?: readonly ViewportName[]; reuse?: boolean };
export function crawlWorkflowInput(deps: AppDeps, crawl: CrawlSettings & { crawlId: string }): CrawlWorkflowInput & { crawlId: string };
export function crawlWorkflowInput(deps: AppDeps, crawl: CrawlSettings & { scheduledBy: ScheduledBy }): CrawlWorkflowInput;
export function crawlWorkflowInput(deps: AppDeps, crawl: CrawlSettings & ({ crawlId: string } | { scheduledBy: ScheduledBy })): CrawlWorkflowInput {
  // Desktop only is what a crawl without viewports does: the input keeps the shape it always had.
  const viewports = storedViewports(crawl.viewports);
  return {
    ...('crawlId' in crawl ? { crawlId: crawl.crawlId } : {}),
    siteId: crawl.siteId,
    maxPages: crawl.maxPages,
    ...(viewports ? { viewports } : {}),
    queues: deps.queues,
    discovery: { ...DEFAULT_DISCOVERY_OPTIONS, ...deps.discoveryOptions },
    enrichment: deps.enrichmentRetry,
    ...('scheduledBy' in crawl ? { scheduledBy: crawl.scheduledBy } : {}),
    ...(crawl.reuse === false ? { reuse: false as const } : {}),
  };
}

/** Starts a single-page scan's workflow; when that fails, `rollback` removes what was written for it. */
export async function startScanWorkflow(deps: AppDeps, scan: { id: string; url: string }, rollback: () => Promise<void>): Promise<void> {
  const input: ScanWorkflowInput = { scanId: scan.id, queues: deps.queues, enrichment: deps.enrichmentRetry };
  await startWorkflowOrRollback(
    deps,
    'scan',
    () =>
      deps.temporal.workflow.start<ScanWorkflowType>(WORKFLOW_TYPES.scan, {
        workflowId: scanWorkflowId(scan.id),
        taskQueue: deps.queues.workflows,
        args: [input],
        memo: { url: scan.url },
      }),
    rollback,
  );
}

/** Cancels a workflow; false when it no longer exists (finished meanwhile, or lost with its server). */
export async function cancelWorkflow(deps: AppDeps, workflowId: string): Promise<boolean> {
  try {
    await deps.temporal.workflow.getHandle(workflowId).cancel();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/** Why the workflow of a scan or crawl that has not ended will not move it on any more, if so. */
export async function notRunning(deps: AppDeps, workflowId: string): Promise<string | undefined> {
  try {
    const d = await deps.temporal.workflow.getHandle(workflowId).describe();
    return d.status.name === 'RUNNING' ? undefined : d.status.name;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return 'NOT_FOUND';
    // Temporal out of reach says nothing about the workflow: ask again later.
    return undefined;
  }
}

/**
 * Starts a crawl's workflow; its row is written first (the API reads crawls from PostgreSQL only),
 * and when the start fails `rollback` removes it, so a failed start leaves nothing behind.
 */
export async function startCrawlWorkflow(deps: AppDeps, input: CrawlWorkflowInput & { crawlId: string }, hostname: string, rollback: () => Promise<void>): Promise<void> {
  await startWorkflowOrRollback(
    deps,
    'crawl',
    () =>
      deps.temporal.workflow.start<CrawlWorkflowType>(WORKFLOW_TYPES.crawl, {
        workflowId: crawlWorkflowId(input.crawlId),
        taskQueue: deps.queues.workflows,
        args: [input],
        workflowIdConflictPolicy: 'FAIL',
        typedSearchAttributes: crawlSearchAttributes(input.siteId, input.crawlId),
        memo: { hostname, maxPages: input.maxPages, ...(input.viewports ? { viewports: input.viewports } : {}), ...(input.reuse === false ? { reuse: false } : {}) },
      }),
    rollback,
  );
}

const START_DEADLINE_MS = 5000;

/** The answer for a workflow that could not be started: 409 if it exists, 503 if Temporal is out of reach, else 500. */
function startFailure(what: string, err: unknown): ApiError {
  if (err instanceof WorkflowExecutionAlreadyStartedError) {
    return new ApiError('already_started', `a workflow for this ${what} already exists; nothing new was started`, { cause: err });
  }
  if (isTemporalUnreachable(err)) {
    return new ApiError('service_unavailable', `the workflow service is unreachable; the ${what} was not started`, { cause: err });
  }
  return new ApiError('internal_error', `the workflow service refused to start the ${what}; nothing was written`, { cause: err });
}

/**
 * Starts a workflow within a bounded wait, so an unreachable Temporal is a quick 503 rather than a
 * hanging request; on failure the row written for it, if any, is removed, leaving nothing half-written.
 */
async function startWorkflowOrRollback(
  deps: AppDeps,
  what: string,
  start: () => Promise<unknown>,
  rollback?: () => Promise<void>,
): Promise<void> {
  try {
    await deps.temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, start);
  } catch (err) {
    await rollback?.().catch(() => {});
    throw startFailure(what, err);
  }
}
