import type { Browser, BrowserContext, Cookie, Page, Request, Response } from 'playwright';
import type { PageError } from '../../shared/contracts.ts';
import { DESKTOP_VIEWPORT } from '../../shared/audit-setup.ts';
import type { ViewportSetup } from '../../shared/viewports.ts';
import { boundedTitle } from '../../shared/limits.ts';
import type { TargetPolicy } from '../../security/target-policy.ts';
import { classifyNavigationError } from './classify-navigation-error.ts';
import { installAxeLoader } from './in-page.ts';
import { recordClickListeners } from '../states/click-listeners.ts';
import { recordOrientationLocks } from '../engines/reflow/orientation.ts';
import { requestHold } from './request-hold.ts';
import { holdStill, originOf } from './document-hold.ts';
import { settle, trackChanges } from './settle.ts';
import { setupSecrets } from '../../shared/typed-values.ts';
import { parseRetryAfter, THROTTLE_STATUSES, type HostPacer } from '../../shared/politeness.ts';
import { resourceRecorder, type ResourceRecording } from './resource-recorder.ts';
import { PROXY_ERROR_HEADER, startEgressProxy, type BlockedRequest, type EgressFailure, type EgressProxy } from './egress-proxy.ts';
import { configuredCookies, contextAuthOptions, isLoggedIn, refreshSessionCookies, runLogin, type LoginOutcome, type TabAuth } from './site-login.ts';

export interface OpenTabOptions {
  browser: Browser;
  policy: TargetPolicy;
  pageLoadTimeoutMs: number;
  /**
   * The site's authentication set-up: its headers, cookies and basic credentials go to the site's
   * origin only, and a scripted login runs before the tab's first page and again when a page fails
   * the logged-in check (the page is then loaded once more; still logged out, it is `auth_required`).
   */
  auth?: TabAuth;
  /**
   * The site has a set-up that this worker cannot open (no SECRETS_KEY, or another key sealed it):
   * every page is `auth_required` with this reason, never scanned logged out (as the login form).
   */
  authUnavailable?: string;
  /** How the context renders (size, touch, device pixel ratio); unset: the desktop window. */
  viewport?: ViewportSetup;
  /**
   * The hosts' pacing: every document the tab's page loads (a page, a redirect hop, a reload)
   * waits for its host's next fetch slot (robots.txt's Crawl-delay, a pause the site asked for).
   */
  pacer?: HostPacer;
}

/** The site answered 429 or 503 to the page or to something it needs to render: try again later. */
export interface Throttle {
  status: number;
  /** What was refused (the page, or a stylesheet, script or font of it). */
  url: string;
  /** The wait its `Retry-After` asked for. */
  retryAfterMs?: number;
}

export interface LoadOptions {
  /** Called once navigation starts. */
  onLoading?: () => Promise<void> | void;
  /** Aborted: the navigation's failure is not a result of the page. */
  signal?: AbortSignal;
}

export type OpenPageResult =
  | { kind: 'loaded'; page: Page; finalUrl: string; httpStatus: number | null; pageTitle: string | null; blocked: BlockedRequest[] }
  | { kind: 'page-error'; error: PageError; finalUrl: string | null; httpStatus: number | null; throttle?: Throttle };

/** What a page cannot be audited without: answered 429 or 503, it is loaded again later, never audited without it. */
const NEEDED_TO_RENDER: ReadonlySet<string> = new Set(['stylesheet', 'script', 'font']);

/** How long after DOMContentLoaded the scan waits for `load` (images, frames, scripts) before checking the page anyway. */
export const LOAD_WAIT_MS = 10_000;

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

/** How a page's own redirect (script, meta refresh) can fail after its document arrived: the place it sent the browser did not answer. */
const OWN_REDIRECT_FAILURES: ReadonlySet<string> = new Set(['connection_failed', 'forbidden_target', 'dns_error', 'connection_refused', 'tls_error']);

/** Storage a page can leave for the next one of the same origin; the HTTP cache is kept on purpose. */
const PAGE_STORAGE = 'cookies,local_storage,indexeddb,websql,file_systems,cache_storage,service_workers,shared_storage,storage_buckets';

