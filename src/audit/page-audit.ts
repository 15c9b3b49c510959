import type { PageError, ViewportName } from '../shared/contracts.ts';
import type { Logger } from '../logger.ts';
import { mergeManifests } from './reuse/manifest.ts';
import { DEFAULT_SCAN_DEADLINE_MS, type ScanUrlResult } from './scan-url.ts';
import { TabCrashedError } from './session/tab-pool.ts';

/**
 * One page's audit across its viewports: the first viewport (or the file, for a document), a
 * crashed tab tried once more, the later viewports within the time left, and what was really
 * checked. Storage, pacing and the queue's retries stay with the caller; the browser work comes in
 * through `PageAuditSteps`, so this is the same whatever runs it.
 */

export type Scanned = Extract<ScanUrlResult, { kind: 'scanned' }>;

/** A later viewport with less time than this left is not started. */
export const MIN_VIEWPORT_BUDGET_MS = 15_000;

/** A flow page whose steps ran in an attempt that did not finish: they are not run again. */
export const FLOW_NOT_REPEATED = (why: string): PageError => ({
  code: 'flow_failed',
  message: `the flow's steps ran, then the scan was interrupted (${why.slice(0, 200)}); they are not run again, which would send the flow's forms once more`,
});

export interface PageAuditPlan {
  /** The viewports in order; the first one's title, final URL and status are the page's. */
  viewports: readonly [ViewportName, ...ViewportName[]];
  /** More than the desktop alone: findings carry the viewport they were found at. */
  tagged: boolean;
  /** A flow's page: its steps run once, in the first viewport's tab, which checks the later viewports too. */
  flow: boolean;
  /** Discovery found a document (a PDF) at the URL: it is audited from the file, without the browser. */
  document: boolean;
  /** Record what each viewport's audit loaded, for page reuse. */
  recordResources: boolean;
  /** Clock time after which no later viewport is started (what the caller's own time limit leaves). */
  budgetEnd: number;
  /** One viewport's hard limit; unset: scanUrl's default. */
  scanDeadlineMs?: number;
}

export interface PageAuditSteps {
  /** The page at one viewport in the slot's tab; throws `TabCrashedError` when the renderer crashed. */
  scanInTab(viewport: ViewportName, deadlineMs: number | undefined): Promise<ScanUrlResult>;
  /** The URL audited as a document, from the file; undefined when it is not a document after all. */
  auditDocument(): Promise<ScanUrlResult | undefined>;
  /** Whether the flow's steps have run (sent what they send) in this attempt. */
  flowRan(): boolean;
  signal: AbortSignal;
  /** Settles (rejects) once `signal` is aborted: the caller's own cancellation. */
  cancelled(): Promise<unknown>;
  now(): number;
  logger: Logger;
  /** Fields every log line carries (the scan and the URL). */
  logFields: Record<string, unknown>;
}

export interface PageAudit {
  result: ScanUrlResult;
  /** What was really checked: only these viewports' and states' issues can be found fixed. */
  checked: { viewports: ViewportName[]; states: Set<string> };
  /** The URL was audited as a document. */
  isDocument: boolean;
}

/** One viewport's run, its findings marked with the viewport they were found at. */
function atViewport(r: Scanned, viewport: ViewportName): Scanned {
  return { ...r, findings: r.findings.map((f) => ({ ...f, viewport })) };
}

export async function auditPage(plan: PageAuditPlan, steps: PageAuditSteps): Promise<PageAudit> {
  const { viewports, tagged, flow } = plan;
  const [first, ...later] = viewports;

  /** The page at one viewport; a crashed renderer takes only its tab: the page gets one more try in a new one. */
  async function scanAt(viewport: ViewportName, deadlineMs: number | undefined): Promise<ScanUrlResult> {
    try {
      return await steps.scanInTab(viewport, deadlineMs);
    } catch (err) {
      if (!(err instanceof TabCrashedError) || steps.signal.aborted) throw err;
      if (steps.flowRan()) return { kind: 'page-error', error: FLOW_NOT_REPEATED(err.message), finalUrl: null, httpStatus: null };
      steps.logger.warn({ ...steps.logFields, viewport, error: err.message }, 'browser tab crashed; scanning the page again in a new tab');
      try {
        return await steps.scanInTab(viewport, deadlineMs);
      } catch (again) {
        if (!(again instanceof TabCrashedError)) throw again;
        return { kind: 'page-error', error: { code: 'browser_error', message: `the page crashed the browser tab twice (${again.message})` }, finalUrl: null, httpStatus: null };
      }
    }
  }

  // A document (a PDF) is audited from the file, once, whatever the viewports: straight away when
  // discovery saw one at the URL, or when the browser found that the URL is not a page.
  let result = (plan.document && !flow ? await steps.auditDocument() : undefined) ?? (await scanAt(first, plan.scanDeadlineMs));
  if (!plan.document && result.kind === 'page-error' && result.error.code === 'not_html' && !flow) result = (await steps.auditDocument()) ?? result;
  const isDocument = result.kind === 'scanned' && result.document !== undefined;
  if (result.kind === 'scanned' && tagged && !isDocument) result = atViewport(result, first);
  const checked = { viewports: [first], states: new Set(result.kind === 'scanned' ? result.statesChecked : []) };
  // What each viewport's audit loaded: the page is reusable only if all of it can be checked again.
  const manifests = [result.kind === 'scanned' ? result.manifest : undefined];
  if (result.kind === 'scanned' && result.laterViewports) {
    // A flow's end state, checked at the later viewports in the same run.
    for (const run of result.laterViewports) {
      checked.viewports.push(run.viewport);
      result.findings.push(...run.findings.map((f) => ({ ...f, viewport: run.viewport })));
      result.engines.push(...run.engines);
    }
  }
  // The page's title, final URL and status are the first viewport's; each later one adds its
  // own findings, merged within that viewport only (one barrier at two viewports is two issues).
  for (const viewport of result.kind === 'scanned' && !flow && !isDocument ? later : []) {
    // Cancelled meanwhile: the audit ends as cancelled rather than start the next viewport.
    if (steps.signal.aborted) await steps.cancelled();
    const left = plan.budgetEnd - steps.now();
    if (left < MIN_VIEWPORT_BUDGET_MS) {
      steps.logger.warn({ ...steps.logFields, viewport, leftMs: left }, 'no time left to check the page at this viewport; the viewports before it stand');
      continue;
    }
    const more = await scanAt(viewport, Math.min(plan.scanDeadlineMs ?? DEFAULT_SCAN_DEADLINE_MS, left));
    if (more.kind === 'page-error' && more.throttle) {
      // The site pushed back at this viewport: the page is tried again whole, later.
      result = more;
      break;
    }
    if (more.kind === 'page-error') {
      steps.logger.warn({ ...steps.logFields, viewport, error: more.error }, "the page could not be checked at this viewport; the other viewports' results stand");
      continue;
    }
    const done = result as Scanned;
    const seen = atViewport(more, viewport);
    checked.viewports.push(viewport);
    manifests.push(more.manifest);
    for (const target of more.statesChecked) checked.states.add(target);
    result = { ...done, findings: [...done.findings, ...seen.findings], engines: [...done.engines, ...seen.engines] };
  }
  // A viewport skipped for want of time leaves an audit that is not the whole page's.
  if (result.kind === 'scanned' && plan.recordResources) {
    // A document is audited once, whatever the viewports: its own manifest stands.
    result.manifest = checked.viewports.length === viewports.length || isDocument ? mergeManifests(manifests) : { usable: false, reason: 'not every viewport was checked' };
  }
  return { result, checked, isDocument };
}
