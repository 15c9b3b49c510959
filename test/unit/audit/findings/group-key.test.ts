import { describe, expect, it } from 'vitest';
import { groupKey, htmlShape, normaliseSelectorPath } from '../../../../src/audit/findings/group-key.ts';

describe('issue group keys', () => {
  it('generalises what varies from page to page: positions, numbers, ids and attribute values', () => {
    expect(normaliseSelectorPath('#post-1234 > ul > li:nth-child(7) > a')).toBe('#id > ul > li:nth-child(n) > a');
    expect(normaliseSelectorPath('.Sidebar  >  a:nth-of-type(2)')).toBe('.sidebar > a:nth-of-type(n)');
    expect(normaliseSelectorPath('a[href="../../genindex.html"]')).toBe('a[href]');
    expect(normaliseSelectorPath("a[title='next chapter'] > .docutils.literal > .pre")).toBe('a[title] > .docutils.literal > .pre');
    expect(normaliseSelectorPath('#IPython\\.display\\.IFrame\\.__init__ > em:nth-child(5)')).toBe('#id > em:nth-child(n)');
    expect(normaliseSelectorPath('#backwards-incompatible-changes > ul > li:nth-child(14) > .first')).toBe(
      normaliseSelectorPath('#new-features > ul > li:nth-child(2) > .first'),
    );
  });

  it('keeps tags, attribute names and kind attributes of the element and its children, not texts or values', () => {
    expect(htmlShape('<a href="/next/3.html" class="btn">Next <span class="icon">›</span></a>')).toBe('a[class,href](span)');
    expect(htmlShape('<input type="search" id="q" placeholder="Search the docs">')).toBe('input[id,placeholder,type=search]()');
    expect(htmlShape('plain text')).toBe('');
  });

  it('gives the same key to the same template element on every page, and different keys to different elements or rules', () => {
    const onPage1 = groupKey('link-text-generic', 'div.related > ul > li:nth-child(2) > a', '<a href="/3/whatsnew.html" accesskey="N">next</a>');
    const onPage2 = groupKey('link-text-generic', 'div.related > ul > li:nth-child(2) > a', '<a href="/3/install.html" accesskey="N">next</a>');
    expect(onPage1).toBe(onPage2);
    expect(onPage1).toMatch(/^[0-9a-f]{24}$/);
    expect(groupKey('link-name', 'div.related > ul > li:nth-child(2) > a', '<a href="/3/x.html" accesskey="N">next</a>')).not.toBe(onPage1);
    expect(groupKey('link-text-generic', 'footer > a', '<a href="/3/x.html">more</a>')).not.toBe(onPage1);
    expect(groupKey('image-alt', '#logo', '<img src="a.png">')).not.toBe(groupKey('image-alt', '#logo', '<input type="image" src="a.png">'));
  });
});
