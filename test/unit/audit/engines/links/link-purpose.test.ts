import { describe, expect, it } from 'vitest';
import { customRulesSource } from '../../../../../src/audit/engines/links/link-rules.ts';
import { compareDestinations, judgeIdenticalLinks, judgeLinkHref, onclickDestination, type LinkForComparison } from '../../../../../src/audit/engines/links/destinations.ts';
import { classifyLinkName, judgeLinkName, LINK_NAME_LISTS, normaliseLinkName, type VagueLinkFacts } from '../../../../../src/audit/engines/links/link-names.ts';

const en = LINK_NAME_LISTS.en!;

describe('normaliseLinkName', () => {
  it.each([
    ['Read More', 'read more'],
    ['  read\n\t more  ', 'read more'],
    ['Read more »', 'read more'],
    ['« Previous', 'previous'],
    ['‹ Prev', 'prev'],
    ['Next →', 'next'],
    ['Next ›', 'next'],
    ['more…', 'more'],
    ['More...', 'more'],
    ['[more]', 'more'],
    ['Click here!', 'click here'],
    ['read-more', 'read more'],
    ['.', ''],
    ['»', ''],
    ['→', ''],
    ["What’s new", "what's new"],
    ["'here'", 'here'],
    ['ＨＥＲＥ', 'here'],
    ['Café menu', 'café menu'],
  ])('%j → %j', (raw, want) => {
    expect(normaliseLinkName(raw)).toBe(want);
  });
});

describe('classifyLinkName', () => {
  it('sorts vague names by kind and leaves descriptive ones alone', () => {
    expect(classifyLinkName(normaliseLinkName('Click here'), en)).toBe('generic');
    expect(classifyLinkName(normaliseLinkName('Read more »'), en)).toBe('generic');
    expect(classifyLinkName(normaliseLinkName('Next'), en)).toBe('sequence');
    expect(classifyLinkName(normaliseLinkName('More'), en)).toBe('sequence');
    expect(classifyLinkName(normaliseLinkName('PDF'), en)).toBe('format');
    expect(classifyLinkName(normaliseLinkName('Plain text'), en)).toBe('format');
    expect(classifyLinkName(normaliseLinkName('.'), en)).toBe('punctuation');
    expect(classifyLinkName(normaliseLinkName('Read more about polar bears'), en)).toBeNull();
    expect(classifyLinkName(normaliseLinkName('Annual report 2025 (PDF)'), en)).toBeNull();
    expect(classifyLinkName(normaliseLinkName('https://example.com/report'), en)).toBeNull();
  });
});

describe('judgeLinkName', () => {
  const base: VagueLinkFacts = { category: 'generic', rel: false, inNavigation: false, inPagination: false, hasContext: false, hasDescription: false };
  it('confirms a vague name only when nothing gives it a purpose', () => {
    expect(judgeLinkName(base)).toEqual({ verdict: 'confirmed', reason: 'no-context' });
    expect(judgeLinkName({ ...base, hasContext: true })).toEqual({ verdict: 'needs_review', reason: 'context' });
    expect(judgeLinkName({ ...base, hasDescription: true })).toEqual({ verdict: 'needs_review', reason: 'description' });
  });
  it('passes "next"/"previous"/"more" and arrows in navigation, pagination, or with rel', () => {
    for (const category of ['sequence', 'punctuation'] as const) {
      expect(judgeLinkName({ ...base, category, inNavigation: true })).toEqual({ verdict: 'pass' });
      expect(judgeLinkName({ ...base, category, inPagination: true })).toEqual({ verdict: 'pass' });
      expect(judgeLinkName({ ...base, category, rel: true })).toEqual({ verdict: 'pass' });
      expect(judgeLinkName({ ...base, category }).verdict).toBe('confirmed');
    }
    // "click here" is not a step of a sequence: navigation does not excuse it.
    expect(judgeLinkName({ ...base, inNavigation: true }).verdict).toBe('confirmed');
  });
  it('passes a format name with a context that can name the thing, asks for review without one', () => {
    expect(judgeLinkName({ ...base, category: 'format', hasContext: true })).toEqual({ verdict: 'pass' });
    expect(judgeLinkName({ ...base, category: 'format', inNavigation: true })).toEqual({ verdict: 'pass' });
    expect(judgeLinkName({ ...base, category: 'format' })).toEqual({ verdict: 'needs_review', reason: 'format' });
  });
  it('passes names that are not vague', () => {
    expect(judgeLinkName({ ...base, category: null })).toEqual({ verdict: 'pass' });
  });
});

