/**
 * A small layout engine over pdfkit for tagged (PDF/UA-minded) reports: a vertical cursor, page
 * breaks it decides itself, and helpers that draw each block inside the right structure element
 * (P, H2, Table > TR > TH/TD, L > LI > Lbl/LBody, Link, Figure) or as an artifact.
 *
 * Rules it keeps: every piece of content is either marked content of a structure element or an
 * artifact, never both and never nested (pdfkit closes open marked content when an artifact
 * starts, so decorations are always drawn before the text they sit under); every structure
 * element is ended (an unended one makes `doc.end()` hang); text is only drawn where it fits,
 * so pdfkit never adds a page on its own except for a paragraph longer than a page.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type PDFDocument from 'pdfkit';
import { isHttpUrl } from './format.ts';

export type Doc = InstanceType<typeof PDFDocument>;
export type StructElem = PDFKit.PDFStructureElement;
export type FontName = 'regular' | 'bold' | 'mono';

const require = createRequire(import.meta.url);
const FONT_FILES: Record<FontName, string> = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  mono: 'dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf',
};
let fontData: Record<FontName, Buffer> | null = null;

/** The three DejaVu faces, read once per process. */
export function fonts(): Record<FontName, Buffer> {
  fontData ??= {
    regular: readFileSync(require.resolve(FONT_FILES.regular)),
    bold: readFileSync(require.resolve(FONT_FILES.bold)),
    mono: readFileSync(require.resolve(FONT_FILES.mono)),
  };
  return fontData;
}

const FONT_ID: Record<FontName, string> = { regular: 'Sans', bold: 'Sans-Bold', mono: 'Mono' };

