/**
 * The contents (crawl reports): the entries are laid out after the cover, their page numbers and
 * links are filled in once every section has been placed.
 */
import { COLORS, STYLES, withStyle } from '../styles.ts';
import type { Ctx, TocEntry } from './section.ts';

export function contents(ctx: Ctx): void {
  const { L } = ctx;
  L.newPage();
  L.heading(L.root, 2, 'Contents', { outline: false, keepWith: 100 });
  const toc = L.el(L.root, 'TOC');
  const entries: TocEntry[] = [];
  const s = withStyle(STYLES.body, { size: 10.5 });
  for (const sec of ctx.sections) {
    const y0 = L.y;
    const toci = L.el(toc, 'TOCI');
    const link = L.el(toci, 'Link');
    L.mark(link, 'Link', () => L.drawLine(`${sec.title} `, L.left, y0, s));
    entries.push({ section: sec, toci, link, y: y0, titleEnd: L.left + L.widthOf(sec.title, s) });
    L.y = y0 + 22;
  }
  ctx.toc = { page: L.pageIndex, elem: toc, entries };
  L.y += 14;
}

/** Page numbers of the contents, known once everything is laid out; also the entries' links. */
export function fillContents(ctx: Ctx): void {
  const { L, toc } = ctx;
  if (!toc) return;
  const doc = L.doc;
  const current = L.pageIndex;
  doc.switchToPage(toc.page);
  const s = withStyle(STYLES.body, { size: 10.5 });
  for (const e of toc.entries) {
    const page = (ctx.sectionPage.get(e.section.id) ?? 0) + 1;
    const label = String(page);
    const nw = L.widthOf(label, s);
    L.artifact(() => {
      L.doc.fillColor(COLORS.muted);
      for (let x = e.titleEnd + 8; x < L.right - nw - 8; x += 4.5) L.doc.circle(x, e.y + 9.5, 0.55).fill();
    });
    L.mark(e.link, 'Link', () => L.drawLine(label, L.right - nw, e.y, s));
    const annotation = { structParent: e.link, Contents: new String(`Go to ${e.section.title}, page ${page}`) };
    doc.goTo(L.left, e.y - 2, L.width, 17, `section-${e.section.id}`, annotation as unknown as PDFKit.Mixins.AnnotationOption);
    e.link.end();
    e.toci.end();
  }
  toc.elem.end();
  doc.switchToPage(current);
}