/**
 * One scan slot's browser context with its one tab and its egress proxy, navigated from page to
 * page: starting a context and its renderer costs more than most pages' checks. A tab belongs to
 * one crawl or one single-page scan and is never handed to another (see tab-pool.ts); between two
 * pages it forgets what the previous one stored (cookies, local and session storage, IndexedDB,
 * caches), so that no page's result depends on which page came before. `close()` is always called
 * by whoever opened it.
 */
export interface Tab {
  load(url: string, opts?: LoadOptions): Promise<OpenPageResult>;
  /** Crashed, closed, or its browser is gone: no page can be loaded in it any more. */
  readonly broken: boolean;
  /** Whether the renderer crashed (a page to retry once in a new tab). */
  readonly crashed: boolean;
  /** Pages loaded so far. */
  readonly pages: number;
  readonly browser: Browser;
  /** The current document's JavaScript heap, in bytes (0 when it cannot be read). */
  heapBytes(): Promise<number>;
  /** Runs the site's scripted login now (discovery borrows the session this way). */
  login(signal?: AbortSignal): Promise<LoginOutcome>;
  /** The `Cookie` header the tab's context would send to `url`. */
  cookieHeader(url: string): Promise<string>;
  /**
   * The `Cookie` header of the tab's logged-in session for `url`: the site's scripted login runs
   * first when this tab has not run it yet, or again with `fresh` (a file fetched with the session
   * came back as the login form). A plain cookie header without a scripted login.
   */
  sessionCookieHeader(url: string, opts?: { signal?: AbortSignal; fresh?: boolean }): Promise<string>;
  /** What the site's login types and picks, and its set-up's other secrets: kept out of every result. */
  secrets(): readonly string[];
  /** How long the tab's document loads waited for their hosts' fetch slots since the last call (ms). */
  takeWaitedMs(): number;
  /** Starts recording every request of the tab (page reuse's manifest, see resource-recorder.ts) until `stop`. */
  recordResources(): ResourceRecording;
  close(): Promise<void>;
}

export async function openTab(opts: OpenTabOptions): Promise<Tab> {
  // Unless private targets are allowed, every connection of the page goes through a vetting proxy.
  const proxy: EgressProxy | undefined = opts.policy.allowPrivate ? undefined : await startEgressProxy(opts.policy);
  let context: BrowserContext | undefined;
  try {
    context = await opts.browser.newContext({
      ...contextViewport(opts.viewport),
      serviceWorkers: 'block',
      acceptDownloads: false,
      ...(proxy ? { proxy: { server: proxy.server } } : {}),
      ...contextAuthOptions(opts.auth),
    });
    if (opts.auth?.setup.cookies?.length) await context.addCookies(configuredCookies(opts.auth));
    await context.addInitScript(trackChanges);
    await context.addInitScript(recordOrientationLocks);
    await context.addInitScript(recordClickListeners);
    await installAxeLoader(context);
    await requestHold(context).routeWebSockets();
    const page = await context.newPage();
    requestHold(context).own = page;
    return await tabOf(opts, context, page, proxy);
  } catch (err) {
    await context?.close().catch(() => {});
    await proxy?.close();
    throw err;
  }
}

/** A context's viewport options: the desktop window as ever, or the crawl's other viewport (a phone: touch, isMobile, its pixel ratio). */
function contextViewport(v: ViewportSetup | undefined) {
  if (!v) return { viewport: DESKTOP_VIEWPORT };
  return { viewport: { width: v.width, height: v.height }, isMobile: v.isMobile, hasTouch: v.hasTouch, deviceScaleFactor: v.deviceScaleFactor };
}

