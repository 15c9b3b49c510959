/**
 * The drawing surface the layout engine builds on: a vertical cursor over buffered pages,
 * cancellation checkpoints, text measured and drawn in the report's styles, structure elements
 * and marked content (PDF/UA tagging) or artifacts, and runs of stacked text ("parts").
 *
 * Rules it keeps: every piece of content is either marked content of a structure element or an
 * artifact, never both and never nested (pdfkit closes open marked content when an artifact
 * starts, so decorations are always drawn before the text they sit under); every structure
 * element is ended (an unended one makes `doc.end()` hang).
 */
import { type Doc, FONT_ID } from './document.ts';
import { COLORS, type TextStyle, withStyle } from './styles.ts';

export type StructElem = PDFKit.PDFStructureElement;

/** One run of text in a block: stacked vertically, optionally on a shaded box. */
export interface Part {
  text: string;
  style: TextStyle;
  /** Space after this part. */
  gap?: number;
  /** Background box (an artifact) behind this part. */
  fill?: string;
}

/** Padding inside a part's background box. */
export const BOX_PAD = 4;

interface StructOptions {
  alt?: string;
  bbox?: [number, number, number, number];
  scope?: 'Row' | 'Column' | 'Both';
  title?: string;
  lang?: string;
}

export class Canvas {
  readonly doc: Doc;
  readonly root: StructElem;
  readonly pageW: number;
  readonly pageH: number;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly width: number;
  y: number;
  #stopped: unknown = null;
  #onStop: Array<(err: unknown) => void> = [];

  constructor(doc: Doc) {
    this.doc = doc;
    const page = doc.page;
    this.pageW = page.width;
    this.pageH = page.height;
    this.left = page.margins.left;
    this.right = page.width - page.margins.right;
    this.top = page.margins.top;
    this.bottom = page.height - page.margins.bottom;
    this.width = this.right - this.left;
    this.y = this.top;
    this.root = doc.struct('Document');
    doc.addStructure(this.root);
  }

  // ---- cancellation ------------------------------------------------------------------------