describe('compareDestinations', () => {
  it.each([
    ['https://a.example/x', 'https://a.example/x', 'same'],
    ['https://a.example/x/', 'https://a.example/x', 'same'],
    ['https://a.example/docs/index.html', 'https://a.example/docs/', 'same'],
    ['http://www.a.example/x', 'https://a.example/x', 'same'],
    ['https://a.example:443/x', 'https://A.EXAMPLE/x', 'same'],
    ['https://a.example/x?b=2&a=1', 'https://a.example/x?a=1&b=2', 'same'],
    ['https://a.example/x?utm_source=nav', 'https://a.example/x', 'same'],
    ['https://a.example/x#top', 'https://a.example/x', 'same'],
    ['https://a.example/x#a', 'https://a.example/x#b', 'fragment'],
    ['https://a.example/x?page=1', 'https://a.example/x?page=2', 'query'],
    ['https://a.example/x', 'https://a.example/y', 'different'],
    ['https://a.example/x', 'https://b.example/x', 'different'],
    ['mailto:a@example.com', 'mailto:A@example.com', 'same'],
    ['mailto:a@example.com', 'tel:123', 'different'],
    ['javascript:void(0)', 'https://a.example/', 'unknown'],
    ['not a url', 'https://a.example/', 'unknown'],
  ])('%s vs %s → %s', (a, b, want) => {
    expect(compareDestinations(a, b)).toBe(want);
    expect(compareDestinations(b, a)).toBe(want);
  });
});

describe('onclickDestination', () => {
  it('reads plain location assignments, nothing else', () => {
    expect(onclickDestination("location='/a/b.html'")).toBe('/a/b.html');
    expect(onclickDestination('window.location.href = "/c"')).toBe('/c');
    expect(onclickDestination("document.location.assign('/d')")).toBe('/d');
    expect(onclickDestination("window.open('https://x.example/')")).toBe('https://x.example/');
    expect(onclickDestination("document.location+='#desc'")).toBeNull();
    expect(onclickDestination('doSomething()')).toBeNull();
    expect(onclickDestination(null)).toBeNull();
  });
});

describe('judgeIdenticalLinks', () => {
  const link = (destination: string | null, over: Partial<LinkForComparison> = {}): LinkForComparison => ({ group: 'contact us|ctx', context: 'p1', destination, from: 'href', ...over });
  const judge = (links: LinkForComparison[]) => judgeIdenticalLinks(links, compareDestinations);

  it('is not applicable to a name used once or in different contexts', () => {
    expect(judge([link('https://a.example/1')])).toEqual([{ verdict: 'not-applicable' }]);
    expect(judge([link('https://a.example/1'), link('https://a.example/2', { group: 'contact us|other' })]).map((v) => v.verdict)).toEqual(['not-applicable', 'not-applicable']);
  });
  it('passes links that go to the same resource', () => {
    expect(judge([link('https://a.example/x/'), link('https://a.example/x')]).map((v) => v.verdict)).toEqual(['pass', 'pass']);
  });
  it('confirms the same address with other query parameters in the very same context', () => {
    const v = judge([link('https://a.example/c?page=1'), link('https://a.example/c?page=2')]);
    expect(v).toEqual([
      { verdict: 'confirmed', relation: 'query', others: ['https://a.example/c?page=2'] },
      { verdict: 'confirmed', relation: 'query', others: ['https://a.example/c?page=1'] },
    ]);
  });
  it('asks for review where another page may be equivalent, the context is only identical, or the target comes from a script', () => {
    expect(judge([link('https://a.example/about/contact'), link('https://a.example/careers/contact')]).map((v) => v.verdict)).toEqual(['needs_review', 'needs_review']);
    expect(judge([link('https://a.example/c?page=1', { context: 'p1' }), link('https://a.example/c?page=2', { context: 'p2' })]).map((v) => v.verdict)).toEqual(['needs_review', 'needs_review']);
    expect(judge([link('https://a.example/c?page=1', { context: '' }), link('https://a.example/c?page=2', { context: '' })]).map((v) => v.verdict)).toEqual(['needs_review', 'needs_review']);
    expect(judge([link('https://a.example/c?page=1', { from: 'onclick' }), link('https://a.example/c?page=2', { from: 'onclick' })]).map((v) => v.verdict)).toEqual(['needs_review', 'needs_review']);
    expect(judge([link('https://a.example/x#a'), link('https://a.example/x#b')])[0]).toMatchObject({ verdict: 'needs_review', relation: 'fragment' });
  });
  it('leaves links whose target is unknown out of the comparison', () => {
    expect(judge([link(null), link('https://a.example/x')]).map((v) => v.verdict)).toEqual(['not-applicable', 'not-applicable']);
    expect(judge([link('javascript:go()'), link('https://a.example/x')]).map((v) => v.verdict)).toEqual(['not-applicable', 'not-applicable']);
  });
  it('flags every link of a group that goes somewhere another does not', () => {
    const v = judge([link('https://a.example/x'), link('https://a.example/x'), link('https://b.example/y')]);
    expect(v.map((x) => x.verdict)).toEqual(['needs_review', 'needs_review', 'needs_review']);
    expect(v[2]).toMatchObject({ others: ['https://a.example/x'] });
  });
});

