import { describe, expect, it } from 'vitest';
import { cacheOf, createVersionedCache } from '../../../../src/db/repositories/versioned-cache.ts';
import { nearestBookmark, type ListKey } from '../../../../src/db/repositories/issue.repository.ts';

describe('versioned cache', () => {
  it('belongs to its database handle: one handle keeps its entries, another sees none of them', () => {
    const [a, b] = [{}, {}];
    cacheOf<number>(a, 'issueCounts', 10).set('site:open', '1', 42);
    expect(cacheOf<number>(a, 'issueCounts', 10).get('site:open', '1')).toBe(42);
    expect(cacheOf<number>(b, 'issueCounts', 10).get('site:open', '1')).toBeUndefined();
    expect(cacheOf<number>(a, 'listBookmarks', 10).get('site:open', '1')).toBeUndefined();
  });

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

describe('nearestBookmark: where a page of the issue list reads on from', () => {
  const marks = new Map<number, ListKey>([
    [20, [0, 'https://a.example/b', '00000000-0000-4000-8000-000000000020']],
    [40, [1, 'https://a.example/c', '00000000-0000-4000-8000-000000000040']],
    [0, [0, 'https://a.example/a', '00000000-0000-4000-8000-000000000000']],
  ]);
  it('takes the furthest bookmark at or before the offset', () => {
    expect(nearestBookmark(marks, 40)?.at).toBe(40);
    expect(nearestBookmark(marks, 39)?.at).toBe(20);
    expect(nearestBookmark(marks, 1000)?.key[2]).toBe('00000000-0000-4000-8000-000000000040');
  });
  it('has none before the first bookmark, at the start of the list, or without bookmarks', () => {
    expect(nearestBookmark(marks, 19)).toBeUndefined();
    expect(nearestBookmark(marks, 0)).toBeUndefined();
    expect(nearestBookmark(undefined, 500)).toBeUndefined();
  });
});
