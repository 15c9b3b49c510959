import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Database } from '../../db/database.ts';
import { finishScan, findScan, listFindings, markScanRunning, purgeExpiredScans, setScanStage } from '../../db/repositories/scan.repository.ts';
import { findCrawl, isCrawlEnded, markCrawlRunning, openCrawl, purgeOldCrawlResults, setDiscoveryDone, type OpenCrawlResult } from '../../db/repositories/crawl.repository.ts';
import { claimPages, markCrawlPageEnrichFailed, markCrawlPageScanFailed, registerPage } from '../../db/repositories/crawl-page.repository.ts';
import { findCrawlSiteFlows } from '../../db/repositories/site-flows.repository.ts';
import { flowPagePath, flowPageUrl, type SiteFlowsSummary } from '../../shared/site-flows.ts';
import { finalizeCrawl, pagesForCrawlChecks } from '../../db/repositories/finalization.repository.ts';
import { FAILURE_TYPES, type PageError, type ScanStage, type ScanStatus, type ViewportName } from '../../shared/contracts.ts';
import type { Logger } from '../../logger.ts';
import type { HostPacer } from '../../shared/politeness.ts';
import { findSite } from '../../db/repositories/site.repository.ts';
import { pagesWithReusableScan } from '../../db/repositories/page-reuse.repository.ts';
import { engineSummary } from '../../enrichment/offline-enricher.ts';
import { sharedTitleFindings } from '../../audit/crawl-checks/shared-titles.ts';
import { multipleWaysFindings } from '../../audit/crawl-checks/multiple-ways.ts';
import type { ScanSummary } from '../../shared/summary.ts';

export interface PersistenceActivityDeps {
  db: Database;
  logger: Logger;
  /** Ended crawls per site whose page scans and findings are kept (CRAWLS_KEPT_PER_SITE; default 20). */
  crawlsKeptPerSite?: number;
  /** Each host's pacing: how many of its pages may be out being scanned at once. */
  pacer?: HostPacer;
  /** Days a single-page scan is kept after it ended (SCAN_RETENTION_DAYS; default 30); null: for ever. */
  scanRetentionDays?: number | null;
}

export const DEFAULT_CRAWLS_KEPT_PER_SITE = 20;
export const DEFAULT_SCAN_RETENTION_DAYS = 30;

/**
 * How often a waiting claim looks for a page discovery registered (soon at first, the start page
 * comes within a fetch or two; then at most 4 times a second), and the longest it waits.
 */
const CLAIM_POLL_MS = { first: 25, most: 250 };
const MAX_CLAIM_WAIT_MS = 5_000;

/**
 * One bounded retention run over single-page scans (see purgeExpiredScans), as a scan ends and as
 * a worker starts: each scan's end deletes up to a hundred that are due, so they cannot pile up
 * faster than they go. Answers how many it deleted.
 */
export async function purgeExpiredSingleScans(deps: Pick<PersistenceActivityDeps, 'db' | 'logger' | 'scanRetentionDays'>): Promise<number> {
  const days = deps.scanRetentionDays === undefined ? DEFAULT_SCAN_RETENTION_DAYS : deps.scanRetentionDays;
  if (days === null) return 0;
  const deleted = await purgeExpiredScans(deps.db, days);
  if (deleted) deps.logger.info({ scans: deleted, days }, 'single-page scans past their retention deleted');
  return deleted;
}

