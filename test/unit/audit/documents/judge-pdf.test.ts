import { describe, expect, it } from 'vitest';
import { judgePdf } from '../../../../src/audit/documents/judge-pdf.ts';
import type { PdfFacts } from '../../../../src/audit/documents/pdf-facts.ts';
import { ruleEntry } from '../../../../src/shared/rules/index.ts';

/** A tagged, titled, one-page document with a language and text: nothing to find. */
function facts(over: Partial<PdfFacts> = {}): PdfFacts {
  return {
    pageCount: 1,
    pagesRead: 1,
    version: '1.7',
    title: 'Annual report 2025',
    displayDocTitle: true,
    lang: 'en-GB',
    marked: true,
    tagged: true,
    bookmarks: 0,
    headings: 1,
    accessibilityBlocked: false,
    figures: [],
    tables: [],
    links: [],
    fields: [],
    text: [{ page: 1, chars: 800, unmappable: 0 }],
    imageOnlyPages: [],
    tabOrder: [],
    showsSecret: false,
    ...over,
  };
}

const rules = (f: PdfFacts) => judgePdf(f).findings.map((x) => `${x.ruleId}:${x.type}`).sort();

describe('the document audit judges a PDF from its facts', () => {
  it('finds nothing in a tagged, titled document with a language, and reports what passed', () => {
    const { findings, passes } = judgePdf(facts());
    expect(findings).toEqual([]);
    expect(passes.map((p) => p.ruleId)).toEqual(expect.arrayContaining(['pdf-untagged', 'pdf-title-missing', 'pdf-title-not-displayed', 'pdf-lang-missing', 'pdf-no-text-layer']));
  });

  it('confirms an untagged document with no title or language under 1.3.1, 2.4.2 and 3.1.1', () => {
    const found = judgePdf(facts({ tagged: false, marked: false, title: null, displayDocTitle: null, lang: null })).findings;
    expect(found.map((f) => [f.ruleId, f.type, f.wcagCriterion])).toEqual([
      ['pdf-untagged', 'confirmed', '1.3.1'],
      ['pdf-title-missing', 'confirmed', '2.4.2'],
      ['pdf-lang-missing', 'confirmed', '3.1.1'],
    ]);
    for (const f of found) expect(f.elementSelector).toBe('pdf:document');
  });

  it('leaves to a person what the file cannot show: tags not declared, a title not displayed, a long document without headings or bookmarks', () => {
    const long = facts({ marked: false, displayDocTitle: null, pageCount: 12, pagesRead: 12, headings: 0, bookmarks: 0, text: Array.from({ length: 12 }, (_, i) => ({ page: i + 1, chars: 2000, unmappable: 0 })) });
    expect(rules(long)).toEqual(['pdf-bookmarks-missing:needs_review', 'pdf-headings-missing:needs_review', 'pdf-title-not-displayed:needs_review', 'pdf-untagged:needs_review']);
    // Short, or with headings and bookmarks: nothing to ask.
    expect(rules(facts({ pageCount: 2, headings: 0 }))).toEqual([]);
    expect(rules({ ...long, marked: true, displayDocTitle: true, headings: 4, bookmarks: 4 })).toEqual([]);
  });

  it('confirms scanned pages (an image, no text) under 1.1.1 and 1.3.1, unless a figure on the page has alternative text', () => {
    const scan = facts({ pageCount: 3, pagesRead: 3, tagged: false, imageOnlyPages: [1, 2, 3], text: [1, 2, 3].map((page) => ({ page, chars: 0, unmappable: 0 })) });
    const found = judgePdf(scan).findings.find((f) => f.ruleId === 'pdf-no-text-layer')!;
    expect(found).toMatchObject({ type: 'confirmed', severity: 'critical', wcagCriteria: ['1.1.1', '1.3.1'], data: { pages: [1, 2, 3] } });
    expect(found.engineDescription).toMatch(/no text at all/);
    const described = facts({ imageOnlyPages: [1], figures: [{ page: 1, path: 'Document[1]/Figure[1]', marked: [], alt: 'A map of the district' }] });
    expect(rules(described)).toEqual([]);
  });

  it('confirms figures without alternative text and data tables without header cells, each at its page and structure path', () => {
    const found = judgePdf(
      facts({
        figures: [
          { page: 2, path: 'Document[1]/Figure[1]', marked: [], alt: null },
          { page: 2, path: 'Document[1]/Figure[2]', marked: [], alt: 'Sales by quarter, rising from 2 to 5 million' },
        ],
        tables: [
          { page: 3, path: 'Document[1]/Table[1]', marked: [], rows: 4, columns: 3, headerCells: 0 },
          { page: 3, path: 'Document[1]/Table[2]', marked: [], rows: 4, columns: 3, headerCells: 3 },
          { page: 3, path: 'Document[1]/Table[3]', marked: [], rows: 1, columns: 5, headerCells: 0 },
        ],
      }),
    ).findings;
    expect(found.map((f) => [f.ruleId, f.elementSelector, f.type])).toEqual([
      ['pdf-figure-alt-missing', 'page 2: Document[1]/Figure[1]', 'confirmed'],
      ['pdf-table-headers-missing', 'page 3: Document[1]/Table[1]', 'confirmed'],
    ]);
  });

  it('names links and fields by page and position; a link is described by its tag text or its /Contents, a field by its /TU', () => {
    const found = judgePdf(
      facts({
        links: [
          { page: 1, rect: null, id: '10R', url: 'https://example.org/a', contents: null, tagged: true, text: 'Terms of use' },
          { page: 1, rect: [72, 700, 200, 714], id: '11R', url: 'https://example.org/b', contents: null, tagged: false, text: null },
          { page: 1, rect: null, id: '12R', url: null, contents: 'Go to chapter 2', tagged: false, text: null },
          { page: 2, rect: null, id: '13R', url: 'https://example.org/c', contents: null, tagged: true, text: null },
        ],
        fields: [
          { page: 1, rect: null, id: '20R', fieldType: 'Tx', description: 'Your full name', hidden: false, name: 'name' },
          { page: 1, rect: [100, 600, 300, 620], id: '21R', fieldType: 'Tx', description: null, hidden: false, name: 'field_2' },
          { page: 1, rect: null, id: '22R', fieldType: 'Tx', description: null, hidden: true, name: 'calc' },
          { page: 1, rect: null, id: '23R', fieldType: 'Sig', description: null, hidden: false, name: 'sig' },
        ],
      }),
    ).findings;
    expect(found.map((f) => [f.ruleId, f.elementSelector])).toEqual([
      ['pdf-link-description-missing', 'page 1: link 2'],
      ['pdf-link-description-missing', 'page 2: link 1'],
      ['pdf-field-description-missing', 'page 1: field 2'],
    ]);
    expect(found[0]!.wcagCriteria).toEqual(['2.4.4', '4.1.2']);
  });

  it('confirms text that maps to no Unicode and permissions that shut out assistive technology', () => {
    const found = judgePdf(
      facts({
        accessibilityBlocked: true,
        pageCount: 2,
        pagesRead: 2,
        text: [
          { page: 1, chars: 900, unmappable: 850 },
          { page: 2, chars: 900, unmappable: 3 },
        ],
      }),
    ).findings;
    expect(found.map((f) => f.ruleId)).toEqual(['pdf-text-unmappable', 'pdf-access-blocked']);
    expect(found[0]!.data).toMatchObject({ pages: [1] });
  });

  it('confirms a figure whose alternative text is a file name or a placeholder word (F30), and asks about a vaguer word', () => {
    const found = judgePdf(
      facts({
        figures: [
          { page: 1, path: 'Document[1]/Figure[1]', marked: [4], alt: 'image1.png' },
          { page: 1, path: 'Document[1]/Figure[2]', marked: [], alt: 'Picture 3' },
          { page: 1, path: 'Document[1]/Figure[3]', marked: [], alt: 'IMG_20240101' },
          { page: 1, path: 'Document[1]/Figure[4]', marked: [], alt: 'Icon' },
          { page: 1, path: 'Document[1]/Figure[5]', marked: [], alt: 'Photograph of the new library building from the park' },
        ],
      }),
    ).findings;
    expect(found.map((f) => [f.ruleId, f.elementSelector, f.type])).toEqual([
      ['pdf-figure-alt-meaningless', 'page 1: Document[1]/Figure[1]', 'confirmed'],
      ['pdf-figure-alt-meaningless', 'page 1: Document[1]/Figure[2]', 'confirmed'],
      ['pdf-figure-alt-meaningless', 'page 1: Document[1]/Figure[3]', 'confirmed'],
      ['pdf-figure-alt-meaningless', 'page 1: Document[1]/Figure[4]', 'needs_review'],
    ]);
    // The picture outlines where the figure's marked content is drawn.
    expect(found[0]!.data).toMatchObject({ picture: { page: 1, marked: [4] } });
    expect(found[0]!.wcagCriterion).toBe('1.1.1');
  });

  describe('tab order (PDF3): Tab must visit links and fields in the order the tags read them', () => {
    // Three fields, tagged top to bottom; listed in /Annots bottom first.
    const fields = [
      { page: 1, rect: [72, 700, 300, 720] as [number, number, number, number], id: '1R', fieldType: 'Tx', description: 'Name', hidden: false, name: 'name' },
      { page: 1, rect: [72, 650, 300, 670] as [number, number, number, number], id: '2R', fieldType: 'Tx', description: 'Street', hidden: false, name: 'street' },
      { page: 1, rect: [320, 650, 540, 670] as [number, number, number, number], id: '3R', fieldType: 'Tx', description: 'Town', hidden: false, name: 'town' },
    ];
    const page = (tabs: string | null, annotationOrder: string[], structureOrder = ['1R', '2R', '3R']) => facts({ fields, tabOrder: [{ page: 1, tabs, annotationOrder, structureOrder }] });

    it('passes /Tabs /S whatever the listing, and a listing that already follows the tags', () => {
      expect(rules(page('S', ['3R', '2R', '1R']))).toEqual([]);
      expect(rules(page(null, ['1R', '2R', '3R']))).toEqual([]);
      expect(judgePdf(page('S', ['3R', '2R', '1R'])).passes.map((p) => p.ruleId)).toContain('pdf-tab-order');
    });

    it('confirms a stated row or column order that departs from the tags, and says where', () => {
      // Row order reads Name, Street, Town: the tags' order. Tags that read Town before Street depart from it.
      expect(rules(page('R', ['3R', '2R', '1R']))).toEqual([]);
      const row = judgePdf(page('R', ['1R', '2R', '3R'], ['1R', '3R', '2R'])).findings[0]!;
      expect(row).toMatchObject({ ruleId: 'pdf-tab-order', type: 'confirmed', wcagCriterion: '2.4.3', elementSelector: 'page 1: tab order' });
      expect(row.failureSummary).toMatch(/\/Tabs \/R \(row order\).*3rd .* before the 2nd/);
      // Column order reads Name, Street (left column), then Town.
      expect(rules(page('C', ['1R', '2R', '3R'], ['1R', '3R', '2R']))).toEqual(['pdf-tab-order:confirmed']);
      expect(rules(page('C', ['3R', '1R', '2R']))).toEqual([]);
    });

    it('asks a person when the page states no order and its listing departs from the tags', () => {
      expect(rules(page(null, ['3R', '1R', '2R']))).toEqual(['pdf-tab-order:needs_review']);
      // Fewer than two tagged annotations: nothing to compare.
      expect(rules(page(null, ['3R', '1R', '2R'], ['1R']))).toEqual([]);
    });
  });

  it('keeps the file\'s own strings short in what it reports', () => {
    const found = judgePdf(facts({ displayDocTitle: false, title: 'x'.repeat(500) })).findings[0]!;
    expect(found.elementHtml.length).toBeLessThan(200);
  });

  it('reports every rule under a criterion of its catalogue entry (ownFinding refuses anything else)', () => {
    const all = judgePdf(
      facts({ tagged: false, marked: false, title: null, lang: null, accessibilityBlocked: true, imageOnlyPages: [1], links: [{ page: 1, rect: null, id: '1R', url: null, contents: null, tagged: false, text: null }] }),
    ).findings;
    for (const f of all) expect(ruleEntry(f.ruleId)?.engine).toBe('document');
  });
});
