import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../db/database.ts';
import { claimHostFetch, pauseHost, readHostPacing, releaseHostFetch, reserveHostFetch, setHostCrawlDelay, widenHost } from '../db/repositories/host-pacing.repository.ts';
import { crawlDelayMs, FREE_SLOT, hostAllowance, hostPauseMs, pacingHost, throttleWaitMs, windowAfterPushback, windowAfterSuccess, type HostPacer } from '../shared/politeness.ts';

export interface HostPacerSettings {
  /** Pages loaded at once per host at most (HOST_CONCURRENCY). */
  hostConcurrency: number;
  /** robots.txt's Crawl-delay is honoured up to this (CRAWL_DELAY_MAX_MS). */
  crawlDelayMaxMs: number;
  /**
   * How long a fetch holds its host (while the host asks for a Crawl-delay) when its worker never
   * says it got its answer (it died mid-fetch): the longest a fetch may take, and a little more.
   */
  fetchLeaseMs?: number;
}

const DEFAULT_FETCH_LEASE_MS = 60_000;
/** How often a fetch asks again while another fetch to its host is in flight. */
const BUSY_POLL_MS = 100;

/** How long a host's settings are taken as read before they are read again (another worker may have paused it). */
const FRESH_MS = 1_000;

/**
 * The pacing of every host this worker fetches from, kept in PostgreSQL (`host_pacing`) so that
 * every worker process and discovery honour what a site told any of them. A host that never
 * asked for a delay nor pushed back costs a read per second at most, no write.
 */
export function createHostPacer(db: Database, settings: HostPacerSettings): HostPacer {
  const known = new Map<string, { at: number; crawlDelayMs: number; pausedUntil: number; window: number | null }>();
  async function state(host: string) {
    const hit = known.get(host);
    if (hit && Date.now() - hit.at < FRESH_MS) return hit;
    const row = await readHostPacing(db, host);
    const fresh = { at: Date.now(), crawlDelayMs: row?.crawlDelayMs ?? 0, pausedUntil: row?.pausedUntil ?? 0, window: row?.window ?? null };
    if (known.size > 10_000) known.clear();
    known.set(host, fresh);
    return fresh;
  }
  return {
    maxDelayMs: settings.crawlDelayMaxMs,
    async before(url, signal) {
      const host = pacingHost(url);
      if (!host) return FREE_SLOT;
      const s = await state(host);
      if (s.crawlDelayMs === 0 && s.pausedUntil <= Date.now()) return FREE_SLOT;
      // The slot orders the host's fetches (and spreads them over time)...
      const wait = await reserveHostFetch(db, host);
      if (wait > 0) await sleep(wait, undefined, { signal }).catch(() => {});
      if (s.crawlDelayMs === 0) return { waitedMs: wait, done: FREE_SLOT.done };
      // ...and, while the host asks for a Crawl-delay, each fetch also waits until the one before
      // it got its answer that long ago: a fetch reaches the site some time after its slot.
      const token = randomUUID();
      const claiming = Date.now();
      let polled = false;
      while (!signal?.aborted) {
        const more = await claimHostFetch(db, host, token, settings.fetchLeaseMs ?? DEFAULT_FETCH_LEASE_MS, BUSY_POLL_MS);
        if (more === 0) break;
        polled = true;
        await sleep(more, undefined, { signal }).catch(() => {});
      }
      const waited = wait + (polled ? Date.now() - claiming : 0);
      let released: Promise<void> | undefined;
      return {
        waitedMs: waited,
        done: () => (released ??= releaseHostFetch(db, host, token).catch(() => {})),
      };
    },
    async pausedFor(url) {
      const host = pacingHost(url);
      if (!host) return 0;
      const s = await state(host);
      return Math.max(0, s.pausedUntil - Date.now());
    },
    async pushedBack(url, w) {
      const host = pacingHost(url);
      // The host pauses for what the site asked (else a second): one page's own back-off, which
      // grows with its tries, is that page's wait, not everyone's.
      if (host) await pauseHost(db, host, hostPauseMs(w.retryAfterMs), settings.hostConcurrency, windowAfterPushback);
      if (host) known.delete(host);
      return throttleWaitMs(w.attempt, w.retryAfterMs);
    },
    async succeeded(url) {
      const host = pacingHost(url);
      // A host at its full window (it never pushed back, or it recovered) costs no write.
      if (!host || (await state(host)).window === null) return;
      await widenHost(db, host, settings.hostConcurrency, (w) => windowAfterSuccess(w, settings.hostConcurrency));
      known.delete(host);
    },
    async allowance(url) {
      const host = pacingHost(url);
      if (!host) return settings.hostConcurrency;
      const s = await state(host);
      return Math.min(settings.hostConcurrency, hostAllowance({ window: s.window ?? settings.hostConcurrency, crawlDelayMs: s.crawlDelayMs }));
    },
    async setCrawlDelay(url, seconds) {
      const host = pacingHost(url);
      if (!host) return;
      const ms = crawlDelayMs(seconds, settings.crawlDelayMaxMs);
      const s = await state(host);
      if (s.crawlDelayMs !== ms) await setHostCrawlDelay(db, host, ms);
      known.delete(host);
    },
  };
}