  /** Records why rendering must stop; the next checkpoint throws it. */
  stop(err: unknown): void {
    if (this.#stopped) return;
    this.#stopped = err;
    for (const f of this.#onStop.splice(0)) f(err);
  }

  onStop(f: (err: unknown) => void): void {
    if (this.#stopped) f(this.#stopped);
    else this.#onStop.push(f);
  }

  throwIfStopped(): void {
    if (this.#stopped) throw this.#stopped;
  }

  /** Lets the event loop run (other requests, the abort signal, a closed socket), then goes on or throws. */
  async checkpoint(): Promise<void> {
    this.throwIfStopped();
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.throwIfStopped();
  }

  // ---- pages and cursor --------------------------------------------------------------------

  /** Index of the page being laid out (pages are buffered, first is 0). */
  get pageIndex(): number {
    const r = this.doc.bufferedPageRange();
    return r.start + r.count - 1;
  }

  get contentHeight(): number {
    return this.bottom - this.top;
  }

  get remaining(): number {
    return this.bottom - this.y;
  }

  get atPageTop(): boolean {
    return this.y <= this.top + 0.5;
  }

  newPage(): void {
    this.doc.addPage();
    this.y = this.top;
  }

  /** Starts a new page unless `h` points fit below the cursor. Returns whether it did. */
  ensure(h: number): boolean {
    if (this.y + h > this.bottom + 0.01 && !this.atPageTop) {
      this.newPage();
      return true;
    }
    return false;
  }

  /** Vertical space, dropped at the top of a page. */
  space(h: number): void {
    if (!this.atPageTop) this.y = Math.min(this.y + h, this.bottom);
  }

  // ---- text primitives ---------------------------------------------------------------------

  style(s: TextStyle): void {
    this.doc.font(FONT_ID[s.font]).fontSize(s.size).fillColor(s.color);
  }

  measure(text: string, s: TextStyle, width: number): number {
    if (!text) return 0;
    this.style(s);
    return this.doc.heightOfString(text, { width, lineGap: s.lineGap });
  }

  widthOf(text: string, s: TextStyle): number {
    this.style(s);
    return this.doc.widthOfString(text);
  }

  /** Draws wrapped text at (x, y) and returns the height used. */
  draw(text: string, x: number, y: number, width: number, s: TextStyle): number {
    if (!text) return 0;
    this.style(s);
    this.doc.text(text, x, y, { width, lineGap: s.lineGap, align: s.align ?? 'left' });
    return this.doc.y - y;
  }

  /** One line, never wrapped (labels in charts, running headers): the caller makes it fit. */
  drawLine(text: string, x: number, y: number, s: TextStyle, opts: { width?: number; align?: 'left' | 'right' | 'center' } = {}): void {
    if (!text) return;
    this.style(s);
    let tx = x;
    if (opts.width != null && opts.align && opts.align !== 'left') {
      const w = this.doc.widthOfString(text);
      tx = opts.align === 'right' ? x + opts.width - w : x + (opts.width - w) / 2;
    }
    this.doc.text(text, tx, y, { lineBreak: false });
  }

  /** Shortens `text` with an ellipsis until it fits `width` on one line. */
  fit(text: string, s: TextStyle, width: number): string {
    if (this.widthOf(text, s) <= width) return text;
    const cps = Array.from(text);
    let lo = 0;
    let hi = cps.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (this.doc.widthOfString(`${cps.slice(0, mid).join('')}\u2026`) <= width) lo = mid;
      else hi = mid - 1;
    }
    return `${cps.slice(0, lo).join('').trimEnd()}\u2026`;
  }

  // ---- structure ---------------------------------------------------------------------------

  /** A structure element added to `parent` (already attached: its content can be drawn now). */
  el(parent: StructElem, type: string, opts?: StructOptions): StructElem {
    const e = opts ? this.doc.struct(type, opts as PDFKit.Mixins.StructureElementOptions) : this.doc.struct(type);
    parent.add(e);
    return e;
  }

  /** Draws content as marked content of `elem`. */
  mark(elem: StructElem, tag: string, draw: () => void): void {
    const content = this.doc.markStructureContent(tag);
    try {
      draw();
    } finally {
      this.doc.endMarkedContent();
    }
    elem.add(content);
  }

  /** A leaf element: created, its content drawn, ended. */
  leaf(parent: StructElem, type: string, draw: () => void, opts?: StructOptions): StructElem {
    const e = this.el(parent, type, opts);
    this.mark(e, type, draw);
    e.end();
    return e;
  }

  /** Decoration or page furniture, outside the structure tree. */
  artifact(draw: () => void, type: 'Layout' | 'Pagination' = 'Layout'): void {
    this.doc.markContent('Artifact', { type });
    try {
      this.doc.save();
      draw();
      this.doc.restore();
    } finally {
      this.doc.endMarkedContent();
    }
  }

  rect(x: number, y: number, w: number, h: number, fill: string, radius = 0): void {
    this.artifact(() => {
      this.doc.fillColor(fill);
      if (radius) this.doc.roundedRect(x, y, w, h, radius).fill();
      else this.doc.rect(x, y, w, h).fill();
    });
  }

  hrule(y: number, color: string = COLORS.rule, lineWidth = 0.5, x1 = this.left, x2 = this.right): void {
    this.artifact(() => {
      this.doc.strokeColor(color).lineWidth(lineWidth).moveTo(x1, y).lineTo(x2, y).stroke();
    });
  }

  // ---- stacked runs of text ------------------------------------------------------------

  /** Height of stacked parts in a column of `width` (boxes included). */
  measureParts(parts: Part[], width: number, align?: 'left' | 'right' | 'center'): number {
    let h = 0;
    parts.forEach((p, i) => {
      const inner = p.fill ? width - 2 * BOX_PAD : width;
      h += this.measure(runText(parts, i, align), p.style, inner) + (p.fill ? 2 * BOX_PAD : 0);
      if (i < parts.length - 1) h += p.gap ?? 0;
    });
    return h;
  }

  /** Fills behind parts (artifacts): call before the parts' marked content is opened. */
  partFills(parts: Part[], x: number, y: number, width: number): void {
    let yy = y;
    parts.forEach((p, i) => {
      const inner = p.fill ? width - 2 * BOX_PAD : width;
      const h = this.measure(runText(parts, i), p.style, inner) + (p.fill ? 2 * BOX_PAD : 0);
      if (p.fill && p.text) this.rect(x, yy, width, h, p.fill, 2);
      yy += h + (p.gap ?? 0);
    });
  }

  /** The parts' text (inside an open marked-content sequence). */
  partTexts(parts: Part[], x: number, y: number, width: number, align?: 'left' | 'right' | 'center'): number {
    let yy = y;
    parts.forEach((p, i) => {
      const s = align ? withStyle(p.style, { align }) : p.style;
      const t = runText(parts, i, align);
      if (p.fill) yy += this.draw(t, x + BOX_PAD, yy + BOX_PAD, width - 2 * BOX_PAD, s) + 2 * BOX_PAD;
      else yy += this.draw(t, x, yy, width, s);
      if (i < parts.length - 1) yy += p.gap ?? 0;
    });
    return yy - y;
  }

}

/**
 * A part's text as drawn: runs stacked in one element get a trailing space (invisible) so that the
 * extracted text of the element reads as words, not "Titlerule-id". Not for right/centred runs.
 */
function runText(parts: Part[], i: number, align?: 'left' | 'right' | 'center'): string {
  const t = parts[i]!.text;
  return i < parts.length - 1 && t && (!align || align === 'left') ? `${t} ` : t;
}
