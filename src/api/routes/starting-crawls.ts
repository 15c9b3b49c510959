import { WithStartWorkflowOperation, WorkflowNotFoundError } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { findCrawl, type OpenCrawlResult } from '../../db/repositories/crawl.repository.ts';
import type { CrawlRecord } from '../../db/repositories/records.ts';
import type { CrawlWorkflowInput } from '../../shared/contracts.ts';
import { CRAWL_ID, SITE_ID, crawlSearchAttributes, crawlWorkflowId } from '../../shared/search-attributes.ts';
import type { AppDeps } from '../env.ts';
import { startFailure } from './route-helpers.ts';

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
  const startWorkflowOperation = new WithStartWorkflowOperation('CrawlWorkflow', {
    workflowId,
    taskQueue: deps.queues.workflows,
    args: [input],
    workflowIdConflictPolicy: 'FAIL',
    typedSearchAttributes: crawlSearchAttributes(input.siteId, input.crawlId),
    memo: { hostname, maxPages: input.maxPages },
  });
  try {
    return await deps.temporal.connection.withDeadline(Date.now() + OPEN_WAIT_MS, () =>
      deps.temporal.workflow.executeUpdateWithStart<Workflow, OpenCrawlResult, []>('openCrawl', { startWorkflowOperation }),
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
  const memo = (await d.memo) as { maxPages?: number } | undefined;
  return {
    id: crawlId,
    siteId,
    status: 'queued',
    maxPages: memo?.maxPages ?? deps.config.maxCrawlPages,
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
  const query = `WorkflowType = 'CrawlWorkflow' AND ExecutionStatus = 'Running' AND siteId = '${siteId}'`;
  for await (const wf of deps.temporal.workflow.list({ query })) {
    const crawlId = wf.typedSearchAttributes.get(CRAWL_ID);
    if (crawlId && !(await findCrawl(deps.db, crawlId))) return crawlId;
  }
  return undefined;
}
