/**
 * Where a tagged element is drawn on its page. A structure element points at the page's marked
 * content by number (MCID), and the structure tree rarely carries a bounding box, so the region is
 * measured from the drawing itself: the text pdf.js extracts inside that marked content, and the
 * images and filled or stroked paths its operator list draws there, each through the current
 * transformation matrix. Runs in the document worker thread, on a page pdf.js has open.
 */
import type { PdfRect } from './pdf-facts.ts';

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m × n, as PDF composes a `cm` onto the current matrix (n first). */
const multiply = (m: Matrix, n: Matrix): Matrix => [
  n[0] * m[0] + n[1] * m[2],
  n[0] * m[1] + n[1] * m[3],
  n[2] * m[0] + n[3] * m[2],
  n[2] * m[1] + n[3] * m[3],
  n[4] * m[0] + n[5] * m[2] + m[4],
  n[4] * m[1] + n[5] * m[3] + m[5],
];

const isMatrix = (a: unknown): a is Matrix => (Array.isArray(a) || ArrayBuffer.isView(a)) && (a as ArrayLike<unknown>).length === 6 && Array.from(a as ArrayLike<unknown>).every((n) => typeof n === 'number' && Number.isFinite(n));

/** The box of a rectangle (x1, y1, x2, y2) after the matrix. */
function transformBox(m: Matrix, x1: number, y1: number, x2: number, y2: number): PdfRect {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [[x1, y1], [x2, y1], [x1, y2], [x2, y2]] as const) {
    xs.push(m[0] * x + m[2] * y + m[4]);
    ys.push(m[1] * x + m[3] * y + m[5]);
  }
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Grows a box to hold another; null stays empty. */
class Region {
  box: PdfRect | null = null;
  add(r: PdfRect): void {
    if (!r.every(Number.isFinite)) return;
    this.box = this.box ? [Math.min(this.box[0], r[0]), Math.min(this.box[1], r[1]), Math.max(this.box[2], r[2]), Math.max(this.box[3], r[3])] : r;
  }
}

/** The MCID of a text-content marker id (`p12_mc3` → 3), or null. */
export const mcidOf = (id: unknown): number | null => {
  const m = typeof id === 'string' ? /_mc(\d+)$/.exec(id) : null;
  return m ? Number(m[1]) : null;
};

/** The operators that matter here, by name (pdf.js's `OPS`). */
export type OpCodes = Record<string, number>;

interface RegionPage {
  getTextContent(o: { includeMarkedContent: boolean }): Promise<{ items: unknown[] }>;
  getOperatorList(): Promise<{ fnArray: ArrayLike<number>; argsArray: ArrayLike<unknown> }>;
  view: number[];
}

/** Operators visited per page: a content stream can be endless on purpose. */
const MAX_OPS = 200_000;

/**
 * The box around everything drawn inside the given marked-content ids on a page, in PDF units,
 * clipped to the page; null when nothing measurable is drawn there.
 */
export async function regionOf(page: RegionPage, mcids: ReadonlySet<number>, OPS: OpCodes): Promise<PdfRect | null> {
  if (mcids.size === 0) return null;
  const region = new Region();

  // Text: pdf.js places each run with its matrix; its width and height are in page units.
  const content = await page.getTextContent({ includeMarkedContent: true }).catch(() => ({ items: [] as unknown[] }));
  const open: Array<number | null> = [];
  for (const raw of content.items) {
    const it = raw as Record<string, unknown>;
    if (it.type === 'beginMarkedContentProps' || it.type === 'beginMarkedContent') open.push(mcidOf(it.id));
    else if (it.type === 'endMarkedContent') open.pop();
    else if (typeof it.str === 'string' && it.str.trim() && open.some((m) => m !== null && mcids.has(m)) && isMatrix(it.transform)) {
      const [, , , , e, f] = it.transform;
      const w = typeof it.width === 'number' ? it.width : 0;
      const h = typeof it.height === 'number' ? it.height : 0;
      region.add([e, f, e + w, f + h]);
    }
  }

  // Images and painted paths, through the current transformation matrix.
  const ops = await page.getOperatorList().catch(() => null);
  if (ops) {
    const imageOps = new Set(['paintImageXObject', 'paintInlineImageXObject', 'paintImageMaskXObject', 'paintJpegXObject', 'paintSolidColorImageMask'].map((n) => OPS[n]));
    const stack: Matrix[] = [];
    const marked: Array<number | null> = [];
    let ctm: Matrix = IDENTITY;
    const inside = () => marked.some((m) => m !== null && mcids.has(m));
    const n = Math.min(ops.fnArray.length, MAX_OPS);
    for (let i = 0; i < n; i++) {
      const fn = ops.fnArray[i];
      const args = ops.argsArray[i] as unknown[] | null;
      if (fn === OPS.save) stack.push(ctm);
      else if (fn === OPS.restore) ctm = stack.pop() ?? IDENTITY;
      else if (fn === OPS.transform && isMatrix(args)) ctm = multiply(ctm, Array.from(args) as Matrix);
      else if (fn === OPS.paintFormXObjectBegin) {
        stack.push(ctm);
        if (isMatrix(args?.[0])) ctm = multiply(ctm, Array.from(args[0] as ArrayLike<number>) as Matrix);
      } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? IDENTITY;
      else if (fn === OPS.beginMarkedContentProps) marked.push(typeof args?.[1] === 'number' ? args[1] : null);
      else if (fn === OPS.beginMarkedContent) marked.push(null);
      else if (fn === OPS.endMarkedContent) marked.pop();
      else if (!inside()) continue;
      else if (imageOps.has(fn)) region.add(transformBox(ctm, 0, 0, 1, 1));
      else if (fn === OPS.constructPath && args && args[0] !== OPS.endPath) {
        // A path that is painted (a clip-only path ends with endPath): its box, before the matrix.
        const mm = args[2] as ArrayLike<number> | null;
        if (mm && mm.length === 4 && Number.isFinite(mm[0]) && mm[0]! <= mm[2]!) region.add(transformBox(ctm, mm[0]!, mm[1]!, mm[2]!, mm[3]!));
      }
    }
  }

  if (!region.box) return null;
  // Clipped to the page: a figure drawn partly off the page is outlined where it shows.
  const [vx1, vy1, vx2, vy2] = page.view as [number, number, number, number];
  const [x1, y1, x2, y2] = region.box;
  const clipped: PdfRect = [Math.max(x1, vx1), Math.max(y1, vy1), Math.min(x2, vx2), Math.min(y2, vy2)];
  return clipped[0] < clipped[2] && clipped[1] < clipped[3] ? clipped : null;
}
