import { ApplicationFailure, Context } from '@temporalio/activity';
import { saveScanPageInfo, saveScanResult, setScanStage, findScan } from '../../db/repositories/scan.repository.ts';
import type { Database } from '../../db/database.ts';
import { FAILURE_TYPES, type ScanPageResult } from '../../shared/contracts.ts';
import { pageScore } from '../../shared/score.ts';
import type { TargetPolicy } from '../../security/target-policy.ts';
import type { Logger } from '../../logger.ts';
import { fingerprint } from './axe-findings.ts';
import type { BrowserProvider } from './browser-provider.ts';
import { isBrowserGone } from './classify-navigation-error.ts';
import { scanUrl } from './scan-url.ts';

export interface BrowserActivityDeps {
  db: Database;
  browser: BrowserProvider;
  policy: TargetPolicy;
  pageLoadTimeoutMs: number;
  logger: Logger;
}

/** Heartbeats on a timer so cancellation reaches a scan that is busy inside the page. */
function startHeartbeat(details: () => unknown, everyMs = 2000): () => void {
  const ctx = Context.current();
  ctx.heartbeat(details());
  const timer = setInterval(() => ctx.heartbeat(details()), everyMs);
  return () => clearInterval(timer);
}

export function createBrowserActivities(deps: BrowserActivityDeps) {
  return {
    /**
     * Scans the page of one page_scans row and stores its findings. A page that cannot be loaded
     * is a result (`page-error`), not a failure: only a dead browser or database is retried.
     */
    async scanPage(input: { scanId: string; reportStages: boolean }): Promise<ScanPageResult> {
      const ctx = Context.current();
      const scan = await findScan(deps.db, input.scanId);
      if (!scan) throw ApplicationFailure.nonRetryable(`scan ${input.scanId} does not exist`, FAILURE_TYPES.scanNotFound);
      let stage = 'Starting';
      const stopHeartbeat = startHeartbeat(() => ({ stage }));
      try {
        const browser = await deps.browser.get();
        const result = await Promise.race([
          scanUrl(scan.url, {
            browser,
            policy: deps.policy,
            pageLoadTimeoutMs: deps.pageLoadTimeoutMs,
            signal: ctx.cancellationSignal,
            onStage: async (s) => {
              stage = s;
              ctx.heartbeat({ stage });
              if (input.reportStages) await setScanStage(deps.db, input.scanId, s);
            },
          }),
          ctx.cancelled,
        ]);
        if (result.kind === 'page-error') {
          await saveScanPageInfo(deps.db, input.scanId, { finalUrl: result.finalUrl, httpStatus: result.httpStatus });
          return { kind: 'page-error', error: result.error };
        }
        const pageUrl = scan.url;
        await saveScanResult(deps.db, input.scanId, {
          pageTitle: result.pageTitle,
          finalUrl: result.finalUrl,
          httpStatus: result.httpStatus,
          score: pageScore(result.findings),
          passes: result.passes,
          findings: result.findings.map((f) => ({
            rule_id: f.ruleId,
            type: f.type,
            severity: f.severity,
            wcag_criterion: f.wcagCriterion,
            wcag_level: f.wcagLevel,
            element_selector: f.elementSelector,
            element_html: f.elementHtml,
            engine_help: f.engineHelp,
            engine_description: f.engineDescription,
            failure_summary: f.failureSummary,
            help_url: f.helpUrl,
            // Engine texts until enrichment replaces them; they stay if enrichment fails.
            description: `${f.engineHelp}. ${f.engineDescription}.`.replace(/\.\./g, '.'),
            fix_suggestion: f.failureSummary || f.engineHelp,
            data: JSON.stringify({ ...f.data, ...(result.blocked.length ? { blockedRequests: result.blocked.length } : {}) }),
            fingerprint: fingerprint(pageUrl, f.ruleId, f.elementSelector),
          })),
        });
        deps.logger.info({ scanId: input.scanId, findings: result.findings.length }, 'page scanned');
        return { kind: 'scanned', findings: result.findings.length, pageTitle: result.pageTitle };
      } catch (err) {
        if (isBrowserGone(err) && !ctx.cancellationSignal.aborted) {
          await deps.browser.close();
          throw ApplicationFailure.retryable(`browser died while scanning: ${(err as Error).message}`, FAILURE_TYPES.browserCrashed);
        }
        throw err;
      } finally {
        stopHeartbeat();
      }
    },
  };
}

export type BrowserActivities = ReturnType<typeof createBrowserActivities>;
