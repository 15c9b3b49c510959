import { describe, expect, it } from 'vitest';
import { createVersionedCache } from '../../src/db/repositories/versioned-cache.ts';

describe('versioned cache', () => {
  it('answers only for the version a value was computed for', () => {
    const cache = createVersionedCache<number>(10);
    cache.set('site-a:open', '7', 42);
    expect(cache.get('site-a:open', '7')).toBe(42);
    expect(cache.get('site-a:open', '8')).toBeUndefined();
    expect(cache.get('site-b:open', '7')).toBeUndefined();
  });

  it('drops the least recently used entry when full', () => {
    const cache = createVersionedCache<string>(2);
    cache.set('a', '1', 'A');
    cache.set('b', '1', 'B');
    expect(cache.get('a', '1')).toBe('A');
    cache.set('c', '1', 'C');
    expect(cache.get('b', '1')).toBeUndefined();
    expect(cache.get('a', '1')).toBe('A');
    expect(cache.get('c', '1')).toBe('C');
  });
});
