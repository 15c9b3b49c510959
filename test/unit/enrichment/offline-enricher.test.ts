import { describe, expect, it } from 'vitest';
import { contrastRatio, parseHex } from '../../../src/enrichment/colour.ts';
import { createOfflineEnricher, describeFinding, destinationName, MAX_DESCRIPTION, MAX_FIX, suggestLang, summarise, topPriorities, withAttribute, wordsFrom } from '../../../src/enrichment/offline-enricher.ts';
import type { EnrichableFinding } from '../../../src/shared/summary.ts';
import type { FindingRecord } from '../../../src/shared/findings.ts';

const finding = (over: Partial<EnrichableFinding> = {}): EnrichableFinding => ({
  id: 'f1',
  ruleId: 'image-alt',
  type: 'confirmed',
  severity: 'critical',
  wcagCriterion: '1.1.1',
  wcagLevel: 'A',
  elementSelector: '#logo',
  engineHelp: 'Images must have alternative text',
  engineDescription: 'Ensures <img> elements have alternate text',
  failureSummary: 'Fix any of the following:\n  Element does not have an alt attribute',
  ...over,
});

describe('offline enricher', () => {
  it('explains who is affected, the criterion, and how to fix this element', () => {
    const t = describeFinding(finding());
    expect(t.description).toContain('Screen reader users');
    expect(t.description).toContain('WCAG 1.1.1 Non-text Content (Level A)');
    expect(t.fixSuggestion).toContain('alt attribute');
    expect(t.fixSuggestion).toContain('#logo');
    expect(t.fixSuggestion).toContain('Element does not have an alt attribute');
    expect(describeFinding(finding({ type: 'needs_review' })).description).toContain('a person should confirm');
  });

  it('summarises with priorities worst first and positive findings only for criteria without issues', () => {
    const s = summarise({
      pageTitle: 'Home',
      url: 'https://x.test/',
      score: 72,
      findings: [
        finding(),
        finding({ id: 'f2', elementSelector: '#hero' }),
        finding({ id: 'f3', ruleId: 'color-contrast', severity: 'serious', wcagCriterion: '1.4.3', wcagLevel: 'AA', engineHelp: 'Elements must meet minimum color contrast ratio thresholds' }),
      ],
      passes: [
        { ruleId: 'document-title', help: 'Documents must have <title> element', wcagCriterion: '2.4.2', elements: 1 },
        { ruleId: 'image-alt', help: 'Images must have alternative text', wcagCriterion: '1.1.1', elements: 4 },
      ],
    });
    expect(s.overallScore).toBe(72);
    expect(s.summary).toContain('"Home" scores 72/100');
    expect(s.topPriorities.map((p) => [p.wcagCriterion, p.severity, p.issueCount])).toEqual([
      ['1.1.1', 'critical', 2],
      ['1.4.3', 'serious', 1],
    ]);
    expect(s.positiveFindings.map((p) => p.wcagCriterion)).toEqual(['2.4.2']);
  });

  it('says plainly when nothing was found', () => {
    const s = summarise({ pageTitle: null, url: 'https://x.test/', score: 100, findings: [], passes: [] });
    expect(s.summary).toContain('no WCAG 2.2 A or AA failures');
    expect(s.topPriorities).toEqual([]);
  });

  it('keeps its generic text for rules without element-specific facts', () => {
    const t = describeFinding(finding({ ruleId: 'button-name', wcagCriterion: '4.1.2', engineHelp: 'Buttons must have discernible text', failureSummary: 'Fix any of the following:\n  Element does not have inner text', elementSelector: '#b', elementHtml: '<button id="b"></button>', data: {} }));
    expect(t.description).toContain('announced only as "button"');
    expect(t.fixSuggestion).toContain('For this element (#b): Fix any of the following');
  });
});

