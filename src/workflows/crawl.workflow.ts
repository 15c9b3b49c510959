import {
  allHandlersFinished,
  condition,
  defineUpdate,
  setHandler,
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  continueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  ParentClosePolicy,
  patched,
  sleep,
  startChild,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { OpenCrawlResult } from '../db/repositories/crawl.repository.ts';
import { type CrawlWorkflowInput, type CrawlWorkflowResult } from '../shared/contracts.ts';
import { crawlSearchAttributes, discoveryWorkflowId } from '../shared/search-attributes.ts';
import { CRAWL_UPDATES, type CrawlWorkflowType } from '../shared/workflow-types.ts';
import { DiscoveryWorkflow } from './discovery.workflow.ts';
import { startWebhookDeliveries } from './webhook.workflow.ts';
import { enrichmentActivities, pageScanActivities, persistenceActivities } from './activity-proxies.ts';

/** Sent with the start by the API: answers once the crawl's row is written, or why it was not. */
export const openCrawlUpdate = defineUpdate<OpenCrawlResult>(CRAWL_UPDATES.openCrawl);

/**
 * A run continues as new when the server suggests it (about 4,000 events by default) or, on a
 * server configured otherwise, past this many: with the pages still in flight drained, no run
 * gets near 10,240 events.
 */
const MAX_RUN_EVENTS = 8_000;

/**
 * The crawl's first page (the start page discovery registers first) is scanned alone for at
 * most this long before the others are claimed: beside two more pages (a site's largest pages are
 * often linked from its start page) it took several times as long on two cores, and it is the
 * page a person waits to see.
 */
const FIRST_PAGE_ALONE = '8 seconds';

/** How long a claim made with nothing in flight waits in the database for discovery's next page. */
const CLAIM_WAIT_MS = 2_000;

/**
 * One crawl: starts discovery as a child, scans pages as soon as they are discovered (page-scan,
 * then ai-enrichment), keeps at most `window` pages in flight (claimed in batches of about half a
 * window), continues as new when the history grows, and finalizes once (score and issue diff). The
 * frontier and every result live in PostgreSQL; the history holds ids and counts only.
 */
export async function CrawlWorkflow(started: CrawlWorkflowInput): Promise<CrawlWorkflowResult> {
  // A crawl started by a Temporal Schedule has no id yet: it gets one here (deterministically) and
  // the search attribute operators find it by.
  const crawlId = started.crawlId ?? uuid4();
  if (started.crawlId === undefined) upsertSearchAttributes(crawlSearchAttributes(started.siteId, crawlId));
  const input: CrawlWorkflowInput & { crawlId: string } = { ...started, crawlId };
  const { queues } = input;
  const state = input.state ?? { opened: false, discoveryStarted: false, run: 0 };
  const window = input.window ?? 12;
  const db = persistenceActivities(queues);
  const browser = pageScanActivities(queues);
  const ai = enrichmentActivities(queues, input.enrichment);

  /**
   * The crawl's row, once: a Schedule's start has none yet and this writes it; the API wrote it
   * before starting this workflow, and this finds it (openCrawl is idempotent). The `openCrawl`
   * update answers the same, for a client that starts the workflow with it.
   */
  let opening: Promise<OpenCrawlResult> | undefined;
  const crawlRow = { crawlId, siteId: input.siteId, maxPages: input.maxPages, ...(input.viewports ? { viewports: input.viewports } : {}), ...(input.reuse === false ? { reuse: false } : {}) };
  const openCrawl = () => (opening ??= db.openCrawl(crawlRow));
  if (!state.opened && !state.discoveryStarted) setHandler(openCrawlUpdate, () => openCrawl());

  /** Pages whose scan has not ended (the rest of `inflight` is being enriched): what the site's host carries now. */
  const scanning = new Set<string>();

  // Page reuse: a page whose last audit loaded nothing that changed carries that audit over
  // (reuseUnchangedPage) instead of opening a tab. (patched: runs under way when it shipped replay without it.)
  const reusing = patched('page-reuse') && input.reuse !== false;
  /** Claimed pages an earlier crawl audited with a usable record: only these are asked about reuse. */
  const reusable = new Set<string>();

  /** Reuse, else scan then enrich one page; never rejects, so one page cannot stop the crawl. */
  async function processPage(pageId: string): Promise<void> {
    scanning.add(pageId);
    try {
      if (reusing && reusable.delete(pageId)) {
        // Reuse is an optimisation: its failure leaves the page to be scanned, never failed.
        const reused = await browser.reuseUnchangedPage({ crawlId, pageId }).catch((err: unknown) => {
          if (isCancellation(err)) throw err;
          return undefined;
        });
        if (reused?.reused || (reused && 'ended' in reused && reused.ended)) return;
      }
      const scanned = await browser.scanCrawlPage({ crawlId, pageId });
      if (scanned.kind === 'page-error') return;
    } catch (err) {
      if (isCancellation(err)) return;
      const message = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
      await CancellationScope.nonCancellable(() => db.markPageScanFailed({ crawlId, pageId, message }));
      return;
    } finally {
      scanning.delete(pageId);
    }
    try {
      await ai.enrichCrawlPage({ crawlId, pageId });
    } catch (err) {
      if (isCancellation(err)) return;
      await CancellationScope.nonCancellable(() => db.markEnrichFailed({ crawlId, pageId }));
    }
  }

  const inflight = new Map<string, Promise<void>>();
  let cancellation: unknown;
  try {
    if (!state.opened && !state.discoveryStarted) {
      const opened = await openCrawl();
      if (!opened.opened) {
        await condition(allHandlersFinished); // the API's update gets its answer before the run ends
        return { crawlId, status: opened.reason };
      }
      state.opened = true;
    }
    if (!state.discoveryStarted) {
      const started = await db.markCrawlRunning({ crawlId });
      if (!started) return { crawlId, status: 'ended' };
      // The site's flows are pages of the crawl, registered before discovery counts its pages.
      // (patched: crawls already past this point when it shipped replay without it.)
      if (patched('register-flow-pages')) await db.registerFlowPages({ crawlId });
      await startChild(DiscoveryWorkflow, {
        workflowId: discoveryWorkflowId(crawlId),
        taskQueue: queues.workflows,
        args: [{ crawlId, queues, options: input.discovery }],
        parentClosePolicy: ParentClosePolicy.ABANDON, // it outlives a continue-as-new of this workflow
        typedSearchAttributes: crawlSearchAttributes(input.siteId, crawlId),
      });
      state.discoveryStarted = true;
    }

    let claims = 0;
    /** A page was claimed (in this run, or the crawl was already under way when it continued as new). */
    let started = state.run > 0;
    let idleMs = started ? 250 : 100;
    // Pages are claimed in batches: once half the window has drained, not after every page (each
    // claim is an activity and a workflow task). Half a window in flight still keeps every scan
    // slot busy. (patched: runs that claimed page by page replay as they ran.)
    const lowWater = patched('claim-in-batches') ? Math.floor(window / 2) : window - 1;
    /** The first page of a new crawl gets a head start: claimed alone, the next claim waits for its scan. (patched: runs under way replay without it.) */
    let firstAlone = !started && patched('first-page-alone');
    /** With nothing in flight, the claim waits for a page itself instead of the workflow sleeping between claims. (patched: as above.) */
    const claimWaits = patched('claim-waits');
    for (;;) {
      const info = workflowInfo();
      if (info.continueAsNewSuggested || info.historyLength > (input.maxRunEvents ?? MAX_RUN_EVENTS)) {
        await Promise.all(inflight.values());
        return await continueAsNew<typeof CrawlWorkflow>({ ...input, state: { opened: true, discoveryStarted: true, run: state.run + 1 } });
      }
      let claimed = 0;
      let claimWaited = false;
      let discoveryDone = false;
      let hostLimited = false;
      if (inflight.size <= lowWater) {
        const r = await db.claimPages({
          crawlId,
          claimKey: `${info.runId}:${claims++}`,
          limit: firstAlone ? 1 : window - inflight.size,
          scanning: scanning.size,
          // Nothing in flight: the claim waits in the database for discovery's next page.
          ...(claimWaits && inflight.size === 0 ? { waitMs: CLAIM_WAIT_MS } : {}),
        });
        claimed = r.pageIds.length;
        claimWaited = r.waited === true;
        discoveryDone = r.discoveryDone;
        hostLimited = r.hostLimited === true;
        for (const id of r.reusable ?? []) reusable.add(id);
        for (const pageId of r.pageIds) {
          inflight.set(pageId, processPage(pageId).finally(() => inflight.delete(pageId)));
        }
      }
      if (claimed === 0 && inflight.size === 0) {
        if (discoveryDone) break;
        // The claim already waited for a page: asked again at once (a workflow timer fires on whole seconds).
        if (claimWaited) continue;
        await sleep(idleMs);
        // Discovery may add a page any moment: looked for often until the first one came (discovery
        // registers the start page within a fetch or two), then at most once a second.
        idleMs = Math.min(Math.round(idleMs * (started ? 2 : 1.5)), started ? 1000 : 500);
        continue;
      }
      started = true;
      idleMs = 250;
      if (firstAlone) {
        firstAlone = false;
        await condition(() => scanning.size === 0, FIRST_PAGE_ALONE);
        continue;
      }
      if (inflight.size > lowWater) await Promise.race(inflight.values());
      // The site's host takes no more pages now: the next claim waits for one of ours to finish
      // (only claims that say so take this path, so earlier histories replay as they ran).
      else if (claimed === 0 && hostLimited) await Promise.race(inflight.values());
      else if (claimed === 0) await Promise.race([...inflight.values(), sleep(1000)]);
    }
  } catch (err) {
    if (isCancellation(err) && !state.opened && !state.discoveryStarted) {
      // Cancelled before its first step: the crawl still gets its row, ended `cancelled`.
      await CancellationScope.nonCancellable(async () => {
        const opened = await db.openCrawl(crawlRow);
        if (opened.opened) await db.finalizeCrawl({ crawlId, cancelled: true });
      });
      throw err;
    }
    if (isCancellation(err)) cancellation = err;
    else {
      // An activity that failed for good fails the crawl: still end its row, or the site would
      // answer 409 crawl_in_progress for ever. Anything else (continue-as-new is thrown too, and
      // a bug fails only the workflow task, which Temporal retries) passes through untouched.
      if (err instanceof ActivityFailure || err instanceof ApplicationFailure) {
        await CancellationScope.nonCancellable(() => db.finalizeCrawl({ crawlId, cancelled: false })).catch(() => {});
      }
      throw err;
    }
  }

  const cancelled = cancellation !== undefined;
  const result = await CancellationScope.nonCancellable(async () => {
    if (cancelled) {
      await getExternalWorkflowHandle(discoveryWorkflowId(crawlId))
        .cancel()
        .catch(() => {}); // already finished
      // "cancelled" once in-flight work has stopped: the scans see the cancellation through heartbeats.
      await Promise.all(inflight.values());
    }
    const finalized = await db.finalizeCrawl({ crawlId, cancelled });
    // The site's webhooks: each delivery runs as a workflow of its own that this one does not wait
    // for. (patched: crawls that ended before webhooks replay without them.)
    if (patched('webhooks')) {
      const { deliveries } = await db.planCrawlWebhooks({ crawlId });
      await startWebhookDeliveries(deliveries, queues, crawlSearchAttributes(input.siteId, crawlId));
    }
    return finalized;
  });
  // A cancelled crawl shows as Cancelled in the Temporal UI, after it was finalized.
  if (cancellation !== undefined) throw cancellation;
  return { crawlId, status: result.status };
}

// The signature the API starts it with (src/shared/workflow-types.ts).
const _crawlWorkflowType: CrawlWorkflowType = CrawlWorkflow;
