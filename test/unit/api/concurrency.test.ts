import { describe, expect, it } from 'vitest';
import { createApiLimits, KeyedSlots, Slots } from '../../../src/api/concurrency.ts';

describe('slots: what one API process lets run at once', () => {
  it('hands out at most max, and a release frees its slot once however often it is called', () => {
    const slots = new Slots(2);
    const a = slots.tryAcquire();
    const b = slots.tryAcquire();
    expect(a && b).toBeTruthy();
    expect(slots.tryAcquire()).toBeUndefined();
    a!();
    a!();
    expect(slots.active).toBe(1);
    expect(slots.tryAcquire()).toBeDefined();
    expect(slots.tryAcquire()).toBeUndefined();
  });

  it('0 means no cap', () => {
    const slots = new Slots(0);
    for (let i = 0; i < 1000; i++) expect(slots.tryAcquire()).toBeDefined();
  });

  it('counts per key, and forgets a key with nothing held', () => {
    const slots = new KeyedSlots(1);
    const a = slots.tryAcquire('a');
    expect(a).toBeDefined();
    expect(slots.tryAcquire('a')).toBeUndefined();
    expect(slots.tryAcquire('b')).toBeDefined();
    a!();
    a!();
    expect(slots.active('a')).toBe(0);
    expect(slots.tryAcquire('a')).toBeDefined();
  });

  it('gives every app its own counters', () => {
    const config = { exportConcurrency: 1, eventStreamsMax: 1, eventStreamsPerClient: 1 };
    const one = createApiLimits(config);
    const two = createApiLimits(config);
    expect(one.exports.tryAcquire()).toBeDefined();
    expect(two.exports.tryAcquire()).toBeDefined();
  });
});