/** The code line after a lead-in line ending in `lead`: how a tool takes the suggestion out of the text. */
function codeAfter(text: string, lead: string): string | undefined {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.trimEnd().endsWith(lead));
  if (i < 0) return undefined;
  return lines.slice(i + 1).find((l) => l.trim() !== '')?.trim();
}

describe('element-specific offline texts', () => {
  const page = { url: 'https://shop.example/news/', title: 'News – Example shop' };
  const base = (over: Partial<EnrichableFinding>): EnrichableFinding => finding({ failureSummary: 'Fix any of the following: x', ...over });

  it('contrast: measured and required ratio, both colours, the nearest passing colour and a CSS rule', () => {
    const f = base({
      ruleId: 'color-contrast',
      severity: 'serious',
      wcagCriterion: '1.4.3',
      wcagLevel: 'AA',
      elementSelector: '#low-contrast',
      elementHtml: '<p class="low" id="low-contrast">This text is hard to read.</p>',
      data: {
        contrast: { fgColor: '#aaaaaa', bgColor: '#ffffff', contrastRatio: 2.32, expectedContrastRatio: '4.5:1', fontSize: '12.0pt (16px)', fontWeight: 'normal' },
        element: { tag: 'p', id: 'low-contrast', text: 'This text is hard to read.' },
      },
    });
    const t = describeFinding(f, page);
    expect(t.description).toContain('"This text is hard to read."');
    expect(t.description).toContain('2.32:1');
    expect(t.description).toContain('4.5:1');
    expect(t.description).toContain('#aaaaaa');
    expect(t.description).toContain('#ffffff');
    expect(t.description).toMatch(/low vision/);
    expect(t.description).toContain('WCAG 1.4.3');
    expect(t.fixSuggestion).toContain('#767676 (4.54:1)');
    expect(codeAfter(t.fixSuggestion, 'Add this CSS:')).toBe('#low-contrast { color: #767676; }');
  });

  it('contrast: large text needs 3:1, and a coloured text keeps its hue', () => {
    const t = describeFinding(
      base({
        ruleId: 'color-contrast',
        wcagCriterion: '1.4.3',
        elementSelector: 'iframe#promo >>> h2.title',
        data: { contrast: { fgColor: '#f4b183', bgColor: '#ffffff', contrastRatio: 1.83, expectedContrastRatio: '3:1', fontSize: '21.0pt (28px)', fontWeight: 'bold' } },
      }),
    );
    expect(t.description).toContain('needs at least 3:1 (large text)');
    const css = codeAfter(t.fixSuggestion, 'Add this CSS (the element is inside a frame or shadow root: put the CSS in that document or component):')!;
    const colour = /color: (#[0-9a-f]{6});/.exec(css)![1]!;
    expect(css.startsWith('h2.title {')).toBe(true);
    expect(contrastRatio(parseHex(colour)!, parseHex('#ffffff')!)).toBeGreaterThanOrEqual(3);
    expect(t.fixSuggestion).toContain(`${colour} (3.01:1)`);
  });

  it('contrast needing review: says why and asks for a manual check, without inventing colours', () => {
    const t = describeFinding(
      base({
        ruleId: 'color-contrast',
        type: 'needs_review',
        wcagCriterion: '1.4.3',
        data: {
          contrast: { expectedContrastRatio: '4.5:1' },
          review: { messageKey: 'bgImage', reason: "Element's background color could not be determined due to a background image" },
        },
      }),
    );
    expect(t.description).toContain('due to a background image');
    expect(t.description).toContain('a person should confirm');
    expect(t.fixSuggestion).toContain('Check by hand');
    expect(t.fixSuggestion).not.toMatch(/#[0-9a-f]{6}/);
  });

  it('images: the corrected <img> with an alt suggested from the file name, marked as a suggestion', () => {
    const t = describeFinding(
      base({ elementSelector: '#bike', elementHtml: '<img src="/images/red_bicycle-2025@2x.jpg" width="40" id="bike">', data: { element: { tag: 'img', id: 'bike', src: '/images/red_bicycle-2025@2x.jpg' } } }),
    );
    expect(t.description).toContain('"/images/red_bicycle-2025@2x.jpg"');
    expect(t.description).toContain('Screen reader users');
    expect(t.fixSuggestion).toContain('only a suggestion');
    expect(codeAfter(t.fixSuggestion, 'Replace the element with:')).toBe('<img src="/images/red_bicycle-2025@2x.jpg" width="40" id="bike" alt="Red bicycle 2025">');
    expect(t.fixSuggestion).toContain('alt=""');
  });

  it('images: a placeholder, clearly marked, when the file name says nothing; image buttons name the action', () => {
    const t = describeFinding(base({ elementHtml: '<img src="/u/IMG_4032.JPG">', data: { element: { tag: 'img', src: '/u/IMG_4032.JPG' } } }));
    expect(codeAfter(t.fixSuggestion, 'Replace the element with:')).toBe('<img src="/u/IMG_4032.JPG" alt="Describe what the image shows">');
    expect(t.fixSuggestion).toContain('replace the placeholder');
    const b = describeFinding(
      base({ ruleId: 'input-image-alt', elementHtml: '<input type="image" src="/i/search-icon.png">', data: { element: { tag: 'input', src: '/i/search-icon.png' } } }),
    );
    expect(codeAfter(b.fixSuggestion, 'Replace the element with:')).toBe('<input type="image" src="/i/search-icon.png" alt="Search">');
  });

  it('form fields: a <label for> when the field has an id, a wrapping label when it has none', () => {
    const withId = describeFinding(
      base({
        ruleId: 'label',
        wcagCriterion: '4.1.2',
        elementSelector: '#email',
        elementHtml: '<input type="email" id="email" name="user[email_address]">',
        data: { element: { tag: 'input', id: 'email', name: 'user[email_address]', type: 'email' } },
      }),
    );
    expect(withId.description).toContain('email field (id "email", name "user[email_address]")');
    expect(withId.description).toMatch(/screen reader users/i);
    expect(codeAfter(withId.fixSuggestion, 'Add before the element:')).toBe('<label for="email">User email address</label>');
    expect(withId.fixSuggestion).toContain('suggestion');

    const noId = describeFinding(
      base({ ruleId: 'label', wcagCriterion: '4.1.2', elementHtml: '<input type="search" name="site-search">', data: { element: { tag: 'input', name: 'site-search', type: 'search' } } }),
    );
    expect(codeAfter(noId.fixSuggestion, 'Replace the element with:')).toBe('<label>Site search <input type="search" name="site-search"></label>');

    const checkbox = describeFinding(base({ ruleId: 'label', elementHtml: '<input type="checkbox" id="terms-ok">', data: { element: { tag: 'input', id: 'terms-ok', type: 'checkbox' } } }));
    expect(codeAfter(checkbox.fixSuggestion, 'Add after the element:')).toBe('<label for="terms-ok">Terms ok</label>');

    const select = describeFinding(base({ ruleId: 'select-name', elementHtml: '<select id="c-7f3a9b"><option>A</option></select>', data: { element: { tag: 'select', id: 'c-7f3a9b' } } }));
    expect(codeAfter(select.fixSuggestion, 'Add before the element:')).toBe('<label for="c-7f3a9b">Choose an option</label>');
    expect(select.fixSuggestion).toContain('is a placeholder');
  });

  it('small targets: the size measured, the padding and the min-width/min-height that reach 24×24', () => {
    const t = describeFinding(
      base({
        ruleId: 'target-size',
        wcagCriterion: '2.5.8',
        elementSelector: '#tiny-a',
        elementHtml: '<button class="tiny" id="tiny-a">A</button>',
        data: { target: { minSize: 24, width: 16, height: 18.4, closestOffset: 8, minOffset: 24 }, element: { tag: 'button', id: 'tiny-a', text: 'A' } },
      }),
    );
    expect(t.description).toContain('measures 16 × 18.4 CSS px');
    expect(t.description).toContain('8px');
    expect(t.description).toMatch(/dexterity/);
    expect(t.fixSuggestion).toContain('8px more width (4px more padding on the left and right)');
    expect(t.fixSuggestion).toContain('5.6px more height (3px more padding on the top and bottom)');
    expect(codeAfter(t.fixSuggestion, 'Add this CSS:')).toBe('#tiny-a { min-width: 24px; min-height: 24px; }');

    // Only the short side; inline links need a box for min sizes to apply; the mobile pass says so.
    const link = describeFinding(
      base({
        ruleId: 'target-size-mobile',
        wcagCriterion: '2.5.8',
        elementSelector: 'nav > a:nth-child(2)',
        elementHtml: '<a href="/x">Terms</a>',
        data: { viewport: '390x844', target: { minSize: 24, width: 40, height: 17 }, element: { tag: 'a', text: 'Terms' } },
      }),
    );
    expect(link.description).toContain('at the 390px-wide mobile view');
    expect(codeAfter(link.fixSuggestion, 'Add this CSS:')).toBe('nav > a:nth-child(2) { display: inline-block; min-height: 24px; }');
  });

  it('vague links: quotes the link text and rewrites it to name the destination', () => {
    const t = describeFinding(
      base({
        ruleId: 'link-text-generic',
        wcagCriterion: '2.4.4',
        elementSelector: '#vague',
        elementHtml: '<a id="vague" href="/reports/annual-report-2025.pdf">Click here</a>',
        data: { element: { tag: 'a', id: 'vague', href: '/reports/annual-report-2025.pdf', text: 'Click here' } },
      }),
      page,
    );
    expect(t.description).toContain('The link text "Click here"');
    expect(t.description).toMatch(/screen reader users/i);
    expect(codeAfter(t.fixSuggestion, 'Replace the element with:')).toBe('<a id="vague" href="/reports/annual-report-2025.pdf">Annual report 2025 (PDF)</a>');
    expect(t.fixSuggestion).toContain('suggestion');

    // Links with icons keep their content: an aria-label that starts with the visible words.
    const icon = describeFinding(
      base({
        ruleId: 'link-text-generic',
        type: 'needs_review',
        elementHtml: '<a href="https://docs.example.org/guides/getting-started">More <svg></svg></a>',
        data: { element: { tag: 'a', href: 'https://docs.example.org/guides/getting-started', text: 'More', hasChildElements: true } },
      }),
      page,
    );
    expect(icon.description).toContain('vague on its own');
    expect(codeAfter(icon.fixSuggestion, 'Add this attribute to the element:')).toBe('aria-label="More: Getting started on docs.example.org"');
  });

  it('links without a name and pages without a language get their corrected markup', () => {
    const empty = describeFinding(base({ ruleId: 'link-name', wcagCriterion: '2.4.4', elementHtml: '<a href="/contact-us/"></a>', data: { element: { tag: 'a', href: '/contact-us/' } } }), page);
    expect(codeAfter(empty.fixSuggestion, 'Replace the element with:')).toBe('<a href="/contact-us/">Contact us</a>');
    const noLang = describeFinding(base({ ruleId: 'html-has-lang', wcagCriterion: '3.1.1', elementHtml: '<html class="js">', data: { element: { tag: 'html' } } }));
    expect(codeAfter(noLang.fixSuggestion, 'Replace the start tag with:')).toBe('<html class="js" lang="en">');
    const badLang = describeFinding(base({ ruleId: 'html-lang-valid', wcagCriterion: '3.1.1', elementHtml: '<html lang="en_GB">', data: { element: { tag: 'html', lang: 'en_GB' } } }));
    expect(badLang.description).toContain('lang="en_GB"');
    expect(codeAfter(badLang.fixSuggestion, 'Replace the start tag with:')).toBe('<html lang="en-GB">');
  });

  it('keeps every text within its length cap, even for huge inputs', () => {
    const huge = 'x'.repeat(5000);
    for (const ruleId of ['color-contrast', 'image-alt', 'label', 'target-size', 'link-text-generic', 'link-name', 'html-lang-valid', 'button-name']) {
      const t = describeFinding(
        base({
          ruleId,
          engineHelp: huge,
          failureSummary: huge,
          elementSelector: huge,
          elementHtml: `<a id="${huge}" href="/${huge}">${huge}</a>`,
          data: {
            contrast: { fgColor: '#aaaaaa', bgColor: '#ffffff', contrastRatio: 2.3, expectedContrastRatio: '4.5:1' },
            target: { minSize: 24, width: 10, height: 10 },
            element: { tag: 'a', id: huge, href: `/${huge}`, text: huge, src: huge, lang: huge, name: huge },
          },
        }),
        page,
      );
      expect(t.description.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
      expect(t.fixSuggestion.length).toBeLessThanOrEqual(MAX_FIX);
    }
  });

  it('never fails on odd or missing data: falls back to the generic text', () => {
    for (const data of [undefined, {}, { contrast: 'x' }, { target: { width: 'a' } }, { element: { tag: 5 } }, { element: null }]) {
      const t = describeFinding(base({ ruleId: 'target-size', data: data as Record<string, unknown> | undefined }));
      expect(t.fixSuggestion).toContain('24 by 24');
    }
  });
});

describe('helpers', () => {
  it('turns file names and ids into words', () => {
    expect(wordsFrom('red-bicycle.jpg')).toBe('Red bicycle');
    expect(wordsFrom('Annual_Report%202025.pdf')).toBe('Annual report 2025');
    expect(wordsFrom('heroBanner-1200x600@2x.webp')).toBe('Hero banner');
    expect(wordsFrom('IMG_20230101_123456.jpg')).toBeUndefined();
    expect(wordsFrom('a8f3e9c2b1d4.png')).toBeUndefined();
  });

  it('names link destinations from the title, address or page', () => {
    expect(destinationName('/about/team/', undefined)).toEqual({ text: 'Team', from: 'its address' });
    expect(destinationName('/', undefined)).toEqual({ text: 'Home page', from: 'its address' });
    expect(destinationName('https://www.example.org/', undefined, { url: 'https://shop.test/', title: null })?.text).toBe('Example.org home page');
    expect(destinationName('#opening-hours', undefined, { url: 'https://shop.test/visit', title: 'Visit' })?.text).toBe('Opening hours');
    expect(destinationName('/x', 'Our price list', undefined)).toEqual({ text: 'Our price list', from: 'its title attribute' });
    expect(destinationName('mailto:help@shop.test', undefined)?.text).toBe('Email help@shop.test');
    expect(destinationName('javascript:void(0)', undefined)).toBeUndefined();
  });

  it('sets one attribute on the original start tag and keeps everything else', () => {
    expect(withAttribute('<img src="a.png" title="an alt text">', 'alt', 'A "b"')).toBe('<img src="a.png" title="an alt text" alt="A &quot;b&quot;">');
    expect(withAttribute('<img alt src="a.png" />', 'alt', 'x')).toBe('<img src="a.png" alt="x" />');
    expect(withAttribute('<html class="js" lang=english>', 'lang', 'en')).toBe('<html class="js" lang="en">');
    expect(withAttribute('<img src="aaaaaaaaaaaaaaaaaaaa..." ...>', 'alt', 'x')).toBeUndefined();
  });

  it('suggests valid language tags for common mistakes', () => {
    expect(suggestLang('english')).toBe('en');
    expect(suggestLang('EN_us')).toBe('en-US');
    expect(suggestLang('pt-br')).toBe('pt-BR');
    expect(suggestLang('klingon language')).toBeUndefined();
  });
});

describe('page priorities and the offline enricher', () => {
  it('ranks by severity and reach: many different templates can outrank one element of the next severity', () => {
    const one = finding({ id: 'a', ruleId: 'image-alt', severity: 'critical', groupKey: 'g-img' });
    const contrast = ['nav', 'footer', 'card', 'hero'].map((g, i) =>
      finding({ id: `c${i}`, ruleId: 'color-contrast', severity: 'serious', wcagCriterion: '1.4.3', engineHelp: 'Contrast', groupKey: `g-${g}` }),
    );
    const sameTemplate = [1, 2, 3, 4, 5, 6].map((i) =>
      finding({ id: `t${i}`, ruleId: 'target-size', severity: 'serious', wcagCriterion: '2.5.8', engineHelp: 'Targets', groupKey: 'g-pager' }),
    );
    const review = finding({ id: 'r', ruleId: 'label', severity: 'critical', type: 'needs_review', wcagCriterion: '4.1.2', groupKey: 'g-form' });
    const top = topPriorities([review, ...sameTemplate, one, ...contrast]);
    expect(top.map((p) => [p.wcagCriterion, p.issueCount])).toEqual([
      ['1.4.3', 4], // serious × 4 templates
      ['1.1.1', 1], // critical × 1
      ['2.5.8', 6], // serious, 6 elements of one template
      ['4.1.2', 1], // needs review only: last
    ]);
    expect(top[0]!.reason).toContain('4 elements affected in 4 different places or patterns');
    expect(top[2]!.reason).toContain('6 elements affected, all alike');
    expect(top[1]!.reason).toContain('1 element affected');
    // Two templates are not reach enough to outrank the next severity up.
    const two = contrast.slice(0, 2);
    expect(topPriorities([...two, one]).map((p) => p.severity)).toEqual(['critical', 'serious']);
  });

  it('groups by template from the element HTML when findings carry no group key', () => {
    const f = (id: string, sel: string) =>
      finding({ id, ruleId: 'target-size', severity: 'serious', elementSelector: sel, elementHtml: `<button class="page" id="${sel.slice(1)}">1</button>` });
    const [p] = topPriorities([f('1', '#p-1'), f('2', '#p-2'), f('3', '#p-3')]);
    expect(p!.reason).toContain('all alike');
  });

  it('describes every member of a group, offline, at no cost', async () => {
    const enricher = createOfflineEnricher();
    expect(enricher.name).toBe('offline');
    const member = (id: string, href: string): FindingRecord =>
      ({
        ...finding({ id, ruleId: 'link-text-generic', wcagCriterion: '2.4.4', elementHtml: `<a href="${href}">Read more</a>`, data: { element: { tag: 'a', href, text: 'Read more' } } }),
        pageScanId: 's',
        groupKey: 'g',
        fingerprint: id,
        description: '',
        fixSuggestion: '',
        helpUrl: null,
        enrichedBy: null,
        createdAt: new Date(),
      }) as FindingRecord;
    const { texts, usage } = await enricher.describeGroup({
      groupKey: 'g',
      scope: 'site:shop',
      members: [member('m1', '/news/price-cuts'), member('m2', '/news/new-shop')],
      page: { url: 'https://shop.test/', title: 'Shop' },
    });
    expect(usage).toEqual({ calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 });
    expect(texts.map((t) => t.id)).toEqual(['m1', 'm2']);
    expect(texts.every((t) => t.enrichedBy === 'offline')).toBe(true);
    expect(texts[0]!.fixSuggestion).toContain('>Price cuts</a>');
    expect(texts[1]!.fixSuggestion).toContain('>New shop</a>');
    const aborted = new AbortController();
    aborted.abort();
    await expect(enricher.describeGroup({ groupKey: 'g', scope: 'site:shop', members: [member('m1', '/a')], page: { url: 'https://shop.test/', title: null } }, { signal: aborted.signal })).rejects.toThrow();
  });
});
