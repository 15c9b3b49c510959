import type { Browser, Page, Response } from 'playwright';
import type { PageError } from '../../shared/contracts.ts';
import { DESKTOP_VIEWPORT } from '../../shared/audit-setup.ts';
import type { TargetPolicy } from '../../security/target-policy.ts';
import { classifyNavigationError } from './classify-navigation-error.ts';
import { PROXY_ERROR_HEADER, startEgressProxy, type BlockedRequest, type EgressProxy } from './egress-proxy.ts';

export interface OpenPageOptions {
  browser: Browser;
  policy: TargetPolicy;
  pageLoadTimeoutMs: number;
  /** Aborting closes the browser context, which ends whatever the page is doing. */
  signal?: AbortSignal;
  /** Called once the context exists and navigation starts. */
  onLoading?: () => Promise<void> | void;
}

export type OpenPageResult =
  | { kind: 'loaded'; page: Page; finalUrl: string; httpStatus: number | null; pageTitle: string | null; blocked: BlockedRequest[] }
  | { kind: 'page-error'; error: PageError; finalUrl: string | null; httpStatus: number | null };

/** How long after DOMContentLoaded the scan waits for `load` (images, frames, scripts) before checking the page anyway. */
export const LOAD_WAIT_MS = 10_000;

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

/**
 * A browser context with one page, its egress proxy and its cancellation hook. `close()` is
 * always called by whoever opened it.
 */
export interface PageContext {
  load(url: string): Promise<OpenPageResult>;
  close(): Promise<void>;
}

export async function openPageContext(opts: OpenPageOptions): Promise<PageContext> {
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
  return {
    async load(url: string): Promise<OpenPageResult> {
      const blocked: BlockedRequest[] = proxy?.blocked ?? [];
      await context.addInitScript(trackChanges);
      const page = await context.newPage();
      page.setDefaultTimeout(opts.pageLoadTimeoutMs);
      // A page's dialogs (alert on load, confirm on unload) would block every later step.
      page.on('dialog', (d) => void d.dismiss().catch(() => {}));
      // Pop-ups the page opens are closed at once: only the page itself is checked. (Not every new
      // page of the context: axe opens one of its own to assemble frame results.)
      page.on('popup', (p) => void p.close().catch(() => {}));
      await opts.onLoading?.();
      // Held still from the first document's DOMContentLoaded on (see holdStill); set up before
      // navigating so that no refresh slips through between the two.
      const hold = await holdStill(page);
      page.once('domcontentloaded', hold.lock);
      let response: Response | null;
      try {
        // The document first: a sub-resource that never ends must not cost the page (see below).
        response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: opts.pageLoadTimeoutMs });
      } catch (err) {
        opts.signal?.throwIfAborted();
        const cut = proxy?.failures.find((f) => f.code === 'too_large');
        if (cut) return pageError('too_large', cut.message, null, null);
        // A tunnel the proxy refused or could not open: its own record says why.
        const viaProxy = proxy?.failures.at(-1);
        if (viaProxy && /ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY|ERR_EMPTY_RESPONSE|ERR_HTTP_RESPONSE_CODE_FAILURE/.test(String(err))) {
          return pageError(viaProxy.code, viaProxy.message, null, null);
        }
        return { kind: 'page-error', error: classifyNavigationError(err), finalUrl: null, httpStatus: null };
      }
      hold.lock();
      const finalUrl = page.url();
      const httpStatus = response?.status() ?? null;
      // The document alone went past the proxy's byte cap: no page a person reads is that big.
      const tooLarge = proxy?.failures.find((f) => f.code === 'too_large');
      if (tooLarge) return pageError('too_large', tooLarge.message, finalUrl, httpStatus);
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
      // Then `load` and a quiet spell, each within a bound: past them the page is checked as it is.
      await page.waitForLoadState('load', { timeout: Math.min(LOAD_WAIT_MS, opts.pageLoadTimeoutMs) }).catch(() => {});
      await settle(page, Math.min(5000, opts.pageLoadTimeoutMs));
      const pageTitle = (await page.title().catch(() => '')).trim() || null;
      return { kind: 'loaded', page, finalUrl: page.url() || finalUrl, httpStatus, pageTitle, blocked };
    },
    async close() {
      opts.signal?.removeEventListener('abort', onAbort);
      await context.close().catch(() => {});
      await proxy?.close();
    },
  };
}

/**
 * From the first document on, the page stays put: a meta refresh, a script redirect or a refresh
 * loop would pull the document out from under the checks. Only the main frame's document
 * requests are intercepted (CDP Fetch with a Document pattern), so sub-resources and the HTTP
 * cache are untouched, and frames still load.
 */
const released = new WeakMap<Page, { depth: number; opening: boolean }>();

/** Runs `fn` (an engine's own reload) with the page free to navigate. */
export async function withNavigation<T>(page: Page, fn: () => Promise<T>): Promise<T> {
  const state = released.get(page) ?? { depth: 0, opening: false };
  released.set(page, state);
  state.depth++;
  try {
    return await fn();
  } finally {
    state.depth--;
  }
}

async function holdStill(page: Page): Promise<{ lock: () => void }> {
  const state = { depth: 0, opening: true };
  released.set(page, state);
  const lock = () => void (state.opening = false);
  try {
    const cdp = await page.context().newCDPSession(page);
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const main = frameTree.frame.id;
    cdp.on('Fetch.requestPaused', (e) => {
      const block = e.frameId === main && e.resourceType === 'Document' && !state.opening && state.depth === 0;
      const sent = block ? cdp.send('Fetch.failRequest', { requestId: e.requestId, errorReason: 'Aborted' }) : cdp.send('Fetch.continueRequest', { requestId: e.requestId });
      void sent.catch(() => {});
    });
    await cdp.send('Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Request' }] });
  } catch {
    // Not Chromium, or the page is already gone: the scan goes on without the hold.
  }
  return { lock };
}

function pageError(code: PageError['code'], message: string, finalUrl: string | null, httpStatus: number | null): OpenPageResult {
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