describe('customRulesSource', () => {
  it('is self-contained JavaScript that registers its three rules on an axe object', () => {
    const configured: any[] = [];
    const fakeAxe = { configure: (c: any) => configured.push(c) };
    new Function('window', customRulesSource('en'))({ axe: fakeAxe });
    expect(configured).toHaveLength(1);
    expect(configured[0].rules.map((r: any) => r.id)).toEqual(['link-href-no-destination', 'link-text-generic', 'link-identical-name-different-purpose']);
    expect(configured[0].checks.every((c: any) => typeof c.evaluate === 'function')).toBe(true);
  });
});

describe('judgeLinkHref (4.1.2: a link goes somewhere)', () => {
  it.each([
    // Script that acts on the page: a button announced as a link.
    ["javascript:alert('Hello world!')", null, 'confirmed'],
    ['javascript:toggleMenu()', null, 'confirmed'],
    ['JavaScript:%20showPanel(2)', null, 'confirmed'],
    ['#', 'openDialog(); return false;', 'confirmed'],
    ['javascript:void(0)', "document.getElementById('m').hidden = false", 'confirmed'],
    // Goes nowhere by itself; a listener the markup does not show decides.
    ['#', null, 'needs_review'],
    ['#', 'event.preventDefault(); return false', 'needs_review'],
    ['javascript:void(0)', null, 'needs_review'],
    ['javascript:;', '', 'needs_review'],
    ['  #!  ', null, 'needs_review'],
    // Goes somewhere.
    ['/about', null, 'pass'],
    ['#top', null, 'pass'],
    ['#main', null, 'pass'],
    ['#/settings', null, 'pass'],
    ['#!/inbox', null, 'pass'],
    ["javascript:location.href='/a'", null, 'pass'],
    ["javascript:window.open('/help')", null, 'pass'],
    ['#', "location.href='/next'", 'pass'],
    ['#', 'router.push("/x")', 'pass'],
    ['', null, 'pass'],
    ['mailto:a@example.org', null, 'pass'],
  ] as const)('%s (onclick %s): %s', (href, onclick, verdict) => {
    expect(judgeLinkHref(href, onclick).verdict).toBe(verdict);
  });

  it('says why', () => {
    expect(judgeLinkHref('javascript:go2()', null)).toEqual({ verdict: 'confirmed', reason: 'script' });
    expect(judgeLinkHref('javascript:void 0', null)).toEqual({ verdict: 'needs_review', reason: 'void' });
    expect(judgeLinkHref('#', null)).toEqual({ verdict: 'needs_review', reason: 'hash' });
  });

  it("passes a bare # named after the top of the page (a table of contents' first entry), not one that acts", () => {
    expect(judgeLinkHref('#', null, () => true)).toEqual({ verdict: 'pass' });
    expect(judgeLinkHref('#', 'toggle()', () => true).verdict).toBe('confirmed');
    expect(judgeLinkHref('javascript:void(0)', null, () => true).verdict).toBe('needs_review');
    // Asked only of a bare #: other links never pay for reading the page's title and heading.
    expect(judgeLinkHref('/about', null, () => { throw new Error('asked'); }).verdict).toBe('pass');
  });
});
