import { describe, expect, it } from 'vitest';
import type { TableFact } from '../../../../../src/audit/engines/structure/facts.ts';
import { isNumericText, judgeTable } from '../../../../../src/audit/engines/structure/tables.ts';

const ref = { selector: 'table', html: '<table>' };

/** A 3×3 grid of short texts with no markup at all. */
function table(over: Partial<TableFact> = {}): TableFact {
  return {
    ref,
    role: null,
    rows: 3,
    cols: 3,
    th: 0,
    td: 9,
    caption: false,
    summary: false,
    scope: false,
    headersAttr: false,
    headerRoles: false,
    theadRows: 0,
    theadTextTd: 0,
    theadTh: 0,
    bodyRowsWithText: 3,
    firstRowStyled: false,
    firstColStyled: false,
    firstRowLabels: false,
    numericShare: 0,
    longCells: 0,
    layout: [],
    singleRowBlocks: false,
    nestedIn: null,
    outerHasTh: false,
    emptyTh: [],
    headerRows: 0,
    rowHeaderLevels: 0,
    spanningTh: false,
    raggedRows: 0,
    wideRows: 0,
    usualWidth: 3,
    ...over,
  };
}

const rules = (t: TableFact) => judgeTable(t).map((v) => v.rule);

describe('tables without header cells', () => {
  it('confirms a <thead> of <td> text cells above data rows', () => {
    const v = judgeTable(table({ theadRows: 1, theadTextTd: 3, bodyRowsWithText: 2 }));
    expect(v).toEqual([expect.objectContaining({ rule: 'table-no-headers', outcome: 'confirmed' })]);
  });

  it('confirms a first row styled apart that holds labels above numbers (issue 43: two independent signals, F91)', () => {
    expect(judgeTable(table({ firstRowStyled: true, firstRowLabels: true, numericShare: 0.7 }))).toEqual([expect.objectContaining({ rule: 'table-no-headers', outcome: 'confirmed' })]);
    expect(judgeTable(table({ firstRowStyled: true, firstRowLabels: true, numericShare: 0.4 }))).toEqual([expect.objectContaining({ outcome: 'needs_review' })]);
  });

  it('asks for review when only styling or numbers show a header row or column', () => {
    expect(judgeTable(table({ firstRowStyled: true, firstRowLabels: true }))).toEqual([expect.objectContaining({ outcome: 'needs_review' })]);
    expect(judgeTable(table({ firstColStyled: true }))).toEqual([expect.objectContaining({ outcome: 'needs_review' })]);
    expect(judgeTable(table({ firstRowLabels: true, numericShare: 0.8 }))).toEqual([expect.objectContaining({ outcome: 'needs_review' })]);
  });

  it('leaves plain grids, small tables and tables with any header markup alone', () => {
    expect(rules(table())).toEqual([]);
    expect(rules(table({ firstRowLabels: true, numericShare: 0.3 }))).toEqual([]);
    expect(rules(table({ rows: 1, theadRows: 1, theadTextTd: 3, bodyRowsWithText: 0 }))).toEqual([]);
    expect(rules(table({ cols: 1, rows: 2, theadRows: 1, theadTextTd: 1, bodyRowsWithText: 1 }))).toEqual([]);
    for (const markup of [{ th: 3 }, { scope: true }, { headersAttr: true }, { headerRoles: true }] as Partial<TableFact>[]) {
      expect(rules(table({ theadRows: 1, theadTextTd: 3, ...markup }))).toEqual([]);
    }
  });

  it('skips presentational tables, other roles and tables of long text', () => {
    expect(rules(table({ role: 'presentation', theadRows: 1, theadTextTd: 3 }))).toEqual([]);
    expect(rules(table({ role: 'none', theadRows: 1, theadTextTd: 3 }))).toEqual([]);
    expect(rules(table({ role: 'list', theadRows: 1, theadTextTd: 3 }))).toEqual([]);
    expect(rules(table({ longCells: 1, theadRows: 1, theadTextTd: 3 }))).toEqual([]);
  });
});

describe('layout tables', () => {
  it('flags layout tables that claim data semantics', () => {
    expect(judgeTable(table({ layout: ['headings'], th: 1 }))).toEqual([{ rule: 'layout-table-semantics', claims: ['th'], layout: ['headings'] }]);
    expect(rules(table({ singleRowBlocks: true, rows: 1, caption: true }))).toEqual(['layout-table-semantics']);
  });

  it('asks to check the reading order of layout tables with page structure in their cells', () => {
    expect(rules(table({ layout: ['headings'], rows: 1, cols: 2 }))).toEqual(['layout-table']);
    // Columns of lists side by side (an index) read fine cell by cell.
    expect(rules(table({ singleRowBlocks: true, rows: 1, cols: 2 }))).toEqual([]);
    expect(rules(table({ layout: ['headings'], role: 'presentation' }))).toEqual([]);
  });
});

describe('nested tables and empty header cells', () => {
  it('flags a data table inside a cell of another data table', () => {
    expect(judgeTable(table({ nestedIn: 'th', outerHasTh: true, th: 2 }))).toContainEqual({ rule: 'table-nested', inHeader: true });
    expect(rules(table({ nestedIn: 'td', outerHasTh: false, th: 2 }))).toEqual([]);
  });

  it('flags empty header cells of data tables', () => {
    expect(judgeTable(table({ th: 5, emptyTh: [ref] }))).toContainEqual({ rule: 'table-empty-header', count: 1 });
    expect(rules(table({ th: 5, td: 0, emptyTh: [ref] }))).toEqual([]);
  });
});

describe('numeric cells', () => {
  it('recognises numbers, amounts, percentages, times and dates', () => {
    for (const s of ['5', '£6.99', '15%', '08:00 - 12:00', '9/9/2005', '(1,234)', ' -3 ']) expect(isNumericText(s)).toBe(true);
    for (const s of ['April 5', 'Jackie', '', 'n/a']) expect(isNumericText(s)).toBe(false);
  });
});

describe('tables with headers on several levels, and rows of unequal width (issue 43: H43, H51, F91)', () => {
  const data = { th: 3, td: 6, headerRows: 1 };
  it('asks for review of two rows of column headers or two header cells opening rows, without headers attributes', () => {
    expect(rules(table({ ...data, headerRows: 2 }))).toEqual(['table-complex-headers']);
    expect(rules(table({ ...data, rowHeaderLevels: 2 }))).toEqual(['table-complex-headers']);
    expect(judgeTable(table({ ...data, headerRows: 2, scope: true }))).toEqual([expect.objectContaining({ rule: 'table-complex-headers', scope: true })]);
  });

  it('leaves one level of headers, tables tied with headers attributes, and tables of header cells only alone', () => {
    expect(rules(table({ ...data, rowHeaderLevels: 1 }))).toEqual([]);
    expect(rules(table({ ...data, headerRows: 2, headersAttr: true }))).toEqual([]);
    expect(rules(table({ ...data, td: 0, headerRows: 3 }))).toEqual([]);
    expect(rules(table({ ...data, headerRows: 2, rows: 2 }))).toEqual([]);
  });

  it('asks for review of a data table whose rows differ in width, not of a grid without header cells', () => {
    expect(judgeTable(table({ ...data, raggedRows: 1, wideRows: 1 }))).toEqual([expect.objectContaining({ rule: 'table-ragged-rows', raggedRows: 1, wideRows: 1 })]);
    expect(rules(table({ ...data, raggedRows: 2 }))).toEqual(['table-ragged-rows']);
    expect(rules(table({ ...data }))).toEqual([]);
    expect(rules(table({ raggedRows: 1 }))).toEqual([]);
  });
});
