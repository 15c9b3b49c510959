import type { CDPSession, Page, Request } from 'playwright';
import { onOrigin } from '../../shared/site-auth.ts';
import type { FetchSlot, HostPacer } from '../../shared/politeness.ts';

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

/** A site's pause longer than this is not waited out by a stylesheet or script: the page is tried again later instead. */
const MAX_RESOURCE_PAUSE_MS = 10_000;

export interface Hold {
  /** How long the main frame's documents waited for their host's fetch slot (see `OpenTabOptions.pacer`). */
  waitedMs: number;
  /** The tab is about to load `url`: requests to its origin wait out the pauses its site asks for. */
  follow: (url: string) => Promise<void>;
  /** From now on the main frame's document stays. */
  lock: () => void;
  /** The next navigation may go ahead (the tab is about to load another page). */
  release: () => void;
  /** The tab's DevTools session, kept for the tab's life (undefined where there is none). */
  cdp: CDPSession | undefined;
}

export async function holdStill(page: Page, siteHeaders?: { origin: string; headers: Record<string, string> }, pacer?: HostPacer): Promise<Hold> {
  const state = { depth: 0, opening: true };
  released.set(page, state);
  /** The page's documents that took their host's fetch slot and have no answer yet, by URL. */
  const inFlight = new Map<string, FetchSlot>();
  const settle = (req: Request) => {
    const slot = inFlight.get(req.url());
    if (!slot || !req.isNavigationRequest()) return;
    inFlight.delete(req.url());
    void slot.done();
  };
  const settleAll = () => {
    for (const slot of inFlight.values()) void slot.done();
    inFlight.clear();
  };
  if (pacer) {
    page.on('response', (r) => settle(r.request()));
    page.on('requestfailed', settle);
    page.on('close', settleAll);
  }
  // By the document's DOMContentLoaded its answer has come, whatever the events said.
  const hold: Hold = { waitedMs: 0, lock: () => void ((state.opening = false), settleAll()), release: () => void (state.opening = true), follow: async () => {}, cdp: undefined };
  let cdp: CDPSession | undefined;
  try {
    cdp = await page.context().newCDPSession(page);
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const main = frameTree.frame.id;
    const session = cdp;
    cdp.on('Fetch.requestPaused', (e) => {
      const block = e.frameId === main && e.resourceType === 'Document' && !state.opening && state.depth === 0;
      const headers = !block && siteHeaders && onOrigin(e.request.url, siteHeaders.origin) ? withHeaders(e.request.headers, siteHeaders.headers) : undefined;
      const sent = block
        ? session.send('Fetch.failRequest', { requestId: e.requestId, errorReason: 'Aborted' })
        : paceRequest(e.request.url, e.frameId === main && e.resourceType === 'Document').then((waited) => {
            hold.waitedMs += waited;
            return session.send('Fetch.continueRequest', { requestId: e.requestId, ...(headers ? { headers } : {}) });
          });
      void sent.catch(() => {});
    });
    /**
     * A document of the page itself (each redirect hop too) waits for its host's fetch slot, held
     * until its answer comes (`inFlight`); any other request to the site waits out a pause the
     * site asked for (it answered 429 or 503), so that a page's stylesheets and scripts do not run
     * into the same refusal.
     */
    const paceRequest = async (url: string, pageDocument: boolean): Promise<number> => {
      if (!pacer) return 0;
      if (pageDocument) {
        // A document asked for next means the one before got its answer (a redirect, say).
        settleAll();
        const slot = await pacer.before(url).catch(() => undefined);
        if (!slot) return 0;
        inFlight.set(url, slot);
        return slot.waitedMs;
      }
      const paused = Math.min(await pacer.pausedFor(url).catch(() => 0), MAX_RESOURCE_PAUSE_MS);
      if (paused > 0) await new Promise((resolve) => setTimeout(resolve, paused));
      return paused;
    };
    // The site's extra headers go to its own origin only: those requests pause here too (each
    // redirect hop again), and get the headers as they continue. Third parties never see them, and
    // unlike Playwright's routing this keeps the HTTP cache. With pacing, the requests to the
    // origin of the page being loaded pause here as well (`follow`).
    let followed: string | undefined;
    const enable = (origin: string | undefined) => {
      const patterns: Array<{ urlPattern?: string; resourceType?: 'Document'; requestStage: 'Request' }> = [{ resourceType: 'Document', requestStage: 'Request' }];
      for (const o of new Set([siteHeaders?.origin, origin])) if (o) patterns.push({ urlPattern: `${o}/*`, requestStage: 'Request' });
      return session.send('Fetch.enable', { patterns });
    };
    await enable(undefined);
    if (pacer) {
      hold.follow = async (url: string) => {
        const origin = originOf(url);
        if (!origin || origin === followed) return;
        followed = origin;
        await enable(origin).catch(() => {});
      };
    }
  } catch {
    // Not Chromium, or the page is already gone: the scan goes on without the hold.
  }
  hold.cdp = cdp;
  return hold;
}

/** The request's headers with the site's set on top (a header of the same name, in any case, is replaced). */
function withHeaders(current: Record<string, string>, extra: Record<string, string>): Array<{ name: string; value: string }> {
  const names = new Set(Object.keys(extra).map((n) => n.toLowerCase()));
  return [...Object.entries(current).filter(([n]) => !names.has(n.toLowerCase())), ...Object.entries(extra)].map(([name, value]) => ({ name, value }));
}

/** The URL's origin, undefined for an opaque one or a URL that does not parse. */
export function originOf(url: string): string | undefined {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? undefined : o;
  } catch {
    return undefined;
  }
}
