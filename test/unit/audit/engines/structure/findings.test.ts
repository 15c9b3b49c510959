import { describe, expect, it } from 'vitest';
import { structureFindings } from '../../../../../src/audit/engines/structure/structure.engine.ts';
import { STRUCTURE_GUIDES as GUIDES } from '../../../../../src/shared/rules/structure.ts';
import type { StructureFacts } from '../../../../../src/audit/engines/structure/facts.ts';

const facts = (over: Partial<StructureFacts>): StructureFacts => ({
  tables: [],
  headings: [],
  lists: [],
  images: [],
  sensory: [],
  generated: [],
  hiddenContent: [],
  spacers: [],
  backgrounds: [],
  context: { buttonNames: [], navCount: 0, headingTexts: [], bodyFontSize: 16 },
  examined: {},
  ...over,
});

describe('structure findings', () => {
  it('confirms an alt that is the image’s own path, with the measured values in data', () => {
    const [f, ...rest] = structureFindings(
      facts({
        images: [{ ref: { selector: 'img', html: '<img>' }, tag: 'img', alt: '../_images/chart.png', title: null, src: '../_images/chart.png', role: null, ariaHidden: false, svgText: null, name: null, inControl: null, width: 300, height: 200, alone: false, inHeading: false, logo: false, infoHint: null, figureCaption: null }],
      }),
    );
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ ruleId: 'image-alt-filename', type: 'confirmed', wcagCriterion: '1.1.1', wcagLevel: 'A', elementSelector: 'img' });
    expect(f!.failureSummary).toBe('The text alternative "../_images/chart.png" is the image\'s own file path.');
    expect(f!.data.image).toEqual({ alt: '../_images/chart.png', src: '../_images/chart.png', kind: 'own-src' });
  });

  it('bounds page text kept in data', () => {
    const long = `Find the menu on the right ${'and more words '.repeat(40)}`;
    const [f] = structureFindings(facts({ sensory: [{ ref: { selector: 'p', html: '<p>' }, text: long }] }));
    expect(f!.ruleId).toBe('sensory-reference');
    expect(JSON.stringify(f!.data).length).toBeLessThan(400);
  });

  it('reports every empty header cell of a data table on the cell itself', () => {
    const cell = (n: number) => ({ selector: `th:nth-child(${n})`, html: '<th></th>' });
    const out = structureFindings(
      facts({
        tables: [
          {
            ref: { selector: 'table', html: '<table>' }, role: null, rows: 3, cols: 3, th: 4, td: 4, caption: false, summary: false, scope: false, headersAttr: false, headerRoles: false,
            theadRows: 1, theadTextTd: 0, theadTh: 3, bodyRowsWithText: 2, firstRowStyled: false, firstColStyled: false, firstRowLabels: false, numericShare: 0, longCells: 0,
            layout: [], singleRowBlocks: false, nestedIn: null, outerHasTh: false, emptyTh: [cell(1), cell(2)],
            headerRows: 1, rowHeaderLevels: 0, spanningTh: false, raggedRows: 0, wideRows: 0, usualWidth: 3,
          },
        ],
      }),
    );
    expect(out.map((f) => [f.ruleId, f.elementSelector, f.type])).toEqual([
      ['table-empty-header', 'th:nth-child(1)', 'needs_review'],
      ['table-empty-header', 'th:nth-child(2)', 'needs_review'],
    ]);
  });

  it('reports meaningful CSS generated text with the text in the evidence, and leaves decoration alone', () => {
    const g = (text: string, font = 'serif') => ({ ref: { selector: `.x${text.length}`, html: '<p>' }, pseudo: 'before' as const, text, rule: '.fact::before', count: 2, font });
    const out = structureFindings(facts({ generated: [g('Fact: '), g('» '), g('\u{e001}'), g('home', 'FontAwesome'), g('“')] }));
    expect(out.map((f) => [f.ruleId, f.type, f.wcagCriterion])).toEqual([['css-generated-content', 'needs_review', '1.3.1']]);
    expect(out[0]!.failureSummary).toContain('"Fact:"');
    expect(out[0]!.data.generated).toMatchObject({ text: 'Fact:', elements: 2 });
  });

  it('reports spacers once per region and only from two on', () => {
    const sp = (emptyBlocks: number, brRuns: number) => ({ ref: { selector: `p${emptyBlocks}${brRuns}`, html: '<p>' }, region: 'main', emptyBlocks, brRuns });
    const out = structureFindings(facts({ spacers: [sp(1, 0), sp(2, 1)] }));
    expect(out.map((f) => [f.ruleId, f.elementSelector])).toEqual([['spacer-markup', 'p21']]);
    expect(out[0]!.failureSummary).toContain('2 empty paragraphs or blank blocks and 1 run of three or more line breaks');
  });

  it('has a guide for each rule it can report', () => {
    for (const g of Object.values(GUIDES)) {
      expect(g.who.length).toBeGreaterThan(20);
      expect(g.fix.length).toBeGreaterThan(20);
    }
  });
});
