import { describe, expect, it } from 'vitest';
import {
  engineFacts,
  findingsFromAxe,
  fingerprint,
  mergeFindings,
  parseElement,
  passedRules,
  selectorFromTarget,
  type AxeRuleResult,
} from '../../../../src/audit/findings/findings.ts';

const rule = (id: string, tags: string[], nodes: Array<{ target: unknown[]; impact?: string }>, impact = 'serious'): AxeRuleResult => ({
  id,
  impact,
  tags,
  description: `${id} description`,
  help: `${id} help`,
  helpUrl: `https://example.test/${id}`,
  nodes: nodes.map((n) => ({ target: n.target, html: `<x id="${String(n.target[0])}">`, impact: n.impact ?? impact, failureSummary: 'Fix any of the following: x' })),
});

describe('axe results to findings', () => {
  it('makes one draft per failing element and drops rules without an A/AA criterion', () => {
    const drafts = findingsFromAxe(
      [
        rule('image-alt', ['wcag2a', 'wcag111'], [{ target: ['#a'] }, { target: ['#b'] }], 'critical'),
        rule('region', ['cat.keyboard', 'best-practice'], [{ target: ['#c'] }]),
        rule('color-contrast-enhanced', ['wcag2aaa', 'wcag146'], [{ target: ['#d'] }]),
      ],
      'confirmed',
    );
    expect(drafts.map((d) => [d.ruleId, d.elementSelector, d.wcagCriterion, d.wcagLevel, d.severity, d.type])).toEqual([
      ['image-alt', '#a', '1.1.1', 'A', 'critical', 'confirmed'],
      ['image-alt', '#b', '1.1.1', 'A', 'critical', 'confirmed'],
    ]);
  });

  it('falls back to moderate when axe gives no impact, and renames rules on request', () => {
    const r = rule('target-size', ['wcag22aa', 'wcag258'], [{ target: ['#t'] }]);
    r.impact = null;
    r.nodes[0]!.impact = null;
    const [d] = findingsFromAxe([r], 'needs_review', { ruleIdFor: () => 'target-size-mobile', data: { viewport: '390x844' } });
    expect(d).toMatchObject({ ruleId: 'target-size-mobile', severity: 'moderate', type: 'needs_review', data: { viewport: '390x844', engineRuleId: 'target-size' } });
  });

  it('joins frame and shadow DOM selectors', () => {
    expect(selectorFromTarget(['iframe#pay', '#card'])).toBe('iframe#pay >>> #card');
    expect(selectorFromTarget([['my-widget', 'button.close']])).toBe('my-widget >>> button.close');
  });

  it('keeps one issue per element per criterion and notes who else found it', () => {
    const a = findingsFromAxe([rule('target-size', ['wcag22aa', 'wcag258'], [{ target: ['#x'] }])], 'confirmed');
    const b = findingsFromAxe([rule('target-size', ['wcag22aa', 'wcag258'], [{ target: ['#x'] }, { target: ['#y'] }])], 'confirmed', {
      ruleIdFor: () => 'target-size-mobile',
    });
    const merged = mergeFindings([...a, ...b]);
    expect(merged.map((m) => [m.ruleId, m.elementSelector, m.data.alsoFlaggedBy])).toEqual([
      ['target-size', '#x', ['target-size-mobile']],
      ['target-size-mobile', '#y', undefined],
    ]);
    // Same element, different criteria: two issues.
    const c = findingsFromAxe([rule('link-name', ['wcag2a', 'wcag244'], [{ target: ['#x'] }])], 'confirmed');
    expect(mergeFindings([...a, ...c])).toHaveLength(2);
  });

  it('keeps passed rules with their criterion for positive findings', () => {
    expect(passedRules([rule('document-title', ['wcag2a', 'wcag242'], [{ target: ['html'] }]), rule('region', ['best-practice'], [])])).toEqual([
      { ruleId: 'document-title', help: 'document-title help', wcagCriterion: '2.4.2', elements: 1 },
    ]);
  });

  it('fingerprints page, rule and normalised selector', () => {
    const a = fingerprint('https://x.test/', 'image-alt', '#a  >  img');
    expect(a).toBe(fingerprint('https://x.test/', 'image-alt', '#a > img'));
    expect(a).not.toBe(fingerprint('https://x.test/other', 'image-alt', '#a > img'));
    expect(a).not.toBe(fingerprint('https://x.test/', 'role-img-alt', '#a > img'));
  });

  it('keeps the identity issues had before states and viewports when neither applies', () => {
    // The value issues were stored under before issue 30: sha256 of "url\nrule\nselector", 40 hex digits.
    expect(fingerprint('https://x.test/', 'image-alt', '#a > img')).toBe('79d9cee4f04c8bc57f050caae2311e183486c6c7');
    expect(fingerprint('https://x.test/', 'image-alt', '#a > img', { state: null, viewport: null })).toBe(fingerprint('https://x.test/', 'image-alt', '#a > img'));
  });

  it('tells apart the same element in another interaction state or viewport', () => {
    const base = fingerprint('https://x.test/', 'image-alt', '#a > img');
    const menu = { action: 'click' as const, target: '#menu-button', label: 'Menu' };
    const inMenu = fingerprint('https://x.test/', 'image-alt', '#a > img', { state: menu });
    expect(inMenu).not.toBe(base);
    // The label is the trigger's text, which may change wording: the identity follows the trigger.
    expect(fingerprint('https://x.test/', 'image-alt', '#a > img', { state: { ...menu, label: 'Open menu' } })).toBe(inMenu);
    expect(fingerprint('https://x.test/', 'image-alt', '#a > img', { state: { ...menu, target: '#other' } })).not.toBe(inMenu);
    const mobile = fingerprint('https://x.test/', 'image-alt', '#a > img', { viewport: 'mobile' });
    expect(new Set([base, mobile, fingerprint('https://x.test/', 'image-alt', '#a > img', { viewport: 'desktop' }), fingerprint('https://x.test/', 'image-alt', '#a > img', { viewport: 768 })]).size).toBe(4);
    expect(fingerprint('https://x.test/', 'image-alt', '#a > img', { state: menu, viewport: 'mobile' })).not.toBe(inMenu);
  });

  describe('what the engine measured', () => {
    type Node = AxeRuleResult['nodes'][number];
    const node = (html: string, any: Node['any'] = [], extra: Partial<Node> = {}): Node => ({ target: ['#x'], html, any, all: [], none: [], ...extra });

    it('keeps the colours, ratios and font of a contrast failure', () => {
      const n = node('<p class="low" id="lc">Hard to read</p>', [
        {
          id: 'color-contrast',
          data: { fgColor: '#aaaaaa', bgColor: '#ffffff', contrastRatio: 2.32, fontSize: '12.0pt (16px)', fontWeight: 'normal', messageKey: null, expectedContrastRatio: '4.5:1', shadowColor: undefined },
          message: 'Element has insufficient color contrast of 2.32',
        },
      ]);
      expect(engineFacts('color-contrast', n, 'confirmed')).toEqual({
        contrast: { fgColor: '#aaaaaa', bgColor: '#ffffff', contrastRatio: 2.32, expectedContrastRatio: '4.5:1', fontSize: '12.0pt (16px)', fontWeight: 'normal' },
        element: { tag: 'p', id: 'lc', text: 'Hard to read' },
      });
    });

    it('keeps why a contrast check needs review, and drops the ratio axe could not measure', () => {
      const n = node('<p class="bgimg">Over an image</p>', [
        { id: 'color-contrast', data: { contrastRatio: 0, fontSize: '12.0pt (16px)', fontWeight: 'normal', messageKey: 'bgImage', expectedContrastRatio: '4.5:1' }, message: "Element's background color could not be determined due to a background image" },
      ]);
      const facts = engineFacts('color-contrast', n, 'needs_review');
      expect(facts.contrast).toEqual({ expectedContrastRatio: '4.5:1', fontSize: '12.0pt (16px)', fontWeight: 'normal' });
      expect(facts.review).toEqual({ messageKey: 'bgImage', reason: "Element's background color could not be determined due to a background image" });
      // Confirmed findings carry no review reason.
      expect(engineFacts('color-contrast', n, 'confirmed').review).toBeUndefined();
    });

    it('keeps the measured target size and spacing', () => {
      const n = node('<button class="tiny" id="a">A</button>', [
        { id: 'target-size', data: { minSize: 24, width: 16, height: 16 }, message: 'Target has insufficient size' },
        { id: 'target-offset', data: { closestOffset: 8, minOffset: 24 }, message: 'Target has insufficient space' },
      ]);
      expect(engineFacts('target-size', n, 'confirmed')).toEqual({
        target: { minSize: 24, width: 16, height: 16, closestOffset: 8, minOffset: 24 },
        element: { tag: 'button', id: 'a', text: 'A' },
      });
      // The mobile pass reports under another id; the facts follow the engine's rule.
      const [d] = findingsFromAxe(
        [{ id: 'target-size', impact: 'serious', tags: ['wcag22aa', 'wcag258'], description: 'd', help: 'h', nodes: [n] }],
        'confirmed',
        { ruleIdFor: () => 'target-size-mobile', data: { viewport: '390x844' } },
      );
      expect(d!.data).toMatchObject({ viewport: '390x844', engineRuleId: 'target-size', target: { width: 16, height: 16, minSize: 24 } });
    });

    it('parses image sources, field attributes, link text and href, and lang from the HTML', () => {
      expect(engineFacts('image-alt', node('<img src="/photos/red-bicycle.jpg" id="no-alt" width="40">'), 'confirmed')).toEqual({
        element: { tag: 'img', id: 'no-alt', src: '/photos/red-bicycle.jpg' },
      });
      expect(engineFacts('input-image-alt', node('<input type="image" src="/i/search-icon.png" name="go">'), 'confirmed').element).toEqual({
        tag: 'input',
        name: 'go',
        src: '/i/search-icon.png',
      });
      expect(engineFacts('label', node('<input type="email" id="email" name="email" placeholder="">'), 'confirmed').element).toEqual({
        tag: 'input',
        id: 'email',
        name: 'email',
        type: 'email',
      });
      expect(engineFacts('select-name', node('<select name="country"><option>Norway</option></select>'), 'confirmed').element).toEqual({ tag: 'select', name: 'country' });
      expect(engineFacts('link-name', node('<a href="/contact/"><svg></svg></a>'), 'confirmed').element).toEqual({ tag: 'a', href: '/contact/', hasChildElements: true });
      // The custom check's own data (accessible name, full href) wins over the shortened HTML.
      const generic = node('<a id="v" href="/reports/annual...">Click   <b>here</b></a>', [
        { id: 'a11y-audit-link-text-descriptive', data: { name: 'Click here', href: '/reports/annual-report-2025.pdf' }, message: 'Link text "Click here" does not describe where the link goes' },
      ]);
      expect(engineFacts('link-text-generic', generic, 'confirmed').element).toEqual({
        tag: 'a',
        id: 'v',
        href: '/reports/annual-report-2025.pdf',
        text: 'Click here',
        hasChildElements: true,
        truncated: true,
      });
      expect(engineFacts('html-lang-valid', node('<html lang="english">'), 'confirmed').element).toEqual({ tag: 'html', lang: 'english' });
      expect(engineFacts('html-has-lang', node('<html class="js">'), 'confirmed').element).toEqual({ tag: 'html' });
      // Rules without specific texts keep nothing extra.
      expect(engineFacts('button-name', node('<button id="b"></button>'), 'confirmed')).toEqual({});
    });

    it('decodes entities, collapses whitespace and caps what it keeps', () => {
      const long = 'word '.repeat(200);
      const facts = engineFacts('color-contrast', node(`<p id="a&amp;b">  Fish &amp; chips\n  ${long}</p>`), 'confirmed');
      expect(facts.element!.id).toBe('a&b');
      expect(facts.element!.text!.startsWith('Fish & chips word')).toBe(true);
      expect(facts.element!.text!.length).toBeLessThanOrEqual(160);
      const src = `/img/${'a'.repeat(2000)}.png`;
      expect(engineFacts('image-alt', node(`<img src="${src}">`), 'confirmed').element!.src!.length).toBeLessThanOrEqual(500);
      // Script text is never taken for visible text.
      expect(parseElement('<p>Hi<script>alert(1)</script></p>')!.text).toBe('Hi');
      // JSON-safe: what goes to the database survives a round trip unchanged.
      expect(JSON.parse(JSON.stringify(facts))).toEqual(facts);
    });

    it('stores the facts in each finding\'s data next to the existing fields', () => {
      const [d] = findingsFromAxe(
        [
          {
            id: 'image-alt',
            impact: 'critical',
            tags: ['wcag2a', 'wcag111'],
            description: 'd',
            help: 'h',
            nodes: [node('<img src="/a/b/cat-on-sofa.webp" id="cat">', [{ id: 'has-alt', data: null, message: 'Element does not have an alt attribute' }])],
          },
        ],
        'confirmed',
        { data: { blockedRequests: 2 } },
      );
      expect(d!.data).toEqual({ blockedRequests: 2, element: { tag: 'img', id: 'cat', src: '/a/b/cat-on-sofa.webp' } });
    });
  });
});
