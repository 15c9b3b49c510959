import { setTimeout as sleep } from 'node:timers/promises';
import type { HostPacer } from '../shared/politeness.ts';
import { fetchPage, type FetchOptions, type FetchOutcome } from './fetch-page.ts';

/** One fetch of discovery, as a careful guest makes it. */
export type PoliteFetch = (url: string, opts: FetchOptions) => Promise<FetchOutcome>;

export interface PoliteFetchOptions {
  pacer: HostPacer;
  signal?: AbortSignal;
  /** Told every wait for the site (its Crawl-delay, a pause it asked for), in ms. */
  onWait?: (ms: number) => void;
  /** Tries when the site answers 429 or 503 (1: none again, the caller waits its own way). */
  attempts?: number;
}

/**
 * `fetchPage` that waits for the host's fetch slot first (robots.txt's Crawl-delay, a pause the
 * site asked for), and, answered 429 or 503, records the push-back and tries again after the wait
 * the site asked for, up to `attempts` tries; the last answer stands (a `throttled` outcome).
 */
export function politeFetch(o: PoliteFetchOptions): PoliteFetch {
  const attempts = o.attempts ?? 1;
  return async (url, opts) => {
    for (let attempt = 1; ; attempt++) {
      const slot = await o.pacer.before(url, o.signal);
      if (slot.waitedMs > 0) o.onWait?.(slot.waitedMs);
      const out = await fetchPage(url, opts).finally(() => slot.done());
      if (out.kind !== 'throttled') return out;
      const wait = await o.pacer.pushedBack(url, { attempt, ...(out.retryAfterMs !== undefined ? { retryAfterMs: out.retryAfterMs } : {}) });
      if (attempt >= attempts || o.signal?.aborted) return out;
      o.onWait?.(wait);
      await sleep(wait, undefined, { signal: o.signal }).catch(() => {});
    }
  };
}
