/**
 * Tables: TR > TH/TD with a shaded header row, repeated (as an artifact) on every continuation page
 * because pdfkit does not repeat it, row rules, optional row headers, and a Link for a cell's last
 * part when the cell has an http(s) `link`.
 */
import { type Canvas, type Part, type StructElem } from './canvas.ts';
import { isHttpUrl } from './format.ts';
import { COLORS, STYLES, type TextStyle, withStyle } from './styles.ts';

export interface Column {
  header: string;
  width: number;
  align?: 'left' | 'right' | 'center';
}

/** A cell: text, styled text, or stacked parts; with `link`, the last part is a Link to that URL. */
export type CellInput = string | { parts: Part[]; link?: string } | { text: string; style?: Partial<TextStyle> };

export interface RowInput {
  cells: CellInput[];
  fill?: string;
}

export interface TableOptions {
  header?: boolean;
  /** The first cell of each row is a row header (TH scope Row). */
  rowHeaders?: boolean;
  gapAfter?: number;
  bodyStyle?: TextStyle;
}

const PAD_X = 5;
const PAD_Y = 3.5;

/** Draws a table at the cursor of `L`, breaking pages between rows. */
export async function drawTable(L: Canvas, parent: StructElem, cols: Column[], rows: Iterable<RowInput>, opts: TableOptions = {}): Promise<void> {
  const header = opts.header ?? true;
  const bodyStyle = opts.bodyStyle ?? STYLES.cell;
  const table = L.el(parent, 'Table');
  const xs: number[] = [];
  let acc = L.left;
  for (const c of cols) {
    xs.push(acc);
    acc += c.width;
  }
  const tableW = acc - L.left;
  const headParts = cols.map((c) => [{ text: c.header, style: STYLES.cellHead }] as Part[]);
  const headH = header ? Math.max(...headParts.map((p, j) => L.measureParts(p, cols[j]!.width - 2 * PAD_X))) + 2 * PAD_Y + 1 : 0;

  const drawHeader = (repeat: boolean) => {
    const y0 = L.y;
    L.artifact(() => {
      L.doc.fillColor(COLORS.headFill).rect(L.left, y0, tableW, headH).fill();
      L.doc.strokeColor(COLORS.ruleStrong).lineWidth(0.8).moveTo(L.left, y0 + headH).lineTo(L.left + tableW, y0 + headH).stroke();
    });
    if (repeat) {
      L.artifact(() => {
        cols.forEach((c, j) => L.partTexts(headParts[j]!, xs[j]! + PAD_X, y0 + PAD_Y, c.width - 2 * PAD_X, c.align));
      });
    } else {
      const tr = L.el(table, 'TR');
      cols.forEach((c, j) => {
        L.leaf(tr, 'TH', () => L.partTexts(headParts[j]!, xs[j]! + PAD_X, y0 + PAD_Y, c.width - 2 * PAD_X, c.align), { scope: 'Column' });
      });
      tr.end();
    }
    L.y = y0 + headH;
  };

  let first = true;
  let i = 0;
  for (const row of rows) {
    const cells = row.cells.map((c) => toParts(c, bodyStyle));
    const rowH = Math.max(...cells.map((p, j) => L.measureParts(p, cols[j]!.width - 2 * PAD_X, cols[j]!.align))) + 2 * PAD_Y;
    if (first) {
      L.ensure(headH + rowH);
      if (header) drawHeader(false);
      first = false;
    } else if (L.y + rowH > L.bottom) {
      L.newPage();
      if (header) drawHeader(true);
    }
    const y0 = L.y;
    L.artifact(() => {
      if (row.fill) L.doc.fillColor(row.fill).rect(L.left, y0, tableW, rowH).fill();
      L.doc.strokeColor(COLORS.rule).lineWidth(0.5).moveTo(L.left, y0 + rowH).lineTo(L.left + tableW, y0 + rowH).stroke();
    });
    const tr = L.el(table, 'TR');
    cells.forEach((parts, j) => {
      const th = opts.rowHeaders && j === 0;
      const c = cols[j]!;
      const x = xs[j]! + PAD_X;
      const w = c.width - 2 * PAD_X;
      const input = row.cells[j];
      const link = typeof input === 'object' && 'link' in input && input.link && isHttpUrl(input.link) ? input.link : null;
      if (!link || th) {
        L.leaf(tr, th ? 'TH' : 'TD', () => L.partTexts(parts, x, y0 + PAD_Y, w, c.align), th ? { scope: 'Row' } : undefined);
        return;
      }
      const td = L.el(tr, 'TD');
      const before = parts.slice(0, -1);
      const last = parts.slice(-1);
      let ly = y0 + PAD_Y;
      if (before.length) {
        L.mark(td, 'TD', () => L.partTexts(before, x, ly, w, c.align));
        ly += L.measureParts(parts, w, c.align) - L.measureParts(last, w, c.align);
      }
      const lk = L.el(td, 'Link');
      L.mark(lk, 'Link', () => L.partTexts(last, x, ly, w, c.align));
      const lh = L.measureParts(last, w);
      const lw = Math.min(w, L.widthOf(last[0]?.text ?? '', last[0]?.style ?? bodyStyle));
      const annotation = { structParent: lk, Contents: new String(`Open ${last[0]?.text ?? link}`) };
      L.doc.link(x, ly, lw, lh, link, annotation as unknown as PDFKit.Mixins.AnnotationOption);
      lk.end();
      td.end();
    });
    tr.end();
    L.y = y0 + rowH;
    if (++i % 25 === 0) await L.checkpoint();
  }
  if (first && header) {
    L.ensure(headH);
    drawHeader(false);
  }
  table.end();
  L.y += opts.gapAfter ?? 10;
}

function toParts(c: CellInput, base: TextStyle): Part[] {
  if (typeof c === 'string') return [{ text: c, style: base }];
  if ('parts' in c) return c.parts;
  return [{ text: c.text, style: withStyle(base, c.style) }];
}