async function tabOf(opts: OpenTabOptions, context: BrowserContext, page: Page, proxy: EgressProxy | undefined): Promise<Tab> {
  let pages = 0;
  let crashed = false;
  let closed = false;
  page.setDefaultTimeout(opts.pageLoadTimeoutMs);
  page.on('crash', () => void (crashed = true));
  page.on('close', () => void (closed = true));
  // A page's dialogs (alert on load, confirm on unload) would block every later step; leaving a
  // page for the next one must not be refused by its beforeunload handler.
  page.on('dialog', (d) => void (d.type() === 'beforeunload' ? d.accept() : d.dismiss()).catch(() => {}));
  // Pop-ups the page opens are closed at once: only the page itself is checked. (While the page
  // is held their first request never leaves: request-hold.ts answers it.) The tab is brought to
  // the front again: left behind a pop-up, its animation frames may stop, and a click then waits
  // for ever for its control to be stable.
  page.on('popup', (p) => void p.close().then(() => page.bringToFront()).catch(() => {}));
  const auth = opts.auth;
  const siteHeaders = auth?.setup.headers && Object.keys(auth.setup.headers).length ? { origin: auth.origin, headers: auth.setup.headers } : undefined;
  const hold = await holdStill(page, siteHeaders, opts.pacer);
  const recorder = resourceRecorder(context, page);
  /** The context's requests: open while the scanner loads a page (or logs in), held from then on until the next load. */
  const requests = requestHold(context);
  /** The cookies the last successful login left (the session), put back after each page's clean-up. */
  let session: Cookie[] = [];
  let loggedInOnce = false;
  /** When the last login failed: for a while after, a page that is logged out fails at once (a wrong password costs one wait, not one per page). */
  let loginFailedAt: number | undefined;
  let loginFailure = '';
  const LOGIN_RETRY_AFTER_MS = 60_000;

  async function login(signal?: AbortSignal): Promise<LoginOutcome> {
    if (!auth?.setup.login) return { ok: true };
    loggedInOnce = true;
    hold.release();
    // A login sends its form by design: the network is open while it runs.
    const out = await requests.open(() =>
      runLogin(page, auth, signal).finally(async () => {
        // Leave the login's last page (a submit may still be arriving) before the page to scan starts.
        if (!page.isClosed()) await page.goto('about:blank', { timeout: 10_000 }).catch(() => {});
      }),
    );
    if (out.ok) {
      session = await context.cookies();
      loginFailedAt = undefined;
    } else {
      loginFailedAt = Date.now();
      loginFailure = out.reason;
    }
    return out;
  }

  const cookieHeader = async (url: string): Promise<string> => (await context.cookies(url)).map((c) => `${c.name}=${c.value}`).join('; ');

  /** Leaves the previous page and forgets what it stored, so the next page starts as a first visit. */
  async function forgetPrevious(): Promise<void> {
    const origin = originOf(page.url());
    const cleared = page.evaluate(() => {
      try {
        sessionStorage.clear();
      } catch {
        // opaque origin or storage denied
      }
    }).catch(() => {});
    // Bounded: while the previous page's navigation is still pending (a server that never finished
    // its headers), evaluate waits for a document that may never come; going to about:blank ends it.
    await Promise.race([cleared, new Promise((resolve) => setTimeout(resolve, 1000))]);
    hold.release();
    await leaveForBlank(page);
    if (auth) session = await refreshSessionCookies(context, session);
    await context.clearCookies().catch(() => {});
    if (origin) await hold.cdp?.send('Storage.clearDataForOrigin', { origin, storageTypes: PAGE_STORAGE }).catch(() => {});
    // The site's own cookies and the login's session survive the clean-up; nothing else does.
    if (auth) await context.addCookies([...configuredCookies(auth), ...session]).catch(() => {});
  }

  /** ok, logged-out (the page is the login form or fails the logged-in check), or HTTP 401 with credentials set. */
  async function authVerdict(r: OpenPageResult): Promise<'ok' | 'logged-out' | 'unauthorized'> {
    if (r.kind === 'page-error') return r.error.code === 'http_error' && r.httpStatus === 401 ? 'unauthorized' : 'ok';
    return (await isLoggedIn(r.page, r.finalUrl, auth!.setup)) ? 'ok' : 'logged-out';
  }

  /**
   * One navigation, tried again once when the document asked for arrived (HTTP 2xx) but a
   * navigation the page started itself before it was held still failed (a script or meta-refresh
   * redirect to a host that does not answer or the policy refuses): a race lost to a refresh is
   * won the second time. Failing again, it is a clear page error, never Chromium's error page
   * checked as if it were the site's.
   */
  async function navigateOrStay(url: string, lopts: LoadOptions, again = true): Promise<OpenPageResult> {
    let firstDocument: number | undefined;
    /** A main-frame navigation the page itself started after its document arrived. */
    let leftOnItsOwn = false;
    const onRequest = (r: Request) => {
      try {
        if (firstDocument !== undefined && r.isNavigationRequest() && r.frame() === page.mainFrame()) leftOnItsOwn = true;
      } catch {
        // a service worker's request has no frame
      }
    };
    const onResponse = (r: Response) => {
      try {
        if (firstDocument === undefined && r.request().isNavigationRequest() && r.frame() === page.mainFrame() && !(r.status() >= 300 && r.status() < 400)) {
          firstDocument = r.status();
        }
      } catch {
        // a service worker's response has no frame
      }
    };
    page.on('response', onResponse);
    page.on('request', onRequest);
    const first = await navigate(url, lopts).finally(() => {
      page.off('response', onResponse);
      page.off('request', onRequest);
    });
    // Where the page's own navigation failed after its document arrived, Chromium shows its error
    // page (chrome-error://) in its place: that is not the page either.
    const wentAway = first.kind === 'loaded' ? !/^https?:/i.test(first.finalUrl) : OWN_REDIRECT_FAILURES.has(first.error.code);
    if (!wentAway || !leftOnItsOwn || firstDocument === undefined || firstDocument < 200 || firstDocument >= 300) return first;
    lopts.signal?.throwIfAborted();
    hold.release();
    await leaveForBlank(page);
    if (again) {
      proxy?.nextPage();
      return navigateOrStay(url, lopts, false);
    }
    const why = first.kind === 'page-error' ? ` (${first.error.message})` : '';
    return pageError('connection_failed', `the page loaded, then sent the browser on by a redirect of its own (a script or a meta refresh) to an address that could not be loaded${why}`.slice(0, 500), null, firstDocument);
  }

  /** One navigation to `url`, classified: loaded, or why not (data, not a failure). */
  async function navigate(url: string, lopts: LoadOptions): Promise<OpenPageResult> {
    // Held still from the first document's DOMContentLoaded on (see holdStill); set up before
    // navigating so that no refresh slips through between the two.
    hold.release();
    await hold.follow(url);
    page.once('domcontentloaded', hold.lock);
    let response: Response | null;
    const broken = documentBreaksOff(page);
    // What the page needs to render and the site refused for now (429, 503): the page is not audited without it.
    const refused: Throttle[] = [];
    const onResource = (r: Response) => {
      try {
        if (!THROTTLE_STATUSES.has(r.status()) || !NEEDED_TO_RENDER.has(r.request().resourceType())) return;
        refused.push({ status: r.status(), url: r.url(), ...retryAfterOf(r) });
      } catch {
        // a response of a page that is gone
      }
    };
    page.on('response', onResource);
    try {
      return await loadDocument();
    } finally {
      page.off('response', onResource);
    }

    async function loadDocument(): Promise<OpenPageResult> {
      try {
        // The document first: a sub-resource that never ends must not cost the page (see below).
        // Its host's Crawl-delay may hold the request back first: that wait is not the page's time.
        const going = page.goto(url, { waitUntil: 'domcontentloaded', timeout: opts.pageLoadTimeoutMs + (opts.pacer?.maxDelayMs ?? 0) });
        // Settles later (its timeout, or the next navigation) when the document broke off first.
        going.catch(() => {});
        response = await Promise.race([going, broken.failed]);
      } catch (err) {
        lopts.signal?.throwIfAborted();
        if (/page crashed|Target crashed/i.test(String(err))) crashed = true;
        if (crashed) throw err;
        const cut = proxy?.failures.find((f) => f.code === 'too_large');
        if (cut) return pageError('too_large', cut.message, null, null);
        // The proxy's record of the document's own request says what Chromium saw only as a cut
        // connection (a status or header the proxy would not pass on, a body that broke off).
        const doc = documentFailure(url) ?? documentFailure(page.url());
        if (doc) return pageError(doc.code, doc.message, null, null);
        // A tunnel the proxy refused or could not open: its own record says why.
        const viaProxy = proxy?.failures.at(-1);
        if (viaProxy && /ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY|ERR_EMPTY_RESPONSE|ERR_HTTP_RESPONSE_CODE_FAILURE/.test(String(err))) {
          return pageError(viaProxy.code, viaProxy.message, null, null);
        }
        return { kind: 'page-error', error: classifyNavigationError(err), finalUrl: null, httpStatus: null };
      } finally {
        broken.stop();
        page.off('domcontentloaded', hold.lock);
      }
      hold.lock();
      const finalUrl = page.url();
      const httpStatus = response?.status() ?? null;
      // The document alone went past the proxy's byte cap: no page a person reads is that big.
      const tooLarge = proxy?.failures.find((f) => f.code === 'too_large');
      if (tooLarge) return pageError('too_large', tooLarge.message, finalUrl, httpStatus);
      const proxyCode = await response?.headerValue(PROXY_ERROR_HEADER);
      if (proxyCode) {
        const f = documentFailure(finalUrl) ?? proxy?.failures.at(-1);
        return pageError(f?.code ?? 'connection_failed', f?.message ?? `the scanner could not fetch ${finalUrl}`, finalUrl, null);
      }
      // Chromium takes any three digits for a status; HTTP has 100-599 (the proxy refuses the rest itself).
      if (httpStatus !== null && (httpStatus < 100 || httpStatus > 599)) {
        return pageError('invalid_response', `the server answered with status ${httpStatus}, which HTTP does not have`, finalUrl, httpStatus);
      }
      if (httpStatus !== null && THROTTLE_STATUSES.has(httpStatus)) {
        const throttle: Throttle = { status: httpStatus, url: finalUrl, ...retryAfterOf(response!) };
        return pageError('rate_limited', `the site answered HTTP ${httpStatus} to the page: it asks the crawl to wait`, finalUrl, httpStatus, throttle);
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
      const needed = refused[0];
      if (needed) {
        // The longest wait any of them asked for.
        const asked = refused.flatMap((t) => (t.retryAfterMs === undefined ? [] : [t.retryAfterMs]));
        const throttle: Throttle = { status: needed.status, url: needed.url, ...(asked.length ? { retryAfterMs: Math.max(...asked) } : {}) };
        const what = refused.length === 1 ? 'a resource the page needs to render' : `${refused.length} resources the page needs to render`;
        const message = `the site answered HTTP ${needed.status} to ${what} (${needed.url.slice(0, 200)}): it asks the crawl to wait`;
        return pageError('rate_limited', message, page.url() || finalUrl, httpStatus, throttle);
      }
      // The page decides its title's length; it is stored and travels in Temporal payloads.
      const pageTitle = boundedTitle((await page.title().catch(() => '')).trim() || null);
      // The proxy's own list, still growing while the checks run: the caller copies it when done.
      return { kind: 'loaded', page, finalUrl: page.url() || finalUrl, httpStatus, pageTitle, blocked: proxy?.blocked ?? [] };
    }
  }

  /** A response's `Retry-After`, read. */
  function retryAfterOf(r: Response): { retryAfterMs?: number } {
    const ms = parseRetryAfter(r.headers()['retry-after']);
    return ms === undefined ? {} : { retryAfterMs: ms };
  }

  /** What the proxy recorded for the request of `url` itself (the last one), if it failed there. */
  function documentFailure(url: string): EgressFailure | undefined {
    const doc = withoutFragment(url);
    return proxy?.failures.findLast((f) => f.url !== undefined && withoutFragment(f.url) === doc);
  }

  return {
    get broken() {
      return crashed || closed || page.isClosed() || !opts.browser.isConnected();
    },
    get crashed() {
      return crashed;
    },
    get pages() {
      return pages;
    },
    browser: opts.browser,
    async heapBytes() {
      return page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0).catch(() => 0);
    },
    login,
    cookieHeader,
    async sessionCookieHeader(url: string, sopts: { signal?: AbortSignal; fresh?: boolean } = {}) {
      if (auth?.setup.login && !opts.authUnavailable && (!loggedInOnce || sopts.fresh)) await login(sopts.signal);
      return cookieHeader(url);
    },
    secrets() {
      return auth ? setupSecrets(auth.setup) : [];
    },
    takeWaitedMs() {
      const ms = hold.waitedMs;
      hold.waitedMs = 0;
      return ms;
    },
    recordResources() {
      return recorder.start();
    },
    async load(url: string, lopts: LoadOptions = {}): Promise<OpenPageResult> {
      if (opts.authUnavailable) return pageError('auth_required', opts.authUnavailable, null, null);
      // The previous page is left while its requests are still held (what it does on unload cannot
      // act on the site); the new one loads with the network open, as a visitor's would, and is
      // held from then on: whatever operates it afterwards (states, keys, forms, pictures) cannot
      // send anything but GETs of what renders it.
      if (pages > 0) await forgetPrevious();
      pages++;
      proxy?.nextPage();
      await lopts.onLoading?.();
      await requests.release();
      const result = await loadOpen(url, lopts);
      // A page that did not load is not operated; its navigation may still be pending, and
      // Playwright's routing cannot be turned on until that ends.
      if (result.kind === 'loaded') await requests.hold();
      return result;
    },
    async close() {
      closed = true;
      await context.close().catch(() => {});
      await proxy?.close();
    },
  };

  /** One page's load with the network open: logged in first where the site needs it. */
  async function loadOpen(url: string, lopts: LoadOptions): Promise<OpenPageResult> {
    if (!auth) return navigateOrStay(url, lopts);
    if (auth.setup.login && !loggedInOnce) await login(lopts.signal);
    const first = await navigateOrStay(url, lopts);
    const verdict = await authVerdict(first);
    if (verdict === 'ok') return first;
    // Logged out (the session expired, or a page ended it): log in again once and reload.
    if (verdict === 'logged-out' && auth.setup.login && (loginFailedAt === undefined || Date.now() - loginFailedAt > LOGIN_RETRY_AFTER_MS)) {
      const again = await login(lopts.signal);
      if (again.ok) {
        proxy?.nextPage();
        const second = await navigateOrStay(url, lopts);
        if ((await authVerdict(second)) === 'ok') return second;
      }
    }
    const why =
      verdict === 'unauthorized'
        ? 'HTTP 401: the site did not accept the credentials of its authentication set-up'
        : loginFailedAt !== undefined
          ? `the login failed: ${loginFailure}`
          : 'the page still showed the login form after logging in again';
    return pageError('auth_required', `the page needs a login the scanner does not have (${why})`, first.finalUrl, first.httpStatus);
  }
}

