import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { addCrawlThrottledMs } from '../../db/repositories/host-pacing.repository.ts';
import { pacingHost, THROTTLE_ATTEMPTS, UNPACED, type HostPacer } from '../../shared/politeness.ts';
import type { Throttle } from '../../audit/session/page-session.ts';
import { crawlPageState, ensureCrawlPageScan, recordCrawlPageScan } from '../../db/repositories/crawl-page.repository.ts';
import { getPageUrl } from '../../db/repositories/page.repository.ts';
import { countFindings, findScan, flowRanAt, markFlowRan, saveScanPageInfo, saveScanResult, setScanStage } from '../../db/repositories/scan.repository.ts';
import type { Database } from '../../db/database.ts';
import { FAILURE_TYPES, type ScanPageResult, type ScanStage, type ViewportName } from '../../shared/contracts.ts';
import { DEFAULT_VIEWPORTS, isDesktopOnly, viewportKey, viewportSetup } from '../../shared/viewports.ts';
import { findCrawl } from '../../db/repositories/crawl.repository.ts';
import type { TargetPolicy } from '../../security/target-policy.ts';
import type { SecretsKey } from '../../security/secrets.ts';
import type { Logger } from '../../logger.ts';
import { scanRecord } from '../../audit/scan-record.ts';
import type { BrowserProvider } from '../../audit/session/browser-provider.ts';
import { isBrowserGone } from '../../audit/session/classify-navigation-error.ts';
import { DEFAULT_ENGINES, enginesForViewport, type ScanEngine } from '../../audit/engines/index.ts';
import { scanUrl, type ScanUrlOptions, type ScanUrlResult } from '../../audit/scan-url.ts';
import type { StateExplorationOptions } from '../../audit/states/explore.ts';
import { loadCrawlAuth } from '../site-auth-source.ts';
import { loadCrawlFlow } from '../site-flows-source.ts';
import { flowNameOf } from '../../shared/site-flows.ts';
import type { SiteAuthLoad } from '../../audit/session/site-login.ts';
import type { TabPool } from '../../audit/session/tab-pool.ts';
import { screenshotHook, screenshotsToStore, type ScreenshotSettings } from './screenshots.ts';
import { renderedHandOver } from './rendered-links.ts';
import { saveJudgementCandidates } from '../../db/repositories/judgement.repository.ts';
import { auditPage, FLOW_NOT_REPEATED } from '../../audit/page-audit.ts';
import { siteAuthVersion } from '../../db/repositories/page-reuse.repository.ts';
import { crawlAuditKey, reuseUnchangedPage, type ReuseOutcome } from './reuse.ts';
import { auditDocumentAt, DEFAULT_DOCUMENT_SETTINGS, type DocumentSettings } from './document.ts';
import { staticFetchAuth } from '../../discovery/discovery-auth.ts';
import { setupSecrets } from '../../shared/typed-values.ts';

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
  /** Pictures of findings (SCREENSHOTS*); unset: the defaults (on). */
  screenshots?: ScreenshotSettings;
  /** AI-assisted judgement is configured (a model): pages collect its candidates. Unset offline: nothing is collected. */
  judge?: { readonly model: string };
  /** Each host's pacing, shared with discovery and every worker (the tabs' loads honour it too); unset: none. */
  pacer?: HostPacer;
  /** The enricher that writes issue texts (part of a page's audit key, see page reuse). */
  enricher?: { readonly name: string };
  /** REUSE_MAX_AGE in ms: a page's audit is reused for at most this long; 0: never. Unset: 30 days. */
  reuseMaxAgeMs?: number;
  /** Linked documents' limits (DOCUMENT_*); unset: the defaults. */
  documents?: DocumentSettings;
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

/** Kept free of the activity's start-to-close timeout for storing the results. */
const ACTIVITY_MARGIN_MS = 20_000;
/** The page-scan activity's start-to-close timeout (src/workflows/activity-proxies.ts), where the context does not say. */
const DEFAULT_ACTIVITY_TIMEOUT_MS = 4 * 60_000;
/** A pause the site asked for that is waited out in the slot; a longer one hands the slot back (Temporal retries the page after it). */
const IN_SLOT_PAUSE_MS = 5_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
const hostOf = (url: string) => pacingHost(url) ?? 'the site';

/** Tried again after `waitMs` by the activity's retry policy (its UI shows the reason): a site that pushes back is not an error. */
function siteThrottled(message: string, waitMs: number): ApplicationFailure {
  return ApplicationFailure.create({ type: FAILURE_TYPES.siteThrottled, message, nonRetryable: false, nextRetryDelay: Math.max(100, Math.round(waitMs)) });
}