export function registerFonts(doc: Doc): void {
  const data = fonts();
  for (const name of Object.keys(FONT_ID) as FontName[]) doc.registerFont(FONT_ID[name], data[name]);
  doc.font(FONT_ID.regular);
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeXml = (v: string) => v.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/**
 * pdfkit copies the document info (Title, Subject, ...) into the XMP metadata without escaping it,
 * so a title like "a & b" would make the XMP (which PDF/UA requires for dc:title) invalid XML. The
 * info dictionary itself is written first, unescaped as it should be; only the XMP copy is escaped.
 */
export function escapeXmpInfo(doc: Doc): void {
  const d = doc as unknown as { _addInfo(): void; info: Record<string, unknown> };
  const addInfo = d._addInfo;
  if (typeof addInfo !== 'function') return;
  d._addInfo = function (this: typeof d) {
    const saved = { ...this.info };
    for (const [k, v] of Object.entries(this.info)) if (typeof v === 'string') this.info[k] = escapeXml(v);
    try {
      addInfo.call(this);
    } finally {
      this.info = saved;
    }
  };
}

/** Palette: every text colour has at least 4.5:1 contrast on white and on the fills below. */
export const COLORS = {
  ink: '#1b1f24',
  muted: '#4b5563',
  navy: '#1f3a5f',
  accent: '#24507a',
  link: '#1d4ed8',
  good: '#1e6b34',
  white: '#ffffff',
  rule: '#d5dbe3',
  ruleStrong: '#1f3a5f',
  headFill: '#e6ecf2',
  zebra: '#f6f8fa',
  codeFill: '#f1f3f5',
  boxFill: '#eef2f7',
  failFill: '#fbeaea',
  reviewFill: '#fdf3dc',
  grid: '#e3e7ec',
} as const;

export const SEVERITY_COLOR = {
  critical: '#a4161a',
  serious: '#b33c00',
  moderate: '#8a5a00',
  minor: '#3f4f63',
} as const;

export interface TextStyle {
  font: FontName;
  size: number;
  color: string;
  lineGap: number;
  align?: 'left' | 'right' | 'center';
}

const st = (font: FontName, size: number, color: string, lineGap: number): TextStyle => ({ font, size, color, lineGap });

/** The type scale. */
export const STYLES = {
  h1: st('bold', 30, COLORS.navy, 2),
  h2: st('bold', 17, COLORS.navy, 2),
  h3: st('bold', 12, COLORS.ink, 1.5),
  h4: st('bold', 9.5, COLORS.navy, 1),
  body: st('regular', 9.5, COLORS.ink, 2.5),
  bodyBold: st('bold', 9.5, COLORS.ink, 2.5),
  small: st('regular', 8, COLORS.muted, 1.5),
  cell: st('regular', 8, COLORS.ink, 1),
  cellBold: st('bold', 8, COLORS.ink, 1),
  cellHead: st('bold', 8, COLORS.ink, 1),
  cellMono: st('mono', 7.5, COLORS.ink, 1),
  cellMuted: st('regular', 7.5, COLORS.muted, 1),
  mono: st('mono', 7.8, COLORS.ink, 1.5),
  link: st('regular', 9, COLORS.link, 2),
  label: st('bold', 7.5, COLORS.muted, 1),
} as const;

export const withStyle = (base: TextStyle, over: Partial<TextStyle> = {}): TextStyle => ({ ...base, ...over });

/** One run of text in a block: stacked vertically, optionally on a shaded box. */
export interface Part {
  text: string;
  style: TextStyle;
  /** Space after this part. */
  gap?: number;
  /** Background box (an artifact) behind this part. */
  fill?: string;
}

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

export interface ListItem {
  label: string;
  parts: Part[];
}

const PAD_X = 5;
const PAD_Y = 3.5;
const BOX_PAD = 4;

interface StructOptions {
  alt?: string;
  bbox?: [number, number, number, number];
  scope?: 'Row' | 'Column' | 'Both';
  title?: string;
  lang?: string;
}

export class Layout {
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

  // ---- blocks ------------------------------------------------------------------------------

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

  /** A paragraph (or another leaf type) across the content width, kept on one page when it fits. */
  paragraph(
    parent: StructElem,
    text: string,
    s: TextStyle = STYLES.body,
    opts: { gapAfter?: number; indent?: number; type?: string; fill?: string; keepWith?: number } = {},
  ): void {
    if (!text) return;
    const x = this.left + (opts.indent ?? 0);
    const w = this.right - x;
    const pad = opts.fill ? BOX_PAD + 2 : 0;
    const h = this.measure(text, s, w - 2 * pad) + 2 * pad;
    if (h + (opts.keepWith ?? 0) <= this.contentHeight) this.ensure(h + (opts.keepWith ?? 0));
    if (opts.fill && h <= this.contentHeight) this.rect(x, this.y, w, h, opts.fill, 2);
    const type = opts.type ?? 'P';
    this.leaf(parent, type, () => {
      this.draw(text, x + pad, this.y + pad, w - 2 * pad, s);
    });
    this.y = this.doc.y + pad + (opts.gapAfter ?? 6);
  }

  /** Several runs in one paragraph-like element (e.g. a bold lead line and its text). */
  block(parent: StructElem, type: string, parts: Part[], opts: { gapAfter?: number; x?: number; width?: number } = {}): void {
    const x = opts.x ?? this.left;
    const w = opts.width ?? this.right - x;
    const h = this.measureParts(parts, w);
    if (h <= this.contentHeight) this.ensure(h);
    this.partFills(parts, x, this.y, w);
    const y0 = this.y;
    this.leaf(parent, type, () => {
      this.partTexts(parts, x, y0, w);
    });
    this.y = y0 + h + (opts.gapAfter ?? 6);
  }

  heading(
    parent: StructElem,
    level: 2 | 3 | 4,
    text: string,
    opts: { keepWith?: number; outline?: boolean; dest?: string; newPage?: boolean } = {},
  ): void {
    const s = level === 2 ? STYLES.h2 : level === 3 ? STYLES.h3 : STYLES.h4;
    const before = level === 2 ? 26 : level === 3 ? 16 : 8;
    const after = level === 2 ? 12 : level === 3 ? 6 : 4;
    const h = this.measure(text, s, this.width);
    if (opts.newPage && !this.atPageTop) this.newPage();
    if (!this.ensure(before + h + after + (opts.keepWith ?? 48))) this.space(before);
    const y0 = this.y;
    this.leaf(parent, `H${level}`, () => {
      this.draw(text, this.left, y0, this.width, s);
    });
    this.y = y0 + h;
    if (level === 2) {
      this.hrule(this.y + 3, COLORS.navy, 1.2, this.left, this.left + 36);
      this.y += 4;
    }
    if (opts.dest) this.doc.addNamedDestination(opts.dest, 'XYZ', 0, Math.max(0, y0 - 12), null);
    if (opts.outline) {
      (this.doc.outline as unknown as { addItem(t: string, o: object): unknown }).addItem(text, { top: Math.max(0, y0 - 12), left: this.pageW });
    }
    this.y += after;
  }

  /** A paragraph holding a label and a link (Link element with its annotation and /Contents). */
  linkParagraph(parent: StructElem, label: string, url: string, display: string, opts: { gapAfter?: number; style?: TextStyle } = {}): void {
    const ls = opts.style ?? STYLES.small;
    const labelText = label ? `${label} ` : '';
    const labelW = labelText ? this.widthOf(labelText, withStyle(ls, { font: 'bold' })) + 1 : 0;
    const linkStyle = withStyle(ls, { color: COLORS.link });
    const x = this.left + labelW;
    const w = this.right - x;
    const h = Math.max(this.measure(display, linkStyle, w), this.measure('X', ls, w));
    this.ensure(h);
    const y0 = this.y;
    const p = this.el(parent, 'P');
    if (labelText) this.mark(p, 'P', () => this.drawLine(labelText, this.left, y0, withStyle(ls, { font: 'bold' })));
    if (isHttpUrl(url)) {
      const link = this.el(p, 'Link');
      this.mark(link, 'Link', () => {
        this.style(linkStyle);
        this.doc.text(display, x, y0, { width: w, lineGap: linkStyle.lineGap, underline: true });
      });
      const textW = Math.min(w, this.widthOf(display, linkStyle));
      const annotation = { structParent: link, Contents: new String(`${label ? `${label} ` : ''}${display}`) };
      this.doc.link(x, y0, textW, h, url, annotation as unknown as PDFKit.Mixins.AnnotationOption);
      link.end();
    } else {
      this.mark(p, 'P', () => this.draw(display, x, y0, w, ls));
    }
    p.end();
    this.y = y0 + h + (opts.gapAfter ?? 4);
  }

  /** L > LI > Lbl + LBody, one item kept on one page when it fits. */
  async list(parent: StructElem, items: ListItem[], opts: { gapAfter?: number; itemGap?: number; labelWidth?: number; labelStyle?: TextStyle; indent?: number } = {}): Promise<void> {
    if (!items.length) return;
    const l = this.el(parent, 'L');
    const labelW = opts.labelWidth ?? 14;
    const x = this.left + (opts.indent ?? 0);
    const bodyX = x + labelW;
    const bodyW = this.right - bodyX;
    let i = 0;
    for (const item of items) {
      const h = this.measureParts(item.parts, bodyW);
      if (h <= this.contentHeight) this.ensure(h);
      const y0 = this.y;
      const li = this.el(l, 'LI');
      const ls = opts.labelStyle ?? withStyle(item.parts[0]?.style ?? STYLES.body, { font: 'regular', color: COLORS.muted });
      this.leaf(li, 'Lbl', () => this.drawLine(item.label, x, y0 + (item.parts[0]?.fill ? BOX_PAD : 0), ls));
      this.partFills(item.parts, bodyX, y0, bodyW);
      this.leaf(li, 'LBody', () => {
        this.partTexts(item.parts, bodyX, y0, bodyW);
      });
      li.end();
      this.y = y0 + h + (opts.itemGap ?? 3);
      if (++i % 25 === 0) await this.checkpoint();
    }
    l.end();
    this.y += (opts.gapAfter ?? 6) - (opts.itemGap ?? 3);
  }

  /** A table with shaded header (repeated as an artifact on continuation pages) and row rules. */
  async table(parent: StructElem, cols: Column[], rows: Iterable<RowInput>, opts: TableOptions = {}): Promise<void> {
    const header = opts.header ?? true;
    const bodyStyle = opts.bodyStyle ?? STYLES.cell;
    const table = this.el(parent, 'Table');
    const xs: number[] = [];
    let acc = this.left;
    for (const c of cols) {
      xs.push(acc);
      acc += c.width;
    }
    const tableW = acc - this.left;
    const headParts = cols.map((c) => [{ text: c.header, style: STYLES.cellHead }] as Part[]);
    const headH = header ? Math.max(...headParts.map((p, j) => this.measureParts(p, cols[j]!.width - 2 * PAD_X))) + 2 * PAD_Y + 1 : 0;

    const drawHeader = (repeat: boolean) => {
      const y0 = this.y;
      this.artifact(() => {
        this.doc.fillColor(COLORS.headFill).rect(this.left, y0, tableW, headH).fill();
        this.doc.strokeColor(COLORS.ruleStrong).lineWidth(0.8).moveTo(this.left, y0 + headH).lineTo(this.left + tableW, y0 + headH).stroke();
      });
      if (repeat) {
        this.artifact(() => {
          cols.forEach((c, j) => this.partTexts(headParts[j]!, xs[j]! + PAD_X, y0 + PAD_Y, c.width - 2 * PAD_X, c.align));
        });
      } else {
        const tr = this.el(table, 'TR');
        cols.forEach((c, j) => {
          this.leaf(tr, 'TH', () => this.partTexts(headParts[j]!, xs[j]! + PAD_X, y0 + PAD_Y, c.width - 2 * PAD_X, c.align), { scope: 'Column' });
        });
        tr.end();
      }
      this.y = y0 + headH;
    };

    let first = true;
    let i = 0;
    for (const row of rows) {
      const cells = row.cells.map((c) => toParts(c, bodyStyle));
      const rowH = Math.max(...cells.map((p, j) => this.measureParts(p, cols[j]!.width - 2 * PAD_X, cols[j]!.align))) + 2 * PAD_Y;
      if (first) {
        this.ensure(headH + rowH);
        if (header) drawHeader(false);
        first = false;
      } else if (this.y + rowH > this.bottom) {
        this.newPage();
        if (header) drawHeader(true);
      }
      const y0 = this.y;
      this.artifact(() => {
        if (row.fill) this.doc.fillColor(row.fill).rect(this.left, y0, tableW, rowH).fill();
        this.doc.strokeColor(COLORS.rule).lineWidth(0.5).moveTo(this.left, y0 + rowH).lineTo(this.left + tableW, y0 + rowH).stroke();
      });
      const tr = this.el(table, 'TR');
      cells.forEach((parts, j) => {
        const th = opts.rowHeaders && j === 0;
        const c = cols[j]!;
        const x = xs[j]! + PAD_X;
        const w = c.width - 2 * PAD_X;
        const input = row.cells[j];
        const link = typeof input === 'object' && 'link' in input && input.link && isHttpUrl(input.link) ? input.link : null;
        if (!link || th) {
          this.leaf(tr, th ? 'TH' : 'TD', () => this.partTexts(parts, x, y0 + PAD_Y, w, c.align), th ? { scope: 'Row' } : undefined);
          return;
        }
        const td = this.el(tr, 'TD');
        const before = parts.slice(0, -1);
        const last = parts.slice(-1);
        let ly = y0 + PAD_Y;
        if (before.length) {
          this.mark(td, 'TD', () => this.partTexts(before, x, ly, w, c.align));
          ly += this.measureParts(parts, w, c.align) - this.measureParts(last, w, c.align);
        }
        const lk = this.el(td, 'Link');
        this.mark(lk, 'Link', () => this.partTexts(last, x, ly, w, c.align));
        const lh = this.measureParts(last, w);
        const lw = Math.min(w, this.widthOf(last[0]?.text ?? '', last[0]?.style ?? bodyStyle));
        const annotation = { structParent: lk, Contents: new String(`Open ${last[0]?.text ?? link}`) };
        this.doc.link(x, ly, lw, lh, link, annotation as unknown as PDFKit.Mixins.AnnotationOption);
        lk.end();
        td.end();
      });
      tr.end();
      this.y = y0 + rowH;
      if (++i % 25 === 0) await this.checkpoint();
    }
    if (first && header) {
      this.ensure(headH);
      drawHeader(false);
    }
    table.end();
    this.y += opts.gapAfter ?? 10;
  }

  /** A Figure with alt text and bounding box; `draw` paints it inside the Figure's marked content. */
  figure(parent: StructElem, alt: string, h: number, draw: (x: number, y: number, w: number) => void, opts: { gapAfter?: number } = {}): void {
    this.ensure(h);
    const y0 = this.y;
    const fig = this.el(parent, 'Figure', { alt, bbox: [this.left, y0, this.right, y0 + h] });
    this.mark(fig, 'Figure', () => {
      this.doc.save();
      draw(this.left, y0, this.width);
      this.doc.restore();
    });
    fig.end();
    this.y = y0 + h + (opts.gapAfter ?? 6);
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

function toParts(c: CellInput, base: TextStyle): Part[] {
  if (typeof c === 'string') return [{ text: c, style: base }];
  if ('parts' in c) return c.parts;
  return [{ text: c.text, style: withStyle(base, c.style) }];
}
