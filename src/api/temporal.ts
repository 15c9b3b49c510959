/**
 * Everything the API asks of Temporal's workflows, in one place: the crawl's input (built once for
 * a start through the API and for a Schedule's runs), starting the scan and crawl workflows by their
 * shared type names (src/shared/workflow-types.ts) with the crawl's `openCrawl` update, reading a
 * crawl that exists only as its workflow so far, and cancelling. Schedules are in schedules.ts.
 */
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { findCrawl, type OpenCrawlResult } from '../db/repositories/crawl.repository.ts';
import type { CrawlRecord } from '../db/repositories/records.ts';
import { DEFAULT_DISCOVERY_OPTIONS, type CrawlWorkflowInput, type ScanWorkflowInput, type ScheduledBy, type ViewportName } from '../shared/contracts.ts';
import { crawlViewports, storedViewports } from '../shared/viewports.ts';
import { CRAWL_ID, SITE_ID, crawlSearchAttributes, crawlWorkflowId, scanWorkflowId } from '../shared/search-attributes.ts';
import { CRAWL_UPDATES, WORKFLOW_TYPES, type CrawlWorkflowType, type ScanWorkflowType } from '../shared/workflow-types.ts';
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

/** How long the API waits for a worker to write the crawl's row before answering 202 anyway. */
const OPEN_WAIT_MS = 3000;

/**
 * Starts the crawl's workflow together with its `openCrawl` update (update-with-start), so the
 * crawl's row is written, or refused because the site has a crawl under way, before the answer:
 * PostgreSQL's one-active-crawl index decides, as it did when the API wrote the row. With no
 * worker to run the update within OPEN_WAIT_MS, the started workflow opens the crawl when one
 * comes (`undefined`: queued). A start that failed leaves nothing behind.
 */
export async function startCrawlWorkflow(deps: AppDeps, input: CrawlWorkflowInput & { crawlId: string }, hostname: string): Promise<OpenCrawlResult | undefined> {
  const workflowId = crawlWorkflowId(input.crawlId);
  const startWorkflowOperation = new WithStartWorkflowOperation<CrawlWorkflowType>(WORKFLOW_TYPES.crawl, {
    workflowId,
    taskQueue: deps.queues.workflows,
    args: [input],
    workflowIdConflictPolicy: 'FAIL',
    typedSearchAttributes: crawlSearchAttributes(input.siteId, input.crawlId),
    memo: { hostname, maxPages: input.maxPages, ...(input.viewports ? { viewports: input.viewports } : {}), ...(input.reuse === false ? { reuse: false } : {}) },
  });
  try {
    return await deps.temporal.connection.withDeadline(Date.now() + OPEN_WAIT_MS, () =>
      deps.temporal.workflow.executeUpdateWithStart<CrawlWorkflowType, OpenCrawlResult, []>(CRAWL_UPDATES.openCrawl, { startWorkflowOperation }),
    );
  } catch (err) {
    // The update did not finish in time; if the workflow started, it is queued for a worker.
    const started = await deps.temporal.workflow
      .getHandle(workflowId)
      .describe()
      .then((d) => d.status.name === 'RUNNING')
      .catch(() => false);
    if (started) return undefined;
    throw startFailure('crawl', err);
  }
}

/**
 * A crawl's workflow writes the crawl's row as its first step. Until then (a moment, or longer
 * while no worker runs) the crawl exists only in Temporal: these read it from there, so a client
 * can GET or cancel the crawl it was just given, and a second start is refused meanwhile.
 */

/** The crawl as its running, not yet opened workflow shows it: queued, nothing counted yet. */
export async function startingCrawl(deps: AppDeps, siteId: string, crawlId: string): Promise<CrawlRecord | undefined> {
  let d;
  try {
    d = await deps.temporal.workflow.getHandle(crawlWorkflowId(crawlId)).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
  if (d.status.name !== 'RUNNING' || d.typedSearchAttributes.get(SITE_ID) !== siteId) return undefined;
  // The row may have been written between the caller's read and this one.
  const row = await findCrawl(deps.db, crawlId);
  if (row) return row;
  const memo = (await d.memo) as { maxPages?: number; viewports?: unknown; reuse?: boolean } | undefined;
  return {
    id: crawlId,
    siteId,
    status: 'queued',
    maxPages: memo?.maxPages ?? deps.config.maxCrawlPages,
    viewports: crawlViewports(memo?.viewports ?? null),
    totalPages: 0,
    scannedPages: 0,
    enrichedPages: 0,
    failedPages: 0,
    enrichFailedPages: 0,
    overallScore: null,
    newIssues: null,
    fixedIssues: null,
    discoveryDone: false,
    brokenLinks: 0,
    skippedUrls: 0,
    throttledMs: 0,
    reuse: memo?.reuse !== false,
    pagesReused: 0,
    resultsDeletedAt: null,
    enrichment: { calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 },
    error: null,
    workflowId: crawlWorkflowId(crawlId),
    issueCounts: null,
    // Before its row exists; the row's own count starts at 1 (see the crawl's event stream).
    eventSeq: 0,
    createdAt: d.startTime,
    startedAt: null,
    completedAt: null,
  };
}

/** The id of a crawl of the site whose workflow runs but has not written its row yet. */
export async function unopenedCrawlOf(deps: AppDeps, siteId: string): Promise<string | undefined> {
  // siteId is a validated UUID, so it is safe inside the visibility query.
  const query = `WorkflowType = '${WORKFLOW_TYPES.crawl}' AND ExecutionStatus = 'Running' AND siteId = '${siteId}'`;
  for await (const wf of deps.temporal.workflow.list({ query })) {
    const crawlId = wf.typedSearchAttributes.get(CRAWL_ID);
    if (crawlId && !(await findCrawl(deps.db, crawlId))) return crawlId;
  }
  return undefined;
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
