/**
 * A small layout engine over pdfkit for tagged (PDF/UA-minded) reports: page breaks it decides
 * itself, and the blocks a report is made of, each drawn inside the right structure element
 * (P, H2-H4, Table > TR > TH/TD, L > LI > Lbl/LBody, Link, Figure). The cursor, text and tagging
 * primitives are in canvas.ts, tables in table.ts.
 *
 * Text is only drawn where it fits, so pdfkit never adds a page on its own except for a paragraph
 * longer than a page.
 */
import { Canvas, BOX_PAD, type Part, type StructElem } from './canvas.ts';
import { isHttpUrl } from './format.ts';
import { COLORS, STYLES, type TextStyle, withStyle } from './styles.ts';
import { type Column, drawTable, type RowInput, type TableOptions } from './table.ts';

export interface ListItem {
  label: string;
  parts: Part[];
}

export class Layout extends Canvas {
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
    await drawTable(this, parent, cols, rows, opts);
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
