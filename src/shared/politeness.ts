/**
 * How the audit behaves as a guest on a site that pushes back: robots.txt's `Crawl-delay` spaces
 * page fetches per host, `429 Too Many Requests` and `503 Service Unavailable` make the fetch wait
 * (the `Retry-After` the server gave, else an exponential back-off with jitter, bounded) and try
 * again, and the number of pages loaded at once per host shrinks while the site pushes back and
 * grows again when it stops (additive increase, multiplicative decrease). Pure rules here; the
 * state per host lives in PostgreSQL (see src/activities/host-pacer.ts), so every worker process
 * sees what the site told any of them.
 */

/** Statuses that mean "not now": the fetch is tried again later, never taken as the page's answer. */
export const THROTTLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** One wait is at most this long, whatever the server asks for. */
export const MAX_THROTTLE_WAIT_MS = 120_000;
/** The back-off's first step, before jitter; it doubles per attempt up to MAX_BACKOFF_MS. */
export const BACKOFF_BASE_MS = 1_000;
export const MAX_BACKOFF_MS = 60_000;
/**
 * Tries of one page before it ends as `rate_limited` (a page scan's activity attempts; discovery's
 * fetches of one URL): with the back-off above, a site may push back for several minutes.
 */
export const THROTTLE_ATTEMPTS = 8;
/** Pages loaded at once per host when nothing else is set (HOST_CONCURRENCY). */
export const DEFAULT_HOST_CONCURRENCY = 4;
/** robots.txt's Crawl-delay is honoured up to this (CRAWL_DELAY_MAX_MS): some ask for hours. */
export const DEFAULT_CRAWL_DELAY_MAX_MS = 10_000;

/**
 * The wait a `Retry-After` header asks for, in ms (RFC 9110: delay-seconds or an HTTP date),
 * bounded; undefined when there is none or it cannot be read.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v) * 1000, MAX_THROTTLE_WAIT_MS);
  const at = Date.parse(v);
  if (!Number.isFinite(at) || !/[a-z]/i.test(v)) return undefined;
  return Math.min(Math.max(0, at - now), MAX_THROTTLE_WAIT_MS);
}

/**
 * How long to wait before try number `attempt + 1` after a 429 or 503 at try `attempt` (1-based):
 * an exponential back-off with jitter, 1 s doubling to a minute, and never less than the server's
 * `Retry-After` (plus up to a quarter more, so that pages the site paused together do not all come
 * back at the same instant). `random` is in [0, 1).
 */
export function throttleWaitMs(attempt: number, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  const cap = Math.min(MAX_BACKOFF_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  const backoff = Math.round(cap / 2 + (random() * cap) / 2);
  if (retryAfterMs === undefined) return backoff;
  const asked = Math.max(100, Math.min(retryAfterMs, MAX_THROTTLE_WAIT_MS));
  return Math.min(MAX_THROTTLE_WAIT_MS, Math.max(backoff, Math.round(asked * (1 + random() / 4))));
}

/** How long every fetch to a host waits after it answered 429 or 503: what it asked for, else the back-off's first step. */
export function hostPauseMs(retryAfterMs: number | undefined): number {
  return retryAfterMs === undefined ? BACKOFF_BASE_MS : Math.max(100, Math.min(retryAfterMs, MAX_THROTTLE_WAIT_MS));
}

/** The host's window of pages at once after it pushed back: halved, never below one. */
export function windowAfterPushback(window: number): number {
  return Math.max(1, window / 2);
}

/** The host's window after a page went through: one more page per window's worth of pages, up to `max`. */
export function windowAfterSuccess(window: number, max: number): number {
  return Math.min(max, window + 1 / Math.max(1, window));
}

/** Pages loaded at once for a host: one while it asks for a delay between fetches, else its window's whole part. */
export function hostAllowance(state: { window: number; crawlDelayMs: number }): number {
  return state.crawlDelayMs > 0 ? 1 : Math.max(1, Math.floor(state.window));
}

/** robots.txt's Crawl-delay (seconds, possibly fractional) as the spacing honoured, in ms. */
export function crawlDelayMs(seconds: number | undefined, maxMs: number = DEFAULT_CRAWL_DELAY_MAX_MS): number {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.min(Math.round(seconds * 1000), maxMs);
}

/**
 * A fetch's turn at its host (`HostPacer.before`): how long it waited for it, and `done`, to be
 * called once the fetch got its answer or failed (a browser's document load: its response).
 */
export interface FetchSlot {
  waitedMs: number;
  /** The host's Crawl-delay counts from now, and its next fetch may go. Never throws; once is enough. */
  done(): Promise<void>;
}

/** The slot of a fetch nobody paces. */
export const FREE_SLOT: FetchSlot = Object.freeze({ waitedMs: 0, done: async () => {} });

/**
 * What the site's pacing is to the page scan and to discovery. `before` waits for the host's turn
 * (its Crawl-delay after the last fetch got its answer, the end of a pause it asked for) and
 * answers the fetch's slot; the Crawl-delay counts from the answer, not from the slot, because a
 * fetch reaches the site some time after its slot (a browser's document load leaves after the
 * Playwright driver, the page's event loop and the network stack have had their turn, a
 * noticeable while on a busy worker), and while the host asks for a delay one fetch at a time is
 * in flight; `pushedBack` records a 429 or 503 (the host's window halves and every fetch
 * to it pauses for what the site asked, `hostPauseMs`) and answers how long the refused fetch
 * waits before its next try (`throttleWaitMs`); `succeeded` lets the window grow again.
 */
export interface HostPacer {
  before(url: string, signal?: AbortSignal): Promise<FetchSlot>;
  /** How long the host asked everyone to pause from now (0: no pause), without taking a fetch slot. */
  pausedFor(url: string): Promise<number>;
  pushedBack(url: string, wait: { attempt: number; retryAfterMs?: number }): Promise<number>;
  succeeded(url: string): Promise<void>;
  /** Pages of the host to load at once now (see `hostAllowance`). */
  allowance(url: string): Promise<number>;
  /** Records robots.txt's Crawl-delay for the host (0: none). */
  setCrawlDelay(url: string, seconds: number | undefined): Promise<void>;
  /** The longest single wait `before` makes for a Crawl-delay (callers add it to their own timeouts). */
  readonly maxDelayMs: number;
}

/** A pacer that never waits: single-page tools, tests, and hosts nobody limits. */
export const UNPACED: HostPacer = {
  before: async () => FREE_SLOT,
  pausedFor: async () => 0,
  pushedBack: async (_url, wait) => throttleWaitMs(wait.attempt, wait.retryAfterMs),
  succeeded: async () => {},
  allowance: async () => DEFAULT_HOST_CONCURRENCY,
  setCrawlDelay: async () => {},
  maxDelayMs: 0,
};

/** The host a pacer keys on: host and port, lower case. */
export function pacingHost(url: string): string | undefined {
  try {
    return new URL(url).host.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}
