/**
 * The cover page: the report title (the H1), what was audited, the score card and the disclaimer
 * that automated findings are not a conformance claim.
 */
import type { Part } from '../canvas.ts';
import { fmtDate, fmtDateTime, LIMITS, num, plural, text } from '../format.ts';
import { COLORS, STYLES, withStyle } from '../styles.ts';
import { type Ctx, kindLabel, scoreColor } from './section.ts';

export function cover(ctx: Ctx): void {
  const { L, report } = ctx;
  const t = report.target;
  L.rect(0, 0, L.pageW, 10, COLORS.navy);
  L.artifact(() => {
    L.drawLine('a11y-audit', L.left, 40, withStyle(STYLES.label, { size: 8, color: COLORS.navy }));
    L.drawLine('Automated accessibility audit', L.left, 40, withStyle(STYLES.small, { size: 8 }), { width: L.width, align: 'right' });
  });
  L.hrule(56, COLORS.rule, 0.5);

  // H1: the report title, set as "Accessibility report" and the site or page.
  const subject = report.kind === 'crawl' ? text(t.hostname || t.url, 80) : text(t.url, LIMITS.url);
  const y0 = 150;
  const h1 = L.el(L.root, 'H1');
  const subjectStyle = withStyle(STYLES.h1, { font: 'regular', size: report.kind === 'crawl' ? 20 : 15, color: COLORS.ink, lineGap: 2 });
  let y = y0;
  L.mark(h1, 'H1', () => {
    y += L.draw('Accessibility report ', L.left, y, L.width, STYLES.h1) + 6;
    y += L.draw(subject, L.left, y, L.width, subjectStyle);
  });
  h1.end();
  L.y = y + 18;

  const kindLine =
    report.kind === 'crawl'
      ? `${kindLabel(report)} of ${text(t.url, LIMITS.url)}${t.crawl ? ` \u00b7 ${plural(t.crawl.scannedPages, 'page')} scanned` : ''}`
      : `${kindLabel(report)}${t.name ? ` \u00b7 \u201c${text(t.name, 100)}\u201d` : ''}`;
  L.paragraph(L.root, kindLine, withStyle(STYLES.body, { size: 11 }), { gapAfter: 4 });
  L.paragraph(L.root, `Audit completed ${fmtDateTime(t.completedAt ?? t.startedAt)} \u00b7 report generated ${fmtDate(report.generatedAt)}`, withStyle(STYLES.body, { size: 10, color: COLORS.muted }), { gapAfter: 4 });
  L.paragraph(L.root, `Standard: ${text(t.standard, 120)}`, withStyle(STYLES.body, { size: 10, color: COLORS.muted }), { gapAfter: 0 });

  // Score card.
  const s = report.summary;
  const cardY = Math.max(L.y + 34, 340);
  const cardH = 150;
  L.rect(L.left, cardY, L.width, cardH, COLORS.boxFill, 4);
  L.rect(L.left, cardY, 5, cardH, scoreColor(s.score));
  const leftW = 170;
  const sx = L.left + 24;
  L.leaf(L.root, 'P', () => {
    L.drawLine('Overall score ', sx, cardY + 20, withStyle(STYLES.label, { size: 9 }));
    const big = withStyle(STYLES.h1, { size: 58, color: scoreColor(s.score), lineGap: 0 });
    const scoreText = s.score == null ? '\u2013' : String(Math.round(s.score));
    L.drawLine(`${scoreText} `, sx, cardY + 38, big);
    const w = L.widthOf(scoreText, big);
    L.drawLine(s.score == null ? 'no page scanned' : 'out of 100', sx + w + 6, cardY + 84, withStyle(STYLES.body, { size: 11, color: COLORS.muted }));
  });
  L.artifact(() => {
    L.doc.strokeColor(COLORS.rule).lineWidth(0.75).moveTo(L.left + leftW + 14, cardY + 18).lineTo(L.left + leftW + 14, cardY + cardH - 18).stroke();
  });
  const figures: Array<[string, string]> = [
    ['Issues found', num(s.issues)],
    ['Pages affected', `${num(s.pagesAffected)} of ${num(s.pagesScanned)}`],
    ['Critical issues', num(s.bySeverity.critical)],
    ['Serious issues', num(s.bySeverity.serious)],
  ];
  const gx = L.left + leftW + 34;
  const colW = (L.right - gx - 10) / 2;
  figures.forEach(([label, value], i) => {
    const fx = gx + (i % 2) * colW;
    const fy = cardY + 22 + Math.floor(i / 2) * 58;
    L.leaf(L.root, 'P', () => {
      L.drawLine(`${label} `, fx, fy, withStyle(STYLES.label, { size: 8 }));
      L.drawLine(L.fit(value, withStyle(STYLES.h2, { size: 20, color: COLORS.ink }), colW - 8), fx, fy + 13, withStyle(STYLES.h2, { size: 20, color: COLORS.ink }));
    });
  });

  // Disclaimer.
  const dParts: Part[] = [
    { text: 'Automated findings, not a conformance claim', style: withStyle(STYLES.bodyBold, { color: COLORS.navy }), gap: 4 },
    {
      text:
        'This report lists what automated checks found on the pages that were scanned. Automated checks cover only part of WCAG: ' +
        'a page without findings is not necessarily accessible, items marked \u201cneeds review\u201d must be judged by a person, and ' +
        'nothing in this report is a statement of conformance with WCAG or any law.',
      style: withStyle(STYLES.body, { size: 9 }),
    },
  ];
  const dW = L.width - 32;
  const dH = L.measureParts(dParts, dW) + 28;
  const dY = Math.max(cardY + cardH + 40, L.bottom - dH - 10);
  L.rect(L.left, dY, L.width, dH, COLORS.boxFill, 4);
  L.rect(L.left, dY, 5, dH, COLORS.navy);
  L.y = dY + 14;
  L.block(L.root, 'P', dParts, { x: L.left + 18, width: dW });
}
