import type { Page } from 'playwright';
import { ensureInPage } from './in-page.ts';
import { LOAD_WAIT_MS } from './page-session.ts';
import { withNavigation } from './document-hold.ts';
import { requestHold } from './request-hold.ts';

/**
 * Runs `fn` (a check that operates the page) with the page's requests held (see PASSIVE), as they
 * are anyway once a tab's page has loaded; a page not opened by a tab is held here. Then, when
 * `putBack` answers an address, the page is put back as it loaded (see `putPageBack`). Failing to
 * come back in time, the check's result stands and the engines after it see whatever is there.
 */
export async function withRequestsHeld<T>(page: Page, fn: () => Promise<T>, putBack: () => string | null): Promise<T> {
  const hold = requestHold(page.context());
  const mine = await hold.hold();
  let back: string | null = null;
  try {
    const out = await fn();
    back = putBack();
    return out;
  } catch (err) {
    back = putBack();
    throw err;
  } finally {
    if (back) await putPageBack(page, back);
    if (mine) await hold.release();
  }
}

/**
 * Puts an operated page back as it loaded: its document is left for about:blank while requests
 * are still held (its timers die with it; one set by a click cannot send anything later), then it
 * is loaded again by its address, a GET, with the network open as for any load (a page a form led
 * to is never sent again). Never throws: a page that does not come back in time stays as it is.
 */
export async function putPageBack(page: Page, url: string): Promise<void> {
  await withNavigation(page, () => page.goto('about:blank', { timeout: 10_000 })).catch(() => {});
  await reloadPage(page, url).catch(() => {});
}

/**
 * Loads `url` in `page` again with the network open, as a visitor's load (a reload when the page
 * is still there, so a fragment route is loaded afresh too), and holds it again after if it was held.
 */
export async function reloadPage(page: Page, url: string, timeout = LOAD_WAIT_MS): Promise<void> {
  await requestHold(page.context()).open(async () => {
    await withNavigation(page, () => (page.url() === url ? page.reload({ waitUntil: 'load', timeout }) : page.goto(url, { waitUntil: 'load', timeout })));
    await ensureInPage(page);
  });
}
