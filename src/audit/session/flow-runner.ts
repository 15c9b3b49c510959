import type { Page, Response } from 'playwright';
import type { PageError } from '../../shared/contracts.ts';
import { boundedTitle } from '../../shared/limits.ts';
import { DEFAULT_FLOW_STEP_TIMEOUT_MS, type SiteFlow } from '../../shared/site-flows.ts';
import { LOAD_WAIT_MS } from './page-session.ts';
import { withNavigation } from './document-hold.ts';
import { settle } from './settle.ts';
import { describeStep, runStep, StepOffSiteError, timedOut } from './scripted-steps.ts';
import { requestHold } from './request-hold.ts';

/** Where a flow ended, for the engines to check; or why it did not get there (a page error `flow_failed`). */
export type FlowRunResult =
  | { kind: 'done'; end: { finalUrl: string; httpStatus: number | null; pageTitle: string | null } }
  | { kind: 'page-error'; error: PageError; finalUrl: string | null; httpStatus: number | null };

export interface RunFlowOptions {
  /** The site's host name: a step that types, picks or presses runs only on it, and a flow that leaves it fails. */
  host: string;
  /** Bounds the wait for the end state to load and settle (the tab's page-load timeout). */
  pageLoadTimeoutMs: number;
  signal?: AbortSignal;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
};

/**
 * Runs a site's flow in `page`, which already shows the flow's start (its first `goto`, else the
 * site's base URL, loaded by the tab with the site's login). A leading `goto` is that start and is
 * not run again. The page may navigate while the steps run (a form that is sent); afterwards it
 * waits for the end state to load and settle and is held still again for the checks. A step that
 * fails ends the flow with a message naming the step by number and what it acts on, never a value
 * it types or picks, nor Playwright's text.
 */
export async function runFlow(page: Page, flow: SiteFlow, opts: RunFlowOptions): Promise<FlowRunResult> {
  const timeout = flow.stepTimeoutMs ?? DEFAULT_FLOW_STEP_TIMEOUT_MS;
  let httpStatus: number | null = null;
  let navigations = 0;
  const onResponse = (r: Response) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) httpStatus = r.status();
  };
  const onNavigated = (f: unknown) => void (f === page.mainFrame() && navigations++);
  page.on('response', onResponse);
  page.on('framenavigated', onNavigated);
  const fail = (i: number, why: string): FlowRunResult => ({
    kind: 'page-error',
    error: { code: 'flow_failed', message: `flow "${flow.name}": ${describeStep(flow.steps[i]!, i, 'step')} ${why}` },
    finalUrl: page.isClosed() ? null : page.url(),
    httpStatus,
  });
  const elsewhere = () => `the page is on ${hostOf(page.url()) || page.url()}, not on the site (${opts.host})`;
  try {
    // A flow is the one thing that sends, by design: the network is open while its steps run and
    // its end state arrives; the tab holds it again before the checks.
    return await requestHold(page.context()).open(() => withNavigation(page, async (): Promise<FlowRunResult> => {
      const first = flow.steps[0]?.action === 'goto' ? 1 : 0;
      for (let i = first; i < flow.steps.length; i++) {
        opts.signal?.throwIfAborted();
        const step = flow.steps[i]!;
        if (step.action !== 'goto' && step.action !== 'waitFor' && hostOf(page.url()) !== opts.host) return fail(i, `was not run: ${elsewhere()}`);
        const statusBefore = httpStatus;
        try {
          await runStep(page, step, timeout, (url) => hostOf(url) === opts.host);
        } catch (err) {
          opts.signal?.throwIfAborted();
          if (err instanceof StepOffSiteError) return fail(i, `was not run: the element is in a page of ${err.at}, not on the site (${opts.host})`);
          // The browser went away: the activity retries. Playwright's own text is not passed on.
          if (page.isClosed()) throw new Error('Target page, context or browser has been closed during a flow');
          return fail(i, timedOut(err) ? `did not succeed within ${timeout} ms` : 'failed (its element or URL is not there, or it cannot take the action)');
        }
        if (step.action === 'goto' && httpStatus !== statusBefore && httpStatus !== null && httpStatus >= 400) return fail(i, `answered HTTP ${httpStatus}`);
        if (hostOf(page.url()) !== opts.host) return fail(i, `left the site: ${elsewhere()}`);
      }
      // The end state: a sent form's answer may still be arriving. A navigation during the wait
      // (a redirect after a POST) starts the wait again, a few times at most.
      const cap = Math.min(LOAD_WAIT_MS, opts.pageLoadTimeoutMs);
      for (let round = 0; round < 3; round++) {
        const before = navigations;
        await page.waitForLoadState('load', { timeout: cap }).catch(() => {});
        await settle(page, Math.min(5000, opts.pageLoadTimeoutMs));
        if (navigations === before) break;
      }
      if (hostOf(page.url()) !== opts.host) return fail(flow.steps.length - 1, `left the site: ${elsewhere()}`);
      const pageTitle = boundedTitle((await page.title().catch(() => '')).trim() || null);
      return { kind: 'done', end: { finalUrl: page.url(), httpStatus, pageTitle } };
    }));
  } finally {
    page.off('response', onResponse);
    page.off('framenavigated', onNavigated);
  }
}
