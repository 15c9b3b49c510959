/**
 * Page furniture: the running header and footer with page numbers, drawn over the buffered pages
 * at the end as Pagination artifacts.
 */
import { fmtDate, text } from '../format.ts';
import { COLORS, STYLES, withStyle } from '../styles.ts';
import { type Ctx, kindLabel } from './section.ts';

/** Running header and footer on every page but the cover, as Pagination artifacts. */
export function furniture(ctx: Ctx): void {
  const { L, report } = ctx;
  const doc = L.doc;
  const range = doc.bufferedPageRange();
  const total = range.count;
  const headStyle = withStyle(STYLES.small, { size: 7.5 });
  const leftHead = L.fit(`Accessibility report \u00b7 ${text(report.kind === 'crawl' ? report.target.hostname : report.target.url, 90)}`, headStyle, L.width * 0.68);
  const rightHead = `${kindLabel(report)} \u00b7 ${fmtDate(report.generatedAt)}`;
  for (let i = range.start; i < range.start + total; i++) {
    doc.switchToPage(i);
    const margins = doc.page.margins;
    const saved = { ...margins };
    // Text in the bottom margin would make pdfkit add a page: draw the furniture with no margins.
    Object.assign(margins, { top: 0, bottom: 0 });
    L.artifact(() => {
      if (i > range.start) {
        L.drawLine(leftHead, L.left, 34, headStyle);
        L.drawLine(rightHead, L.left, 34, headStyle, { width: L.width, align: 'right' });
        doc.strokeColor(COLORS.rule).lineWidth(0.5).moveTo(L.left, 47).lineTo(L.right, 47).stroke();
      }
      const fy = L.pageH - 40;
      doc.strokeColor(COLORS.rule).lineWidth(0.5).moveTo(L.left, fy - 8).lineTo(L.right, fy - 8).stroke();
      L.drawLine('Automated findings \u2013 not a conformance claim', L.left, fy, headStyle);
      L.drawLine(`Page ${i - range.start + 1} of ${total}`, L.left, fy, headStyle, { width: L.width, align: 'right' });
    }, 'Pagination');
    Object.assign(margins, saved);
  }
}
