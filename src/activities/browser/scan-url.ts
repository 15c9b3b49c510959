import AxeBuilder from '@axe-core/playwright';
import axeCore from 'axe-core';
import type { Browser, Page, Response } from 'playwright';
import type { PageError, ScanStage } from '../../shared/contracts.ts';
import { DESKTOP_VIEWPORT, MOBILE_VIEWPORT } from '../../shared/audit-setup.ts';
import { AXE_WCAG_TAGS } from '../../shared/wcag.ts';
import type { TargetPolicy } from '../../security/target-policy.ts';
import { findingsFromAxe, mergeFindings, passedRules, type AxeRuleResult, type FindingDraft, type PassedRule } from './axe-findings.ts';
import { classifyNavigationError } from './classify-navigation-error.ts';
import { customRulesSource } from './custom-rules.ts';
import { PROXY_ERROR_HEADER, startEgressProxy, type BlockedRequest, type EgressProxy } from './egress-proxy.ts';


/** axe with the service's own rules appended, built once per process. */
const AXE_WITH_CUSTOM_RULES = axeCore.source + customRulesSource('en');

export interface ScanUrlOptions {
  browser: Browser;
  policy: TargetPolicy;
  pageLoadTimeoutMs: number;
  /** Called as each stage starts, so callers can report progress and heartbeat. */
  onStage?: (stage: ScanStage) => Promise<void> | void;
  /** Aborting closes the browser context, which ends whatever the page is doing. */
  signal?: AbortSignal;
}

export type ScanUrlResult =
  | {
      kind: 'scanned';
      pageTitle: string | null;
      finalUrl: string;
      httpStatus: number | null;
      findings: FindingDraft[];
      passes: PassedRule[];
      blocked: BlockedRequest[];
    }
  | { kind: 'page-error'; error: PageError; finalUrl: string | null; httpStatus: number | null };

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

/** Loads one URL in a fresh context, runs axe and the custom checks, and returns the findings. */
export async function scanUrl(url: string, opts: ScanUrlOptions): Promise<ScanUrlResult> {
  // Unless private targets are allowed, every connection of the page goes through a vetting proxy.
  const proxy: EgressProxy | undefined = opts.policy.allowPrivate ? undefined : await startEgressProxy(opts.policy);
  const context = await opts.browser
    .newContext({
      viewport: DESKTOP_VIEWPORT,
      serviceWorkers: 'block',
      acceptDownloads: false,
      ...(proxy ? { proxy: { server: proxy.server } } : {}),
    })
    .catch(async (err) => {
      await proxy?.close();
      throw err;
    });
  const onAbort = () => void context.close().catch(() => {});
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const blocked: BlockedRequest[] = proxy?.blocked ?? [];
    await context.addInitScript(trackChanges);
    const page = await context.newPage();
    page.setDefaultTimeout(opts.pageLoadTimeoutMs);

    await opts.onStage?.('Loading');
    let response: Response | null;
    try {
      response = await page.goto(url, { waitUntil: 'load', timeout: opts.pageLoadTimeoutMs });
    } catch (err) {
      opts.signal?.throwIfAborted();
      // A tunnel the proxy refused or could not open: its own record says why.
      const viaProxy = proxy?.failures.at(-1);
      if (viaProxy && /ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY|ERR_EMPTY_RESPONSE|ERR_HTTP_RESPONSE_CODE_FAILURE/.test(String(err))) {
        return pageError(viaProxy.code, viaProxy.message, null, null);
      }
      return { kind: 'page-error', error: classifyNavigationError(err), finalUrl: null, httpStatus: null };
    }
    const finalUrl = page.url();
    const httpStatus = response?.status() ?? null;
    const proxyCode = await response?.headerValue(PROXY_ERROR_HEADER);
    if (proxyCode) {
      const f = proxy?.failures.at(-1);
      return pageError(f?.code ?? 'connection_failed', f?.message ?? `the scanner could not fetch ${finalUrl}`, finalUrl, null);
    }
    if (httpStatus !== null && httpStatus >= 400) {
      return pageError('http_error', `HTTP ${httpStatus} ${response?.statusText() ?? ''}`.trim(), finalUrl, httpStatus);
    }
    const contentType = (await response?.headerValue('content-type')) ?? 'text/html';
    if (!HTML_TYPES.test(contentType)) {
      return pageError('not_html', `content type ${contentType.split(';')[0]} is not HTML`, finalUrl, httpStatus);
    }
    await settle(page, Math.min(5000, opts.pageLoadTimeoutMs));
    const pageTitle = (await page.title().catch(() => '')).trim() || null;

    await opts.onStage?.('AxeChecks');
    // One pass of axe with the service's own rules registered (link purpose runs in it too).
    const desktop = await new AxeBuilder({ page, axeSource: AXE_WITH_CUSTOM_RULES }).withTags([...AXE_WCAG_TAGS]).analyze();

    await opts.onStage?.('CustomChecks');
    const custom = await runMobileTargetCheck(page);

    const findings = mergeFindings([
      ...findingsFromAxe(desktop.violations as AxeRuleResult[], 'confirmed'),
      ...custom.violations,
      ...findingsFromAxe(desktop.incomplete as AxeRuleResult[], 'needs_review'),
      ...custom.incomplete,
    ]);
    return {
      kind: 'scanned',
      pageTitle,
      finalUrl,
      httpStatus,
      findings,
      passes: passedRules(desktop.passes as AxeRuleResult[]),
      blocked,
    };
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    await context.close().catch(() => {});
    await proxy?.close();
  }
}

