import { describe, expect, it } from 'vitest';
import { extractLinks } from '../../../src/discovery/extract-links.ts';
import { decodeBody } from '../../../src/discovery/fetch-page.ts';
import { documentType, looksLikeAsset, normalizeUrl, pathOf, sameSite, sameSiteMove, siteHostname } from '../../../src/shared/urls.ts';
import { gzipSync } from 'node:zlib';

describe('discovery URL rules', () => {
  it('normalises page URLs: http(s) only, no fragment, lower-case host, no default port', () => {
    expect(normalizeUrl('HTTP://Example.ORG:80/a/b?x=1#top')).toBe('http://example.org/a/b?x=1');
    expect(normalizeUrl('https://example.org:443/')).toBe('https://example.org/');
    expect(normalizeUrl('../c', 'https://example.org/a/b/')).toBe('https://example.org/a/c');
    expect(normalizeUrl('#section', 'https://example.org/page')).toBe('https://example.org/page');
    for (const bad of ['mailto:a@b.c', 'tel:+44123', 'javascript:void(0)', 'file:///etc/passwd', 'data:text/html,<a href=x>', 'ftp://example.org/', 'http://user:pw@example.org/', 'http://[bad']) {
      expect(normalizeUrl(bad, 'https://example.org/'), bad).toBeUndefined();
    }
  });

  it('identifies a site by its lower-cased, punycoded host name', () => {
    expect(siteHostname('https://WWW.Example.org./x')).toBe('www.example.org');
    expect(siteHostname('https://bücher.example/')).toBe('xn--bcher-kva.example');
  });

  it('keeps discovery on the site: same host, http to https allowed, other ports and hosts not', () => {
    expect(sameSite('http://example.org/a', 'https://example.org/')).toBe(true);
    expect(sameSite('http://example.org:8080/a', 'http://example.org:8080/')).toBe(true);
    expect(sameSite('http://example.org:8081/a', 'http://example.org:8080/')).toBe(false);
    expect(sameSite('https://sub.example.org/', 'https://example.org/')).toBe(false);
    expect(sameSite('https://elsewhere.example/', 'https://example.org/')).toBe(false);
  });

  it('follows the home page between host and www.host (and up to https), nowhere else', () => {
    expect(sameSiteMove('http://example.org/', 'http://www.example.org/')).toBe(true);
    expect(sameSiteMove('https://www.example.org/', 'https://example.org/en/')).toBe(true);
    expect(sameSiteMove('http://example.org/', 'https://www.example.org/')).toBe(true);
    expect(sameSiteMove('http://site.test:8080/', 'http://www.site.test:8080/')).toBe(true);
    expect(sameSiteMove('https://example.org/', 'http://www.example.org/')).toBe(false);
    expect(sameSiteMove('http://site.test:8080/', 'http://www.site.test:8081/')).toBe(false);
    expect(sameSiteMove('http://example.org/', 'http://shop.example.org/')).toBe(false);
    expect(sameSiteMove('http://example.org/', 'http://www.elsewhere.example/')).toBe(false);
    expect(sameSiteMove('http://www.com/', 'http://com/')).toBe(false);
  });

  it('expands gzip with an output cap: a bomb is too_large, a cut file is not gzip, plain text passes', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect(await decodeBody(bomb, 1024 * 1024)).toMatchObject({ ok: false, code: 'too_large' });
    const xml = gzipSync(Buffer.from('<urlset><url><loc>https://example.org/</loc></url></urlset>'));
    expect(await decodeBody(xml, 1024)).toEqual({ ok: true, text: '<urlset><url><loc>https://example.org/</loc></url></urlset>' });
    expect(await decodeBody(xml.subarray(0, xml.length - 12), 1024)).toMatchObject({ ok: false, code: 'bad_gzip' });
    expect(await decodeBody(Buffer.from('plain'), 1)).toEqual({ ok: true, text: 'plain' });
  });

  it('skips obvious assets, keeps documents, and shows paths with their query', () => {
    expect(looksLikeAsset('https://example.org/files/report.PDF')).toBe(false);
    expect(looksLikeAsset('https://example.org/files/report.zip')).toBe(true);
    expect(looksLikeAsset('https://example.org/img/logo.png?v=2')).toBe(true);
    expect(looksLikeAsset('https://example.org/docs/page.html')).toBe(false);
    expect(looksLikeAsset('https://example.org/about')).toBe(false);
    expect(pathOf('https://example.org/calendar?d=2')).toBe('/calendar?d=2');
  });

  it('takes an answer for a document by its type, or a .pdf address served with a generic type', () => {
    expect(documentType('application/pdf', 'https://example.org/download?id=3')).toBe('application/pdf');
    expect(documentType('Application/PDF; charset=binary', 'https://example.org/a')).toBe('application/pdf');
    expect(documentType('application/octet-stream', 'https://example.org/files/Report.PDF')).toBe('application/pdf');
    expect(documentType('application/octet-stream', 'https://example.org/files/setup.exe')).toBeUndefined();
    expect(documentType('image/png', 'https://example.org/files/chart.pdf')).toBeUndefined();
    expect(documentType('application/zip', 'https://example.org/files/all.zip')).toBeUndefined();
  });
});

describe('link extraction', () => {
  it('finds a and area links, the base, and honours nofollow', () => {
    const out = extractLinks(`<html><head><base href="/docs/"></head><body>
      <a href="one.html">One</a> <A HREF="/two">Two</A> <a name="anchor">no href</a>
      <map><area href="three.html" alt="Three"></map> <a href="/ads" rel="sponsored nofollow">Ad</a>
      <a href="four&amp;five">Four</a></body></html>`);
    expect(out.links).toEqual(['one.html', '/two', 'three.html', 'four&five']);
    expect(out.base).toBe('/docs/');
    expect(out.nofollow).toBe(false);
  });

  it('follows no link of a page whose robots meta says nofollow', () => {
    const out = extractLinks('<meta name="robots" content="noindex, nofollow"><a href="/x">x</a>');
    expect(out).toMatchObject({ links: [], nofollow: true });
  });
});
