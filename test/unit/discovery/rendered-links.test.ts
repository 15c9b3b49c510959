import { describe, expect, it } from 'vitest';
import { documentOf, landedAt, normalizeRenderedUrl, normalizeUrl, pathOf, routeFragment, routeOf } from '../../../src/shared/urls.ts';

describe('rendered discovery URL rules', () => {
  it('keeps route fragments (#/route, #!route) and drops in-page anchors', () => {
    const base = 'https://example.org/app/';
    expect(normalizeRenderedUrl('#/products', base)).toBe('https://example.org/app/#/products');
    expect(normalizeRenderedUrl('#!/cart?x=1', base)).toBe('https://example.org/app/#!/cart?x=1');
    expect(normalizeRenderedUrl('#!cart', base)).toBe('https://example.org/app/#!cart');
    expect(normalizeRenderedUrl('HTTPS://Example.ORG:443/app/#/a', base)).toBe('https://example.org/app/#/a');
    for (const anchor of ['#top', '#section-2', '#', '', '#/', '#!', '#!/']) expect(normalizeRenderedUrl(anchor, base), anchor).toBe('https://example.org/app/');
    expect(normalizeRenderedUrl('/about#team', base)).toBe('https://example.org/about');
    for (const bad of ['mailto:a@b.c', 'javascript:void(0)', 'http://user:pw@example.org/#/a', 'ftp://example.org/#/a']) expect(normalizeRenderedUrl(bad, base), bad).toBeUndefined();
    // Served HTML's links never keep a fragment.
    expect(normalizeUrl('#/products', base)).toBe('https://example.org/app/');
  });

  it('tells route fragments from anchors', () => {
    expect(routeFragment('#/a')).toBe('#/a');
    expect(routeFragment('#!a')).toBe('#!a');
    expect(routeFragment('#a')).toBeUndefined();
    expect(routeFragment('#/')).toBeUndefined();
    expect(routeFragment('')).toBeUndefined();
    expect(routeOf('https://example.org/#/a/b')).toBe('#/a/b');
    expect(routeOf('https://example.org/x')).toBeUndefined();
    expect(documentOf('https://example.org/p?q=1#/a')).toBe('https://example.org/p?q=1');
  });

  it('shows a route in the page path and keeps it on a fetched URL, across a redirect without one', () => {
    expect(pathOf('https://example.org/shop/#/cart')).toBe('/shop/#/cart');
    expect(pathOf('https://example.org/shop/?a=1')).toBe('/shop/?a=1');
    expect(landedAt('https://example.org/', 'https://example.org/#/cart')).toBe('https://example.org/#/cart');
    expect(landedAt('https://example.org/shop/', 'https://example.org/shop#/cart')).toBe('https://example.org/shop/#/cart');
    expect(landedAt('https://example.org/login#/welcome', 'https://example.org/#/cart')).toBe('https://example.org/login#/welcome');
    expect(landedAt('https://example.org/about#team', 'https://example.org/about')).toBe('https://example.org/about');
  });
});