/** Short database writes that record a workflow's progress; they run on the workflows queue. */
export function createPersistenceActivities(deps: PersistenceActivityDeps) {
  return {
    async markScanRunning(input: { scanId: string }): Promise<{ url: string } | null> {
      const row = await markScanRunning(deps.db, input.scanId);
      if (row) return { url: row.url };
      const scan = await findScan(deps.db, input.scanId);
      if (!scan) throw ApplicationFailure.nonRetryable(`scan ${input.scanId} does not exist`, FAILURE_TYPES.scanNotFound);
      return null; // already ended (cancelled before it started)
    },

    async setScanStage(input: { scanId: string; stage: ScanStage }): Promise<void> {
      await setScanStage(deps.db, input.scanId, input.stage);
    },

    /** The crawl's first step: its row, unless the site already has a crawl under way (see openCrawl). */
    async openCrawl(input: { crawlId: string; siteId: string; maxPages: number; viewports?: ViewportName[]; reuse?: boolean }): Promise<OpenCrawlResult> {
      // The workflow that asks is the crawl's: `crawl-<id>`, or a Schedule's id for a scheduled crawl.
      const result = await openCrawl(deps.db, { ...input, workflowId: Context.current().info.workflowExecution?.workflowId });
      if (!result.opened) deps.logger.warn({ crawlId: input.crawlId, siteId: input.siteId, ...result }, 'crawl not opened');
      return result;
    },

    async markCrawlRunning(input: { crawlId: string }): Promise<boolean> {
      const crawl = await markCrawlRunning(deps.db, input.crawlId);
      if (crawl) return true;
      if (!(await findCrawl(deps.db, input.crawlId))) {
        throw ApplicationFailure.nonRetryable(`crawl ${input.crawlId} does not exist`, FAILURE_TYPES.crawlNotFound);
      }
      return false;
    },

    /**
     * One page per flow of the site (`<start>#flow:<name>`, discovered via `flow`), registered
     * before discovery starts, so they count in `totalPages` and against `maxPages` like any page;
     * at most `maxPages - 1` of them, so the home page keeps its place. Read from the flows'
     * summary (names and URLs, no value typed): this worker needs no SECRETS_KEY. Idempotent: a
     * page is registered once per crawl however often this runs.
     */
    async registerFlowPages(input: { crawlId: string }): Promise<{ flows: number; pages: number }> {
      const row = await findCrawlSiteFlows(deps.db, input.crawlId);
      if (!row) return { flows: 0, pages: 0 };
      const crawl = await findCrawl(deps.db, input.crawlId);
      if (!crawl) throw ApplicationFailure.nonRetryable(`crawl ${input.crawlId} does not exist`, FAILURE_TYPES.crawlNotFound);
      const flows = (row.summary as SiteFlowsSummary).flows;
      const taken = flows.slice(0, Math.max(0, crawl.maxPages - 1));
      for (const flow of taken) {
        const url = flowPageUrl(flow, row.baseUrl);
        await registerPage(deps.db, { crawlId: crawl.id, siteId: row.siteId, url, path: flowPagePath(url), depth: 0, via: 'flow', httpStatus: null });
      }
      if (taken.length < flows.length) {
        deps.logger.warn({ crawlId: crawl.id, flows: flows.length, registered: taken.length, maxPages: crawl.maxPages }, "more flows than the crawl's page limit leaves room for; the first ones are audited");
      }
      return { flows: flows.length, pages: taken.length };
    },

    /**
     * Pending pages for the crawl loop, plus whether discovery can still add more. No more pages
     * than the site's host takes at once are out being scanned (`hostLimited` says the host, not
     * the crawl's window, held the claim back: one page at a time while it asks for a Crawl-delay,
     * fewer while it pushes back). With `waitMs` (the crawl has nothing in flight), a claim that
     * finds no page while discovery goes on looks again (CLAIM_POLL_MS) for that long and says
     * it `waited`: the crawl gets its first page when discovery registers it, not at the workflow's
     * next timer (Temporal's timers fire on whole seconds here: a 100 ms sleep took about 1 s).
     */
    async claimPages(input: {
      crawlId: string;
      claimKey: string;
      limit: number;
      scanning?: number;
      waitMs?: number;
    }): Promise<{ pageIds: string[]; discoveryDone: boolean; hostLimited?: boolean; reusable?: string[]; waited?: boolean }> {
      const until = Date.now() + Math.min(input.waitMs ?? 0, MAX_CLAIM_WAIT_MS);
      let pollMs = CLAIM_POLL_MS.first;
      /** The crawl's site, read once (for its host's allowance): a waiting claim reads only what can change. */
      let site: Awaited<ReturnType<typeof findSite>> | undefined;
      for (;;) {
        // Read the flag first: if discovery was done before the claim, the claim saw all its pages.
        const crawl = await findCrawl(deps.db, input.crawlId);
        const discoveryDone = crawl?.discoveryDone ?? true;
        if (crawl && deps.pacer && input.scanning !== undefined) site ??= await findSite(deps.db, crawl.siteId);
        let limit = input.limit;
        // The workflow says how many of its pages are still being scanned (a retried claim, with the
        // same key, answers the pages it answered before whatever the count).
        if (site && deps.pacer) limit = Math.min(limit, Math.max(0, (await deps.pacer.allowance(site.baseUrl)) - (input.scanning ?? 0)));
        const pageIds = await claimPages(deps.db, input.crawlId, input.claimKey, limit);
        // Only while the crawl goes on (not one cancelled while this claim waited) and its host takes a page.
        const canWait = (input.waitMs ?? 0) > 0 && crawl !== undefined && !isCrawlEnded(crawl.status) && limit > 0;
        if (canWait && pageIds.length === 0 && !discoveryDone && Date.now() + pollMs < until) {
          await sleep(pollMs);
          pollMs = Math.min(pollMs * 2, CLAIM_POLL_MS.most);
          continue;
        }
        // Pages an earlier crawl audited with a usable record of what they loaded: reuse is tried for these only.
        const reusable = crawl?.reuse ? await pagesWithReusableScan(deps.db, input.crawlId, pageIds) : [];
        return {
          pageIds,
          discoveryDone,
          ...(limit < input.limit ? { hostLimited: true } : {}),
          ...(reusable.length ? { reusable } : {}),
          // Only a claim that could wait its whole time says so (the workflow then claims again without a timer).
          ...(canWait ? { waited: true } : {}),
        };
      }
    },

    /** Discovery is over; `error` (discovery failed for good) makes the crawl `completed_partial` at the end. */
    async markDiscoveryDone(input: { crawlId: string; error?: { code: string; message: string } }): Promise<void> {
      await setDiscoveryDone(deps.db, input.crawlId, input.error && { code: input.error.code, message: input.error.message.slice(0, 500) });
    },

    /** A page whose scan activity failed for good (browser crashes): counted as failed once. */
    async markPageScanFailed(input: { crawlId: string; pageId: string; message: string }): Promise<void> {
      const error: PageError = { code: 'browser_error', message: input.message.slice(0, 500) };
      await markCrawlPageScanFailed(deps.db, { crawlId: input.crawlId, pageId: input.pageId, error });
    },

    /** A page whose enrichment failed for good: engine texts stay, the crawl becomes partial. */
    async markEnrichFailed(input: { crawlId: string; pageId: string }): Promise<void> {
      await markCrawlPageEnrichFailed(deps.db, input);
    },

    async finalizeCrawl(input: { crawlId: string; cancelled: boolean }): Promise<{ status: string; newIssues: number | null; fixedIssues: number | null }> {
      // The crawl-level checks are judged here, outside the finalization's transaction, from the
      // crawl's scanned pages (every scan has ended by now); the transaction only stores them.
      let crawlLevelFindings: ReturnType<typeof sharedTitleFindings> = [];
      if (!input.cancelled) {
        const { pages, crawl } = await pagesForCrawlChecks(deps.db, input.crawlId);
        crawlLevelFindings = [sharedTitleFindings, multipleWaysFindings].flatMap((check) => check(pages, crawl));
      }
      const { crawl, alreadyEnded } = await finalizeCrawl(deps.db, input.crawlId, { cancelled: input.cancelled, crawlLevelFindings });
      if (!alreadyEnded) {
        deps.logger.info(
          {
            crawlId: crawl.id,
            status: crawl.status,
            pages: crawl.totalPages,
            scanned: crawl.scannedPages,
            newIssues: crawl.newIssues,
            fixedIssues: crawl.fixedIssues,
            enrichment: crawl.enrichment,
          },
          'crawl finished',
        );
      }
      // Idempotent: a retried finalization purges nothing twice.
      const purged = await purgeOldCrawlResults(deps.db, crawl.siteId, deps.crawlsKeptPerSite ?? DEFAULT_CRAWLS_KEPT_PER_SITE);
      if (purged.length) deps.logger.info({ siteId: crawl.siteId, crawls: purged }, "older crawls' page results deleted (retention)");
      return { status: crawl.status, newIssues: crawl.newIssues, fixedIssues: crawl.fixedIssues };
    },

    /** Ends the scan; a completed scan without an enriched summary gets the engine's own. */
    async finishScan(input: { scanId: string; status: ScanStatus; error?: PageError }): Promise<void> {
      const scan = await findScan(deps.db, input.scanId);
      if (!scan) return;
      let summary: ScanSummary | undefined;
      if ((input.status === 'completed' || input.status === 'completed_partial') && scan.summary == null) {
        summary = engineSummary(scan, await listFindings(deps.db, input.scanId));
      }
      const ended = await finishScan(deps.db, input.scanId, { status: input.status, error: input.error ?? null, summary });
      if (ended) deps.logger.info({ scanId: input.scanId, status: input.status, error: input.error }, 'scan finished');
      // Retention rides on the scan's end as the crawls' rides on finalization; idempotent, so a retry is harmless.
      await purgeExpiredSingleScans(deps);
    },
  };
}

export type PersistenceActivities = ReturnType<typeof createPersistenceActivities>;