/**
 * Takes the tab to about:blank and leaves no navigation pending. A navigation that failed commits
 * Chromium's error page a moment after its goto rejected; landing during this goto, it makes
 * Playwright report the goto as interrupted while Chromium still commits about:blank later, in the
 * middle of the next page's navigation (which then fails as interrupted, or is held still as if
 * it were a refresh). So an interrupted goto is waited for rather than trusted.
 */
async function leaveForBlank(page: Page): Promise<void> {
  const arrived = await page.goto('about:blank', { timeout: 10_000 }).then(
    () => true,
    () => false,
  );
  if (arrived) return;
  await page.waitForURL('about:blank', { timeout: 3_000 }).catch(() => {});
  if (page.url() !== 'about:blank') await page.goto('about:blank', { timeout: 10_000 }).catch(() => {});
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

/** How a document fails after its headers arrived: its body broke off, or is not what its framing or encoding says. */
const BODY_FAILURES = /ERR_CONTENT_LENGTH_MISMATCH|ERR_INCOMPLETE_CHUNKED_ENCODING|ERR_INVALID_CHUNKED_ENCODING|ERR_CONTENT_DECODING_FAILED|ERR_CONNECTION_RESET|ERR_CONNECTION_CLOSED/;

/**
 * Rejects when the main frame's document request fails mid-body. Chromium then keeps the
 * committed document loading for ever (DOMContentLoaded never comes), so the navigation would
 * only end at its timeout; this ends it at once, with the network error.
 */
function documentBreaksOff(page: Page): { failed: Promise<never>; stop: () => void } {
  let stop = () => {};
  const failed = new Promise<never>((_resolve, reject) => {
    const onFailed = (request: Request) => {
      const error = request.failure()?.errorText ?? '';
      if (!BODY_FAILURES.test(error) || !request.isNavigationRequest()) return;
      try {
        if (request.frame() !== page.mainFrame()) return;
      } catch {
        return; // a service worker's request has no frame
      }
      reject(new Error(`${error} at ${request.url()}`));
    };
    page.on('requestfailed', onFailed);
    stop = () => void page.off('requestfailed', onFailed);
  });
  return { failed, stop };
}


function pageError(code: PageError['code'], message: string, finalUrl: string | null, httpStatus: number | null, throttle?: Throttle): OpenPageResult {
  return { kind: 'page-error', error: { code, message }, finalUrl, httpStatus, ...(throttle ? { throttle } : {}) };
}
