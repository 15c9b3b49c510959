import { describe, expect, it } from 'vitest';
import {
  crawlDelayMs,
  hostAllowance,
  MAX_BACKOFF_MS,
  MAX_THROTTLE_WAIT_MS,
  pacingHost,
  parseRetryAfter,
  throttleWaitMs,
  windowAfterPushback,
  windowAfterSuccess,
} from '../../../src/shared/politeness.ts';

describe('politeness rules', () => {
  it('reads Retry-After as seconds or an HTTP date, bounded, and ignores what it cannot read', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('86400', now)).toBe(MAX_THROTTLE_WAIT_MS);
    expect(parseRetryAfter('Sat, 28 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 28 Nov 2026 09:00:00 GMT', now)).toBe(0);
    for (const bad of [undefined, null, '', '-1', '1.5', 'soon', 'Tomorrow 10:00']) expect(parseRetryAfter(bad as string | undefined, now)).toBeUndefined();
  });

  it('waits at least what the server asked for, and backs off exponentially with jitter up to a minute', () => {
    const low = () => 0;
    const high = () => 0.999999;
    expect(throttleWaitMs(1, 1000, low)).toBe(1000);
    expect(throttleWaitMs(1, 1000, high)).toBe(1250);
    expect(throttleWaitMs(1, 0, low)).toBe(500);
    // Asked for a second again and again: the back-off grows past it.
    expect(throttleWaitMs(5, 1000, low)).toBe(8000);
    expect(throttleWaitMs(3, 30_000, low)).toBe(30_000);
    expect(throttleWaitMs(1, undefined, low)).toBe(500);
    expect(throttleWaitMs(1, undefined, high)).toBe(1000);
    expect(throttleWaitMs(3, undefined, low)).toBe(2000);
    expect(throttleWaitMs(3, undefined, high)).toBe(4000);
    expect(throttleWaitMs(20, undefined, high)).toBe(MAX_BACKOFF_MS);
  });

  it('halves the window on push-back, never below one, and grows it by one per window of pages', () => {
    expect(windowAfterPushback(4)).toBe(2);
    expect(windowAfterPushback(1.5)).toBe(1);
    let w = 1;
    for (let i = 0; i < 3; i++) w = windowAfterSuccess(w, 4);
    expect(w).toBeCloseTo(1 + 1 + 1 / 2 + 1 / 2.5, 5);
    expect(windowAfterSuccess(3.9, 4)).toBe(4);
    expect(hostAllowance({ window: 3.7, crawlDelayMs: 0 })).toBe(3);
    expect(hostAllowance({ window: 0.2, crawlDelayMs: 0 })).toBe(1);
    expect(hostAllowance({ window: 4, crawlDelayMs: 2000 })).toBe(1);
  });

  it('honours Crawl-delay in seconds up to its cap', () => {
    expect(crawlDelayMs(2)).toBe(2000);
    expect(crawlDelayMs(0.5)).toBe(500);
    expect(crawlDelayMs(3600, 10_000)).toBe(10_000);
    for (const none of [undefined, 0, -3, Number.NaN]) expect(crawlDelayMs(none)).toBe(0);
    expect(pacingHost('https://Example.org:8443/a')).toBe('example.org:8443');
    expect(pacingHost('not a url')).toBeUndefined();
  });
});
