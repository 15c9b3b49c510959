import type { Page, Route } from 'playwright';
import { ensureInPage } from './in-page.ts';
import { LOAD_WAIT_MS, withNavigation } from './page-session.ts';

/**
 * What a check may let a page fetch while it operates the page (presses keys, clicks, sends a form
 * empty): GETs of what only renders it. Every other request (a fetch or XHR, a beacon, a form's
 * POST, a GET of a document or an event stream) is refused, so operating a page never acts on the
 * site (no "delete", "subscribe" or "log out" reaches its server).
 */
const PASSIVE = new Set(['image', 'font', 'stylesheet', 'media', 'script', 'texttrack', 'manifest']);

function hold(route: Route): void {
  const r = route.request();
  if (r.method() === 'GET' && PASSIVE.has(r.resourceType())) {
    void route.continue().catch(() => {});
    return;
  }
  // A navigation refused as `aborted` commits no error page in its place.
  void route.abort(r.isNavigationRequest() ? 'aborted' : 'blockedbyclient').catch(() => {});
}

/**
 * Runs `fn` (a check that operates the page) with the page's requests held (see PASSIVE), in its
 * context (pop-ups too). Then, when `putBack` is given, the page is put back as it loaded before
 * the network opens again: its document is left for about:blank while requests are still held
 * (its timers die with it; one set by a click cannot send anything later), then it is loaded again
 * by its address, a GET (a page a form led to is never sent again). Failing to come back in time,
 * the check's result stands and the engines after it see whatever is there.
 */
export async function withRequestsHeld<T>(page: Page, fn: () => Promise<T>, putBack: () => string | null): Promise<T> {
  const context = page.context();
  await context.route('**/*', hold);
  let back: string | null = null;
  try {
    const out = await fn();
    back = putBack();
    return out;
  } catch (err) {
    back = putBack();
    throw err;
  } finally {
    if (back) await withNavigation(page, () => page.goto('about:blank', { timeout: 10_000 })).catch(() => {});
    await context.unroute('**/*', hold).catch(() => {});
    if (back) {
      const url = back;
      await withNavigation(page, () => page.goto(url, { waitUntil: 'load', timeout: LOAD_WAIT_MS }))
        .then(() => ensureInPage(page))
        .catch(() => {});
    }
  }
}