export function createPageScanActivities(deps: PageScanActivityDeps) {
  const pacer = deps.pacer ?? UNPACED;
  /**
   * Scans `url` for the page_scans row `scanId` and stores its findings. A page that cannot be
   * loaded is a result, not a failure: only a dead browser or database is retried.
   */
  async function scanAndStore(
    scanId: string,
    url: string,
    tabOwner: {
      owner: string;
      keep: boolean;
      auth?: () => Promise<SiteAuthLoad>;
      viewports?: readonly ViewportName[];
      crawlId?: string;
      collectLinks?: boolean;
      recordResources?: boolean;
      /** Discovery found a document (a PDF) at the URL: it is audited from the file, without the browser. */
      document?: boolean;
    },
    onStage?: (s: ScanStage) => Promise<void>,
    flow?: ScanUrlOptions['flow'],
  ): Promise<ScanUrlResult> {
    const ctx = Context.current();
    const viewports = tabOwner.viewports ?? DEFAULT_VIEWPORTS;
    // Desktop alone: findings carry no viewport, so issues keep the identities they always had.
    const tagged = !isDesktopOnly(viewports);
    // The later viewports share what the activity's own timeout leaves after the first.
    const budgetEnd = Date.now() + (ctx.info.startToCloseTimeoutMs || DEFAULT_ACTIVITY_TIMEOUT_MS) - ACTIVITY_MARGIN_MS;
    const startedAt = Date.now();
    const stages: string[] = [];
    let stage = 'Starting';
    const stopHeartbeat = startHeartbeat(() => ({ stage }));
    // A flow is run once per page: its end state is checked at the later viewports in the tab that
    // ran it, and an attempt that comes after its steps ran (a crashed tab) does not run them again.
    let flowRan = false;
    const runOnce = flow && {
      ...flow,
      onRan: async () => {
        flowRan = true;
        await flow.onRan?.();
      },
    };
    const laterViewports = flow
      ? viewports.slice(1).map((v) => ({ viewport: v, setup: viewportSetup(v), engines: enginesForViewport(deps.scanEngines ?? DEFAULT_ENGINES, v, viewports) }))
      : undefined;
    /** How long this page's loads waited for the site (its Crawl-delay, a pause it asked for). */
    let waitedMs = 0;
    const scanInTab = (viewport: ViewportName, deadlineMs: number | undefined) =>
      deps.tabs.use(
        tabOwner.owner,
        (tab) =>
          Promise.race([
            scanUrl(url, {
              tab,
              policy: deps.policy,
              pageLoadTimeoutMs: deps.pageLoadTimeoutMs,
              deadlineMs,
              signal: ctx.cancellationSignal,
              engines: enginesForViewport(deps.scanEngines ?? DEFAULT_ENGINES, viewport, viewports),
              flow: runOnce,
              laterViewports,
              // Pictures and links at the first viewport only (pictures pair with findings by rule and
              // element); none of a flow's end state, which may show the values it typed.
              screenshots: viewport === viewports[0] && !flow ? screenshotHook(deps.db, deps.screenshots, tabOwner.crawlId ?? null) : undefined,
              collectLinks: viewport === viewports[0] && tabOwner.collectLinks,
              states: deps.scanStates,
              // For the model, at the first viewport; not of a flow's end state (it may show what the flow typed).
              judgementCandidates: viewport === viewports[0] && !flow && deps.judge !== undefined,
              recordResources: tabOwner.recordResources === true,
              onStage: async (s) => {
                stages.push(`${s}@${Date.now() - startedAt}`);
                stage = tagged ? `${s} at ${viewportKey(viewport)}` : s;
                ctx.heartbeat({ stage });
                await onStage?.(s);
              },
            }),
            ctx.cancelled,
          ]).finally(() => void (waitedMs += tab.takeWaitedMs())),
        { keep: tabOwner.keep, auth: tabOwner.auth, viewport },
      );
    /** The waits for the site, added to the crawl's throttledMs. */
    async function noteWaited(): Promise<void> {
      const ms = waitedMs;
      waitedMs = 0;
      if (tabOwner.crawlId) await addCrawlThrottledMs(deps.db, tabOwner.crawlId, ms);
    }
    /**
     * The site answered 429 or 503 to the page or to what it needs to render. Every fetch to the
     * host pauses for the wait it asked for (its Retry-After, else a back-off), fewer of its pages
     * load at once, and this page is tried again after the wait by Temporal's own retry (shown in
     * its UI with this reason), never audited without what was refused. Out of tries, it is the
     * page's error: the site limited the crawl.
     */
    async function whenThrottled(r: Extract<ScanUrlResult, { kind: 'page-error' }>, throttle: Throttle): Promise<ScanUrlResult> {
      const attempt = ctx.info.attempt;
      const wait = await pacer.pushedBack(url, { attempt, ...(throttle.retryAfterMs !== undefined ? { retryAfterMs: throttle.retryAfterMs } : {}) });
      const asked = throttle.retryAfterMs !== undefined ? ` (Retry-After ${seconds(throttle.retryAfterMs)})` : '';
      if (attempt < THROTTLE_ATTEMPTS && !ctx.cancellationSignal.aborted) {
        waitedMs += wait;
        await noteWaited();
        throw siteThrottled(`${r.error.message}${asked}; try ${attempt} of ${THROTTLE_ATTEMPTS}, the page is loaded again in ${seconds(wait)}`, wait);
      }
      return { ...r, error: { code: 'rate_limited', message: `the site limited the crawl: ${r.error.message}${asked}, still after ${attempt} tries over the waits it asked for`.slice(0, 500) } };
    }
    try {
      // A site that asked everyone to pause (it answered 429 or 503 to another page): a short pause
      // is waited out here; a long one hands the slot back and the page comes again after it.
      const paused = await pacer.pausedFor(url);
      if (paused > IN_SLOT_PAUSE_MS) throw siteThrottled(`${hostOf(url)} asked the crawl to pause (it answered 429 or 503 to another page): this page waits ${seconds(paused)}`, paused);
      if (paused > 0) {
        await sleep(paused);
        waitedMs += paused;
      }
      const first = viewports[0] as ViewportName;
      const auditDocument = async () => {
        stage = 'Document';
        ctx.heartbeat({ stage });
        const settings = deps.documents ?? DEFAULT_DOCUMENT_SETTINGS;
        const screenshots = flow ? undefined : screenshotHook(deps.db, deps.screenshots, tabOwner.crawlId ?? null);
        // A site's headers, basic credentials and cookies go with the file's request, as with
        // discovery's; with a scripted login, the cookies of the crawl's logged-in session (its tab).
        const load = tabOwner.auth ? await tabOwner.auth() : undefined;
        if (load?.kind === 'unavailable') return { kind: 'page-error', error: { code: 'auth_required', message: load.message }, finalUrl: null, httpStatus: null } satisfies ScanUrlResult;
        const auth = load?.kind === 'auth' ? staticFetchAuth(load.auth) : undefined;
        const session =
          load?.kind === 'auth' && load.auth.setup.login
            ? (fresh: boolean) => deps.tabs.use(tabOwner.owner, (tab) => tab.sessionCookieHeader(url, { signal: ctx.cancellationSignal, fresh }), { keep: tabOwner.keep, auth: tabOwner.auth, viewport: first })
            : undefined;
        const secrets = load?.kind === 'auth' ? setupSecrets(load.auth.setup) : [];
        return auditDocumentAt(url, { policy: deps.policy, pacer, pageLoadTimeoutMs: deps.pageLoadTimeoutMs, settings, signal: ctx.cancellationSignal, screenshots, auth, session, secrets });
      };
      const audit = await auditPage(
        {
          viewports: viewports as readonly [ViewportName, ...ViewportName[]],
          tagged,
          flow: flow !== undefined,
          document: tabOwner.document === true,
          recordResources: tabOwner.recordResources === true,
          budgetEnd,
          ...(deps.scanDeadlineMs !== undefined ? { scanDeadlineMs: deps.scanDeadlineMs } : {}),
        },
        {
          scanInTab,
          auditDocument,
          flowRan: () => flowRan,
          signal: ctx.cancellationSignal,
          cancelled: () => ctx.cancelled,
          now: Date.now,
          logger: deps.logger,
          logFields: { scanId, url },
        },
      );
      const { checked, isDocument } = audit;
      let result = audit.result;
      if (result.kind === 'page-error' && result.throttle) result = await whenThrottled(result, result.throttle);
      await noteWaited();
      if (result.kind === 'page-error') {
        await saveScanPageInfo(deps.db, scanId, { finalUrl: result.finalUrl, httpStatus: result.httpStatus });
        return result;
      }
      await pacer.succeeded(url);
      deps.logger.debug({ scanId, url, ms: Date.now() - startedAt, engines: Object.fromEntries(result.engines.map((e) => [e.engine, e.ms])), stages }, 'page checked');
      const record = scanRecord({ url, result, checked, tagged });
      const { score, leftOut, unfinished, rows } = record;
      if (leftOut) deps.logger.warn({ scanId, url, kept: record.kept.length, leftOut: leftOut.total }, 'more findings than a page keeps; the rest are counted per rule');
      result.findings = record.kept;
      if (unfinished.length) deps.logger.warn({ scanId, url, unfinished }, 'some engines did not finish on the page; its results stand without theirs');
      await saveScanResult(deps.db, scanId, {
        issuesLeftOut: leftOut,
        pageTitle: result.pageTitle,
        finalUrl: result.finalUrl,
        httpStatus: result.httpStatus,
        score,
        passes: result.passes,
        findings: rows,
        screenshots: screenshotsToStore(result.screenshots, result.findings, rows, deps.screenshots, tabOwner.crawlId ?? null, tagged && !isDocument ? first : null),
        coverage: record.coverage,
      });
      if (result.candidates) await saveJudgementCandidates(deps.db, scanId, { ...result.candidates, viewport: tagged ? first : null });
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
      const viewports = (await findCrawl(deps.db, input.crawlId))?.viewports ?? DEFAULT_VIEWPORTS;
      // A flow's page: the flow runs (opened from the database here) and its end state is checked.
      const flowName = flowNameOf(page.url);
      const flow = flowName === undefined ? undefined : await loadCrawlFlow(deps.db, deps.secretsKey, input.crawlId, flowName, deps.pageLoadTimeoutMs);
      // An earlier attempt ran the flow's steps and then died (a worker or browser lost): what the
      // flow sends was sent; running it again would send it twice.
      const ranBefore = flow?.kind === 'flow' ? await flowRanAt(deps.db, row.id) : null;
      const result: ScanUrlResult =
        flow?.kind === 'error'
          ? { kind: 'page-error', error: flow.error, finalUrl: null, httpStatus: null }
          : ranBefore
            ? { kind: 'page-error', error: FLOW_NOT_REPEATED(`by attempt ${Context.current().info.attempt - 1} or earlier, at ${ranBefore.toISOString()}`), finalUrl: null, httpStatus: null }
            : await scanAndStore(
              row.id,
              page.url,
              // A flow's end state hands over no links: what it shows may hold the values it typed.
              { owner: `crawl:${input.crawlId}`, keep: true, auth, viewports, crawlId: input.crawlId, collectLinks: !flow, recordResources: !flow, document: page.mediaType !== null },
              undefined,
              flow && { ...flow.scan, onRan: () => markFlowRan(deps.db, row.id) },
            );
      // Rendered discovery: the page's links go to discovery, or the page itself goes (see rendered-links.ts).
      const rendered = await renderedHandOver(deps, { crawlId: input.crawlId, pageId: page.id, url: page.url, result });
      if ('notAPage' in rendered) return { kind: 'page-error', error: rendered.notAPage };
      // Page reuse: what the audit loaded and under which engines and settings, for a later crawl to
      // check. Written with the page's end, its links and what it keeps, in one transaction.
      const audit =
        result.kind === 'scanned' && !flow
          ? { resources: result.manifest ?? { usable: false as const, reason: 'not recorded' }, auditKey: crawlAuditKey(deps, viewports, await siteAuthVersion(deps.db, input.crawlId)) }
          : undefined;
      await recordCrawlPageScan(deps.db, {
        crawlId: input.crawlId,
        pageId: page.id,
        scanId: row.id,
        error: result.kind === 'scanned' ? null : result.error,
        facts: { ...rendered.handOver?.facts, ...(audit ? { audit } : {}) },
        ...(rendered.handOver ? { links: rendered.handOver.links } : {}),
      });
      if (result.kind === 'page-error') return { kind: 'page-error', error: result.error };
      // A flow's end state may show what it typed in its title: that stays out of the workflow's history.
      return { kind: 'scanned', findings: result.findings.length, pageTitle: flow ? null : result.pageTitle };
    },

    /**
     * Page reuse: before a crawl page is scanned, its last audit is carried over when nothing it
     * loaded changed (see reuse.ts); `{reused: false, reason}` leaves the page to `scanCrawlPage`.
     */
    async reuseUnchangedPage(input: { crawlId: string; pageId: string }): Promise<ReuseOutcome> {
      return reuseUnchangedPage(deps, input);
    },
  };
}

export type PageScanActivities = ReturnType<typeof createPageScanActivities>;
