import { ApplicationFailure, Context } from '@temporalio/activity';
import { crawlPageState, ensureCrawlPageScan, recordCrawlPageScan } from '../../db/repositories/crawl-page.repository.ts';
import { getPageUrl } from '../../db/repositories/page.repository.ts';
import { countFindings, findScan, saveScanPageInfo, saveScanResult, setScanStage } from '../../db/repositories/scan.repository.ts';
import type { Database } from '../../db/database.ts';
import { FAILURE_TYPES, type ScanPageResult, type ScanStage } from '../../shared/contracts.ts';
import { capFindings } from '../../shared/findings-cap.ts';
import { pageScore } from '../../shared/score.ts';
import type { TargetPolicy } from '../../security/target-policy.ts';
import type { SecretsKey } from '../../security/secrets.ts';
import type { Logger } from '../../logger.ts';
import { boundedSelector } from '../../shared/limits.ts';
import { fingerprint } from '../../audit/findings/findings.ts';
import { groupKey } from '../../audit/findings/group-key.ts';
import type { BrowserProvider } from '../../audit/session/browser-provider.ts';
import { isBrowserGone } from '../../audit/session/classify-navigation-error.ts';
import type { ScanEngine } from '../../audit/engines/index.ts';
import { scanUrl, type ScanUrlResult } from '../../audit/scan-url.ts';
import type { StateExplorationOptions } from '../../audit/states/explore.ts';
import { loadCrawlAuth } from '../site-auth-source.ts';
import type { SiteAuthLoad } from '../../audit/session/site-login.ts';
import { TabCrashedError, type TabPool } from '../../audit/session/tab-pool.ts';

export interface PageScanActivityDeps {
  db: Database;
  browser: BrowserProvider;
  /** The slots' tabs: one per slot and crawl (or single-page scan), reused from page to page. */
  tabs: TabPool;
  policy: TargetPolicy;
  pageLoadTimeoutMs: number;
  /** Hard limit of one page's scan (`SCAN_DEADLINE_MS`); unset: scanUrl's default. */
  scanDeadlineMs?: number;
  logger: Logger;
  /** The engines each page runs; the production set unless a test picks others. */
  scanEngines?: readonly ScanEngine[];
  /** Interaction states each page opens after its default state (SCAN_STATES_*); unset: none. */
  scanStates?: StateExplorationOptions;
  /** Opens sites' authentication set-ups (SECRETS_KEY); without it a site that has one fails its pages with `auth_required`. */
  secretsKey?: SecretsKey;
}

/**
 * Heartbeats on a timer so cancellation reaches a scan that is busy inside the page. The SDK
 * sends at most one heartbeat per 80% of the 30 s heartbeat timeout to the server anyway; 5 s
 * keeps a cancellation's delay short without waking the activity for nothing.
 */
function startHeartbeat(details: () => unknown, everyMs = 5000): () => void {
  const ctx = Context.current();
  ctx.heartbeat(details());
  const timer = setInterval(() => ctx.heartbeat(details()), everyMs);
  return () => clearInterval(timer);
}

