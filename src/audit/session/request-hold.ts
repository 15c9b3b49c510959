import type { BrowserContext, Request, Route, WebSocketRoute } from 'playwright';

/**
 * What a page may fetch while the scanner operates it (presses keys, clicks, opens states, sends a
 * form empty, takes pictures): GETs of what renders it (stylesheets, scripts, images, fonts, media,
 * a fetch or XHR GET of content a menu shows, a frame's document). Everything else is refused in
 * every page, frame, worker and pop-up of the tab's context: a fetch or XHR of any other method, a
 * beacon or `<a ping>` (POSTs), a form sent into any target, a navigation of the page itself, and
 * a pop-up's first request (even a GET: the pop-up is closed by the browser provider); WebSocket
 * messages from the page are dropped. So auditing a page never acts on the site: no "mark all
 * read", "delete" or "subscribe" reaches its server. (HTTP defines GET as safe; a site whose GET
 * changes data is beyond what any visitor's browser could avoid.)
 */
function refuse(route: Route): void {
  const r = route.request();
  if (r.method() === 'GET' && !(r.isNavigationRequest() && isTopLevel(r))) {
    void route.continue().catch(() => {});
    return;
  }
  // A navigation refused as `aborted` commits no error page in its place.
  void route.abort(r.isNavigationRequest() ? 'aborted' : 'blockedbyclient').catch(() => {});
}

/** A navigation of a window (the page, or a pop-up whose frame is not known yet), not of a frame inside one. */
function isTopLevel(r: Request): boolean {
  try {
    return r.frame().parentFrame() === null;
  } catch {
    return true; // a pop-up's first navigation comes before its frame exists
  }
}

/**
 * The one switch of a browser context's network: held (see PASSIVE) or open. A tab is held from
 * the moment its page has loaded until the scanner loads a page again (its next page, a page put
 * back after operating it, a login, a flow's steps: `open`). While held, Playwright's routing is
 * on (it turns Chromium's HTTP cache off); while open it is off, so loads keep the cache.
 */
/** How long turning routing on may take before a pending navigation is taken to be what blocks it. */
const ROUTE_STUCK_MS = 5_000;

export class RequestHold {
  #held = false;
  readonly #context: BrowserContext;

  constructor(context: BrowserContext) {
    this.#context = context;
  }

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
    const routed = this.#context.route('**/*', refuse);
    const stuck = await Promise.race([routed.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), ROUTE_STUCK_MS).unref())]);
    if (stuck) for (const page of this.#context.pages()) await page.goto('about:blank', { timeout: 10_000 }).catch(() => {});
    await routed;
    return true;
  }

  async release(): Promise<void> {
    if (!this.#held) return;
    this.#held = false;
    await this.#context.unroute('**/*', refuse).catch(() => {});
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
