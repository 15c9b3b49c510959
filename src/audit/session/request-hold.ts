import type { BrowserContext, Page, Request, Route, WebSocketRoute } from 'playwright';

/** A pop-up's first document while the page is held: an empty page, served here, so the request never leaves. */
const EMPTY_POPUP = { status: 200, contentType: 'text/html', body: '<!doctype html><title></title>' };

/** A navigation of a window (the page, or a pop-up), not of a frame inside one; the page it is in, when known. */
function topLevel(r: Request): { top: boolean; page?: Page } {
  try {
    const frame = r.frame();
    return { top: frame.parentFrame() === null, page: frame.page() };
  } catch {
    return { top: true }; // a pop-up's first navigation comes before its frame exists
  }
}

/** How long turning routing on may take before a pending navigation is taken to be what blocks it. */
const ROUTE_STUCK_MS = 5_000;

/**
 * The one switch of a browser context's network: held or open. While held, a page may fetch only
 * GETs of what renders it (stylesheets, scripts, images, fonts, media, a fetch or XHR GET of the
 * content a menu shows, a frame's document). Everything else is refused in every page, frame,
 * worker and pop-up of the context: a fetch or XHR of any other method, a beacon or `<a ping>`
 * (POSTs), a form sent into any target, a navigation of the page itself, and a pop-up's first
 * request (even a GET: it is answered with an empty page here, and the tab closes the pop-up);
 * WebSocket messages from the page are dropped. So auditing a page never acts on the site: no
 * "mark all read", "delete" or "subscribe" reaches its server. (HTTP defines GET as safe; a site
 * whose GET changes data is beyond what any visitor's browser could avoid.)
 *
 * A tab is held from the moment its page has loaded until the scanner loads a page again (its
 * next page, a page put back after operating it, a login, a flow's steps: `open`). While held,
 * Playwright's routing is on (it turns Chromium's HTTP cache off); while open it is off, so loads
 * keep the cache.
 */
export class RequestHold {
  #held = false;
  readonly #context: BrowserContext;
  /** The tab's own page (the context's first): its navigations are refused; any other window is a pop-up. */
  own: Page | undefined;

  constructor(context: BrowserContext) {
    this.#context = context;
  }

  /**
   * GETs of what renders the page go through; the page's own navigations are refused (as
   * `aborted`, so no error page commits in its place); a pop-up's first document is answered
   * here with an empty page, so that it never reaches the server and the pop-up comes into being
   * and is closed by its tab; everything else is refused.
   */
  readonly #refuse = (route: Route): void => {
    const r = route.request();
    const nav = r.isNavigationRequest() ? topLevel(r) : { top: false };
    if (r.method() === 'GET' && !nav.top) {
      void route.continue().catch(() => {});
      return;
    }
    if (!nav.top) {
      void route.abort(r.isNavigationRequest() ? 'aborted' : 'blockedbyclient').catch(() => {});
      return;
    }
    const own = this.own ?? this.#context.pages()[0];
    if (nav.page && nav.page === own) void route.abort('aborted').catch(() => {});
    else void route.fulfill(EMPTY_POPUP).catch(() => {});
  };

  get held(): boolean {
    return this.#held;
  }

  /**
   * Holds the context's requests; answers whether this call did it (false: already held). Routing
   * cannot be turned on while a page's navigation is still pending (a server that never answers):
   * after a few seconds such a page is left for about:blank, which ends it.
   */
  async hold(): Promise<boolean> {
    if (this.#held) return false;
    this.#held = true;
    const routed = this.#context.route('**/*', this.#refuse);
    const stuck = await Promise.race([routed.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), ROUTE_STUCK_MS).unref())]);
    if (stuck) for (const page of this.#context.pages()) await page.goto('about:blank', { timeout: 10_000 }).catch(() => {});
    await routed;
    return true;
  }

  async release(): Promise<void> {
    if (!this.#held) return;
    this.#held = false;
    await this.#context.unroute('**/*', this.#refuse).catch(() => {});
  }

  /** Runs `fn` (a load the scanner makes, as a visitor would) with the network open, then holds it again if it was held. */
  async open<T>(fn: () => Promise<T>): Promise<T> {
    const was = this.#held;
    await this.release();
    try {
      return await fn();
    } finally {
      if (was) await this.hold().catch(() => {});
    }
  }

  /**
   * WebSockets of the context's pages go through the scanner from the start (a socket opened while
   * the page loaded is the one it sends on later): while held, what the page sends is dropped;
   * what the server sends always reaches the page.
   */
  async routeWebSockets(): Promise<void> {
    await this.#context.routeWebSocket(/.*/, (ws: WebSocketRoute) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        if (!this.#held) server.send(message);
      });
    });
  }
}

const holds = new WeakMap<BrowserContext, RequestHold>();

/** The context's hold (one per context: a tab is one context). */
export function requestHold(context: BrowserContext): RequestHold {
  let h = holds.get(context);
  if (!h) {
    h = new RequestHold(context);
    holds.set(context, h);
  }
  return h;
}
