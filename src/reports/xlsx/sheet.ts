/**
 * What every sheet is made of: the shared cell styles, column specs with widths fitted to the first
 * rows, rows written and committed one by one, and table sheets (frozen bold header, autofilter,
 * hyperlinks up to Excel's limit), streamed from row batches or written from a list.
 */
import type ExcelJS from 'exceljs';
import { safeCell, safeHyperlink, type SafeCellValue } from '../safe-cell.ts';
import { forEachBatch, type Guard } from './guard.ts';

/** Excel allows 65,530 hyperlinks per sheet; past this many, URLs are written as plain text. */
export const MAX_HYPERLINKS_PER_SHEET = 65_000;
/** Rows written between two turns given back to the event loop. */
export const ROWS_PER_TURN = 250;
/** Rows looked at to fit the column widths of a streamed sheet. */
export const WIDTH_SAMPLE_ROWS = 500;
export const MAX_COLUMN_WIDTH = 80;

const DATE_FMT = 'yyyy-mm-dd hh:mm:ss';
const DURATION_FMT = '[h]:mm:ss';
const INT_FMT = '#,##0';

export type Style = Partial<ExcelJS.Style>;
export type CellInput = SafeCellValue | ExcelJS.CellHyperlinkValue;

const TOP: Partial<ExcelJS.Alignment> = { vertical: 'top' };
const TOP_WRAP: Partial<ExcelJS.Alignment> = { vertical: 'top', wrapText: true };
// Style objects are shared: exceljs caches a style id per style object, so one object per kind of
// cell keeps the per-cell cost down.
export const STYLE = {
  header: { font: { bold: true }, alignment: TOP_WRAP, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE7E6E6' } } },
  heading: { font: { bold: true, size: 12 }, alignment: TOP },
  text: { alignment: TOP },
  wrap: { alignment: TOP_WRAP },
  int: { alignment: TOP, numFmt: INT_FMT },
  date: { alignment: TOP, numFmt: DATE_FMT },
  duration: { alignment: TOP, numFmt: DURATION_FMT },
  link: { alignment: TOP, font: { color: { argb: 'FF0563C1' }, underline: true } },
} satisfies Record<string, Style>;

type ColumnKind = 'text' | 'wrap' | 'int' | 'date' | 'link';
const KIND_STYLE: Record<ColumnKind, Style> = { text: STYLE.text, wrap: STYLE.wrap, int: STYLE.int, date: STYLE.date, link: STYLE.text };

export interface ColumnSpec<T> {
  header: string;
  kind: ColumnKind;
  get: (row: T) => unknown;
  /** Width cap for this column (default 80; long wrapped texts use less). */
  max?: number;
}

export type Workbook = ExcelJS.stream.xlsx.WorkbookWriter;

export function textWidth(v: unknown): number {
  if (v == null) return 0;
  if (v instanceof Date) return 19;
  if (typeof v === 'number') return Math.min(15, String(Math.round(v * 100) / 100).length + 2);
  const s = typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : String(v);
  let max = 0;
  for (const line of s.split('\n')) max = Math.max(max, line.length);
  return max;
}

function fitWidths<T>(cols: ColumnSpec<T>[], sample: readonly T[]): number[] {
  return cols.map((c) => {
    let w = c.header.length + 3; // room for the filter button
    for (const row of sample) w = Math.max(w, textWidth(c.get(row)) + 2);
    if (c.kind === 'date') w = Math.max(w, 20);
    return Math.min(Math.max(w, 8), c.max ?? MAX_COLUMN_WIDTH);
  });
}

export function addSheet(wb: Workbook, name: string, widths: Array<{ width: number; style: Style }>): ExcelJS.Worksheet {
  const ws = wb.addWorksheet(name, {
    views: [{ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }],
  });
  ws.columns = widths.map((c) => ({ width: c.width, style: c.style }));
  return ws;
}

/** Appends and commits one row; every cell gets one of the shared style objects. */
export function writeRow(ws: ExcelJS.Worksheet, values: readonly CellInput[], styles: readonly Style[]) {
  const row = ws.addRow(values as unknown[]);
  for (let i = 0; i < values.length; i++) {
    const style = styles[i];
    if (style) row.getCell(i + 1).style = style;
  }
  row.commit();
}

/** A table sheet: header row, then rows written and committed one by one. */
export class TableSheet<T> {
  readonly ws: ExcelJS.Worksheet;
  rows = 0;
  private hyperlinks = 0;
  private readonly cols: ColumnSpec<T>[];
  private readonly styles: Style[];

  constructor(wb: Workbook, name: string, cols: ColumnSpec<T>[], sample: readonly T[]) {
    this.cols = cols;
    const widths = fitWidths(cols, sample);
    this.styles = cols.map((c) => KIND_STYLE[c.kind]);
    this.ws = addSheet(
      wb,
      name,
      cols.map((c, i) => ({ width: widths[i]!, style: this.styles[i]! })),
    );
    writeRow(
      this.ws,
      cols.map((c) => c.header),
      cols.map(() => STYLE.header),
    );
  }

  write(row: T) {
    const values: CellInput[] = [];
    const styles: Style[] = [];
    for (const c of this.cols) {
      const raw = c.get(row);
      if (c.kind === 'link') {
        const text = safeCell(raw);
        const target = this.hyperlinks < MAX_HYPERLINKS_PER_SHEET ? safeHyperlink(raw) : null;
        if (target && typeof text === 'string') {
          this.hyperlinks++;
          values.push({ text, hyperlink: target });
          styles.push(STYLE.link);
          continue;
        }
        values.push(text);
      } else {
        values.push(safeCell(raw));
      }
      styles.push(KIND_STYLE[c.kind]);
    }
    writeRow(this.ws, values, styles);
    this.rows++;
  }

  /** Header-and-rows range of the table, e.g. `A1:Q50001`. */
  get range(): { from: string; to: string } {
    return { from: 'A1', to: `${this.ws.getColumn(this.cols.length).letter}${this.rows + 1}` };
  }

  column(header: string): string {
    const i = this.cols.findIndex((c) => c.header === header);
    if (i < 0) throw new Error(`no column ${header}`);
    return this.ws.getColumn(i + 1).letter;
  }

  /** Autofilter over the table, then the rows after it (notes), then the sheet is committed. */
  finish(after: Array<{ values: CellInput[]; styles: Style[] }> = []) {
    this.ws.autoFilter = this.range;
    for (const r of after) writeRow(this.ws, r.values, r.styles);
    this.ws.commit();
  }
}

/** Streams an iterable of row batches into a new table sheet, fitting widths to the first rows. */
export async function streamSheet<T>(
  wb: Workbook,
  guard: Guard,
  name: string,
  cols: ColumnSpec<T>[],
  batches: AsyncIterable<T[]>,
  configure?: (sheet: TableSheet<T>) => void,
): Promise<void> {
  let sheet: TableSheet<T> | null = null;
  let sinceTurn = 0;
  await forEachBatch(batches, guard, async (batch) => {
    sheet ??= new TableSheet(wb, name, cols, batch.slice(0, WIDTH_SAMPLE_ROWS));
    for (const row of batch) {
      sheet.write(row);
      if (++sinceTurn >= ROWS_PER_TURN) {
        sinceTurn = 0;
        await guard.breathe(sheet.ws);
      }
    }
    sinceTurn = 0;
    await guard.breathe(sheet.ws);
  });
  const done: TableSheet<T> = sheet ?? new TableSheet(wb, name, cols, []);
  configure?.(done);
  done.finish();
}

export const joinList = (xs: readonly string[] | null | undefined) => (xs && xs.length ? xs.join(', ') : null);
