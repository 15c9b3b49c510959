import type { TableFact } from './facts.ts';

/** A table problem found on one table (or one of its header cells, see `emptyTh`). */
export type TableVerdict =
  | { rule: 'table-no-headers'; outcome: 'confirmed' | 'needs_review'; evidence: string }
  | { rule: 'layout-table-semantics'; claims: string[]; layout: string[] }
  | { rule: 'layout-table'; layout: string[] }
  | { rule: 'table-nested'; inHeader: boolean }
  | { rule: 'table-empty-header'; count: number }
  | { rule: 'table-complex-headers'; headerRows: number; rowHeaderLevels: number; scope: boolean }
  | { rule: 'table-ragged-rows'; raggedRows: number; wideRows: number; usualWidth: number };

const PRESENTATIONAL = new Set(['presentation', 'none']);

/** Roles that keep a `<table>` a table (or have no role at all). */
function tableRole(role: string | null): boolean {
  return role === null || role === 'table' || role === 'grid' || role === 'treegrid';
}

/** The table looks like page layout rather than data. */
export function layoutSignals(t: TableFact): string[] {
  const out = [...t.layout];
  if (t.singleRowBlocks) out.push('single row of content blocks');
  return out;
}

/** The table declares itself a data table: header cells, caption, summary or scope. */
export function dataClaims(t: TableFact): string[] {
  const out: string[] = [];
  if (t.th > 0) out.push('th');
  if (t.caption) out.push('caption');
  if (t.summary) out.push('summary');
  if (t.scope) out.push('scope');
  if (t.headersAttr) out.push('headers');
  if (t.headerRoles) out.push('header role');
  return out;
}

/**
 * What is wrong with a table's structure, if anything.
 * - `table-no-headers` (1.3.1): a grid of at least two rows and two columns of short texts, no
 *   header markup at all, but a header row or column shown by other means. `confirmed` when the
 *   author put text cells in `<thead>` (declared a header row, yet no cell is a header cell), or
 *   when a first row styled apart holds labels above rows mostly of numbers (two independent
 *   signals, F91); `needs_review` when only styling or only a label row above numbers gives it away.
 * - `layout-table-semantics` (1.3.1): a table laid out as page structure (headings, landmarks,
 *   forms in its cells) that still claims data semantics.
 * - `layout-table` (1.3.2): the same without the claim: its reading order needs a look.
 * - `table-nested` (1.3.1): a table inside a cell of a data table.
 * - `table-empty-header` (1.3.1): header cells of a data table with no text.
 * - `table-complex-headers` (1.3.1, H43): two or more rows of column headers, or two or more
 *   header cells opening the body rows, with no `headers` attribute tying cells to them: whether
 *   each data cell is read with all its headers (scope covers some multi-level tables, not
 *   spanning groups) needs a look with a screen reader; needs review.
 * - `table-ragged-rows` (1.3.1, H51, F91): a table with header cells whose rows are not the same
 *   width in the HTML table model (colspan and rowspan taken): a row wider than the header rows
 *   has cells under no column header, a shorter one leaves headers over nothing; needs review
 *   (a last row of totals can be shorter by design).
 */
export function judgeTable(t: TableFact): TableVerdict[] {
  if (t.role !== null && PRESENTATIONAL.has(t.role)) return [];
  if (!tableRole(t.role)) return [];
  const out: TableVerdict[] = [];
  const layout = layoutSignals(t);
  const claims = dataClaims(t);
  if (layout.length > 0) {
    if (t.nestedIn === null || !t.outerHasTh) {
      const own = claims.filter((c) => c !== 'header role');
      if (own.length > 0) out.push({ rule: 'layout-table-semantics', claims: own, layout });
      // Without data markup, only structure (headings, landmarks, forms) in cells is worth a
      // look: side-by-side columns of lists (an index in columns) read fine cell by cell.
      else if (t.nestedIn === null && t.layout.length > 0) out.push({ rule: 'layout-table', layout: t.layout });
    }
    return out;
  }
  if (t.nestedIn !== null && t.outerHasTh && t.rows >= 2 && t.cols >= 2) out.push({ rule: 'table-nested', inHeader: t.nestedIn === 'th' });
  if (t.emptyTh.length > 0 && t.rows >= 2 && t.td > 0) out.push({ rule: 'table-empty-header', count: t.emptyTh.length });
  if (!t.headersAttr && t.td > 0 && t.rows >= 3 && (t.headerRows >= 2 || t.rowHeaderLevels >= 2)) {
    out.push({ rule: 'table-complex-headers', headerRows: t.headerRows, rowHeaderLevels: t.rowHeaderLevels, scope: t.scope });
  }
  if (t.th > 0 && t.td > 0 && t.rows >= 2 && (t.raggedRows > 0 || t.wideRows > 0)) {
    out.push({ rule: 'table-ragged-rows', raggedRows: t.raggedRows, wideRows: t.wideRows, usualWidth: t.usualWidth });
  }
  const noHeaders = claims.filter((c) => c !== 'caption' && c !== 'summary').length === 0;
  if (noHeaders && t.rows >= 2 && t.cols >= 2 && t.longCells === 0) {
    if (t.theadRows > 0 && t.theadTextTd >= 2 && t.theadTh === 0 && t.bodyRowsWithText >= 1) {
      out.push({ rule: 'table-no-headers', outcome: 'confirmed', evidence: `its <thead> holds ${t.theadTextTd} text cells marked <td>, none <th>` });
    } else if (t.rows >= 3 && t.firstRowStyled && t.firstRowLabels && t.numericShare >= 0.5) {
      // Two signals that do not depend on each other: a first row set apart by its look, and
      // labels in it above numbers. That is a header row shown only visually (F91).
      out.push({
        rule: 'table-no-headers',
        outcome: 'confirmed',
        evidence: `its first row is styled apart from the others and holds labels above rows that are ${Math.round(t.numericShare * 100)}% numbers, a header row shown only by its look`,
      });
    } else if (t.rows >= 3 && t.firstRowStyled && t.firstRowLabels) {
      out.push({ rule: 'table-no-headers', outcome: 'needs_review', evidence: 'its first row is styled differently from the others, like a header row' });
    } else if (t.rows >= 3 && t.firstColStyled) {
      out.push({ rule: 'table-no-headers', outcome: 'needs_review', evidence: 'its first column is styled differently from the others, like row headers' });
    } else if (t.rows >= 3 && t.cols >= 2 && t.firstRowLabels && t.numericShare >= 0.5) {
      out.push({ rule: 'table-no-headers', outcome: 'needs_review', evidence: `its first row holds labels above rows that are ${Math.round(t.numericShare * 100)}% numbers` });
    }
  }
  return out;
}

/** Source of the pattern for numeric cell texts, also used in the page. */
export const NUMERIC_CELL_SOURCE = String.raw`^[\s$£€¥%+\-–−.,:/0-9()]*\d[\s$£€¥%+\-–−.,:/0-9()]*$`;
const NUMERIC = new RegExp(NUMERIC_CELL_SOURCE);

/** A cell text that is a number, amount, percentage, time or numeric date. */
export function isNumericText(s: string): boolean {
  return NUMERIC.test(s.trim());
}