function pageError(code: PageError['code'], message: string, finalUrl: string | null, httpStatus: number | null): ScanUrlResult {
  return { kind: 'page-error', error: { code, message }, finalUrl, httpStatus };
}

/** Runs at document start in every page: remembers when the DOM or the resource list last changed. */
function trackChanges(): void {
  const w = window as unknown as { __a11yLastChange: number };
  w.__a11yLastChange = performance.now();
  const touch = () => (w.__a11yLastChange = performance.now());
  new MutationObserver(touch).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  try {
    new PerformanceObserver(touch).observe({ type: 'resource', buffered: false });
  } catch {
    // no resource timing: DOM changes alone decide
  }
}

/**
 * Waits after `load` until the page has been quiet (no DOM change, no new resource) for 250 ms,
 * within a cap, so content that scripts build after load is there when the checks run.
 */
async function settle(page: Page, capMs: number): Promise<void> {
  await page
    .evaluate(
      ({ quietMs, capMs }) =>
        new Promise<void>((resolve) => {
          const w = window as unknown as { __a11yLastChange?: number };
          const started = performance.now();
          const check = () => {
            const now = performance.now();
            if (now - (w.__a11yLastChange ?? 0) >= quietMs || now - started >= capMs) resolve();
            else setTimeout(check, 40);
          };
          check();
        }),
      { quietMs: 250, capMs },
    )
    .catch(() => {});
}

/**
 * The service's own target-size check at a phone's viewport, where layouts shrink and crowd
 * controls. axe is already in the page from the first pass, so only the one rule runs again.
 */
async function runMobileTargetCheck(page: Page): Promise<{ violations: FindingDraft[]; incomplete: FindingDraft[] }> {
  await page.setViewportSize(MOBILE_VIEWPORT);
  // A resize needs a new layout, not new network traffic: two animation frames suffice.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const results = await page.evaluate(
    () =>
      (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: unknown[]; incomplete: unknown[] }> } }).axe.run(document, {
        runOnly: { type: 'rule', values: ['target-size'] },
        resultTypes: ['violations', 'incomplete'],
      }),
  );
  const ruleIdFor = (id: string) => (id === 'target-size' ? 'target-size-mobile' : id);
  const data = { viewport: `${MOBILE_VIEWPORT.width}x${MOBILE_VIEWPORT.height}` };
  await page.setViewportSize(DESKTOP_VIEWPORT);
  return {
    violations: findingsFromAxe(results.violations as AxeRuleResult[], 'confirmed', { ruleIdFor, data }),
    incomplete: findingsFromAxe(results.incomplete as AxeRuleResult[], 'needs_review', { ruleIdFor, data }),
  };
}

