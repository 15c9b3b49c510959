import type { Page } from 'playwright';

/**
 * The quiet spell after `load` and after the page's last DOM change that tells a page has finished
 * building itself (see settle): a timer a load handler sets for less than this is waited for.
 */
export const QUIET_MS = 250;

/** The quiet spell after the last resource (an image, a font) arrived (see settle). */
export const RESOURCE_QUIET_MS = 50;

/**
 * Runs at document start in every page: remembers when the DOM or the resource list last changed,
 * when `load` fired, and how many fetch/XHR requests the page has in flight.
 */
export function trackChanges(): void {
  const w = window as unknown as { __a11yLastChange: number; __a11yLastResource: number; __a11yLoadAt?: number; __a11yBusy: () => boolean };
  w.__a11yLastChange = w.__a11yLastResource = performance.now();
  const touch = () => (w.__a11yLastChange = performance.now());
  new MutationObserver(touch).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  try {
    // A resource that arrives (a late background image, the favicon) is not a script at work.
    new PerformanceObserver(() => (w.__a11yLastResource = performance.now())).observe({ type: 'resource', buffered: false });
  } catch {
    // no resource timing: DOM changes alone decide
  }
  addEventListener('load', () => (w.__a11yLoadAt = performance.now()), { once: true });
  // Content a script builds after load mostly waits for a request: the ones in flight, by start
  // time. One running longer than 2 s (a long poll, a stream) is background, not content.
  const inFlight = new Set<number>();
  let next = 0;
  const start = (): (() => void) => {
    const id = ++next;
    const at = performance.now();
    inFlight.add(at * 1e6 + id);
    return () => {
      inFlight.delete(at * 1e6 + id);
      touch();
    };
  };
  w.__a11yBusy = () => {
    const now = performance.now();
    for (const key of inFlight) if (now - key / 1e6 < 2000) return true;
    return false;
  };
  const fetch0 = window.fetch;
  if (typeof fetch0 === 'function') {
    window.fetch = function (this: unknown, ...args: Parameters<typeof fetch>) {
      const end = start();
      try {
        const p = fetch0.apply(this, args);
        p.then(end, end);
        return p;
      } catch (err) {
        end();
        throw err;
      }
    } as typeof fetch;
  }
  const send0 = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, ...args: Parameters<XMLHttpRequest['send']>) {
    const end = start();
    this.addEventListener('loadend', end, { once: true });
    try {
      return send0.apply(this, args);
    } catch (err) {
      end();
      throw err;
    }
  };
}

/**
 * Waits after `load` until the page is quiet within a cap, so content that scripts build after
 * load is there when the checks run: no fetch or XHR in flight, QUIET_MS since `load` and since
 * the last DOM change, and RESOURCE_QUIET_MS since the last resource arrived (a late background
 * image or the favicon is not a script at work, and no longer restarts the quiet spell).
 */
export async function settle(page: Page, capMs: number): Promise<void> {
  await page
    .evaluate(
      ({ quietMs, resourceQuietMs, capMs }) =>
        new Promise<void>((resolve) => {
          const w = window as unknown as { __a11yLastChange?: number; __a11yLastResource?: number; __a11yLoadAt?: number; __a11yBusy?: () => boolean };
          const started = performance.now();
          const check = () => {
            const now = performance.now();
            const last = Math.max(w.__a11yLastChange ?? 0, w.__a11yLoadAt ?? 0);
            const quiet = !w.__a11yBusy?.() && now - last >= quietMs && now - (w.__a11yLastResource ?? 0) >= resourceQuietMs;
            if (quiet || now - started >= capMs) resolve();
            else setTimeout(check, 20);
          };
          check();
        }),
      { quietMs: QUIET_MS, resourceQuietMs: RESOURCE_QUIET_MS, capMs },
    )
    .catch(() => {});
}