export function createPageScanActivities(deps: PageScanActivityDeps) {
  /**
   * Scans `url` for the page_scans row `scanId` and stores its findings. A page that cannot be
   * loaded is a result, not a failure: only a dead browser or database is retried.
   */
  async function scanAndStore(
    scanId: string,
    url: string,
    tabOwner: { owner: string; keep: boolean; auth?: () => Promise<SiteAuthLoad> },
    onStage?: (s: ScanStage) => Promise<void>,
  ): Promise<ScanUrlResult> {
    const ctx = Context.current();
    let stage = 'Starting';
    const stopHeartbeat = startHeartbeat(() => ({ stage }));
    const scanInTab = () =>
      deps.tabs.use(
        tabOwner.owner,
        (tab) =>
          Promise.race([
            scanUrl(url, {
              tab,
              policy: deps.policy,
              pageLoadTimeoutMs: deps.pageLoadTimeoutMs,
              deadlineMs: deps.scanDeadlineMs,
              signal: ctx.cancellationSignal,
              engines: deps.scanEngines,
              states: deps.scanStates,
              onStage: async (s) => {
                stage = s;
                ctx.heartbeat({ stage });
                await onStage?.(s);
              },
            }),
            ctx.cancelled,
          ]),
        { keep: tabOwner.keep, auth: tabOwner.auth },
      );
    try {
      let result: ScanUrlResult;
      try {
        result = await scanInTab();
      } catch (err) {
        if (!(err instanceof TabCrashedError) || ctx.cancellationSignal.aborted) throw err;
        // A crashed renderer takes only its tab: the page gets one more try in a new one.
        deps.logger.warn({ scanId, url, error: err.message }, 'browser tab crashed; scanning the page again in a new tab');
        try {
          result = await scanInTab();
        } catch (again) {
          if (!(again instanceof TabCrashedError)) throw again;
          result = { kind: 'page-error', error: { code: 'browser_error', message: `the page crashed the browser tab twice (${again.message})` }, finalUrl: null, httpStatus: null };
        }
      }
      if (result.kind === 'page-error') {
        await saveScanPageInfo(deps.db, scanId, { finalUrl: result.finalUrl, httpStatus: result.httpStatus });
        return result;
      }
      // The score counts every finding; only the stored list is capped.
      const score = pageScore(result.findings);
      const { kept, leftOut } = capFindings(result.findings);
      if (leftOut) deps.logger.warn({ scanId, url, kept: kept.length, leftOut: leftOut.total }, 'more findings than a page keeps; the rest are counted per rule');
      result.findings = kept;
      await saveScanResult(deps.db, scanId, {
        issuesLeftOut: leftOut,
        pageTitle: result.pageTitle,
        finalUrl: result.finalUrl,
        httpStatus: result.httpStatus,
        score,
        passes: result.passes,
        findings: result.findings.map((found) => {
          // A selector is indexed and part of the issue's identity: the page decides its length.
          const f = { ...found, elementSelector: boundedSelector(found.elementSelector) };
          const context = { state: f.state ?? null, viewport: f.viewport ?? null };
          return {
            ...f,
            ...context,
            // Engine texts until enrichment replaces them; they stay if enrichment fails.
            description: `${f.engineHelp}. ${f.engineDescription}.`.replace(/\.\./g, '.'),
            fixSuggestion: f.failureSummary || f.engineHelp,
            data: { ...f.data, ...(result.blocked.length ? { blockedRequests: result.blocked.length } : {}) },
            fingerprint: fingerprint(url, f.ruleId, f.elementSelector, context),
            groupKey: groupKey(f.ruleId, f.elementSelector, f.elementHtml),
          };
        }),
      });
      return result;
    } catch (err) {
      if (isBrowserGone(err) && !ctx.cancellationSignal.aborted) {
        await deps.browser.close();
        throw ApplicationFailure.retryable(`browser died while scanning: ${(err as Error).message}`, FAILURE_TYPES.browserCrashed);
      }
      throw err;
    } finally {
      stopHeartbeat();
    }
  }

  return {
    /** The page of a single-page scan; reports each stage on the scan row as it starts. */
    async scanPage(input: { scanId: string; reportStages: boolean }): Promise<ScanPageResult> {
      const scan = await findScan(deps.db, input.scanId);
      if (!scan) throw ApplicationFailure.nonRetryable(`scan ${input.scanId} does not exist`, FAILURE_TYPES.scanNotFound);
      // A single-page scan has no next page: its tab is closed when it is done.
      const result = await scanAndStore(scan.id, scan.url, { owner: `scan:${scan.id}`, keep: false }, input.reportStages ? (s) => setScanStage(deps.db, scan.id, s) : undefined);
      if (result.kind === 'page-error') return { kind: 'page-error', error: result.error };
      deps.logger.info({ scanId: scan.id, findings: result.findings.length }, 'page scanned');
      return { kind: 'scanned', findings: result.findings.length, pageTitle: result.pageTitle };
    },

    /**
     * One page of a crawl: exactly one page_scans row per page per crawl, and the page's state and
     * the crawl's counters move once, however often this activity runs.
     */
    async scanCrawlPage(input: { crawlId: string; pageId: string }): Promise<ScanPageResult> {
      const state = await crawlPageState(deps.db, input.crawlId, input.pageId);
      if (state === undefined) throw ApplicationFailure.nonRetryable(`page ${input.pageId} is not part of crawl ${input.crawlId}`, FAILURE_TYPES.crawlNotFound);
      const page = await getPageUrl(deps.db, input.pageId);
      const row = await ensureCrawlPageScan(deps.db, { crawlId: input.crawlId, pageId: page.id, url: page.url });
      if (state !== 'dispatched' && state !== 'pending') {
        // Done by an earlier attempt that committed but did not report back.
        const scan = await findScan(deps.db, row.id);
        if (state === 'failed') return { kind: 'page-error', error: scan?.error ?? { code: 'browser_error', message: 'failed' } };
        return { kind: 'scanned', findings: await countFindings(deps.db, row.id), pageTitle: scan?.pageTitle ?? null };
      }
      // Read and opened only when the crawl's slot opens a new tab: the tab keeps it from then on.
      const auth = () => loadCrawlAuth(deps.db, deps.secretsKey, input.crawlId);
      const result = await scanAndStore(row.id, page.url, { owner: `crawl:${input.crawlId}`, keep: true, auth });
      await recordCrawlPageScan(deps.db, { crawlId: input.crawlId, pageId: page.id, scanId: row.id, error: result.kind === 'scanned' ? null : result.error });
      if (result.kind === 'page-error') return { kind: 'page-error', error: result.error };
      return { kind: 'scanned', findings: result.findings.length, pageTitle: result.pageTitle };
    },
  };
}

export type PageScanActivities = ReturnType<typeof createPageScanActivities>;
