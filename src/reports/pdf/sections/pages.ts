/**
 * The Pages table (crawl reports), worst score first, at most MAX_PAGE_ROWS rows; and the
 * Documents table (any report that audited a PDF): the documents alone, with the criteria their
 * confirmed issues fail (the conformance report's electronic-docs component).
 */
import type { ReportPage } from '../../report-model.ts';
import { CONFORMANCE_LABEL } from '../../conformance.ts';
import { isHttpUrl, LIMITS, num, plural, text } from '../format.ts';
import { COLORS, SEVERITY_COLOR, STYLES, withStyle } from '../styles.ts';
import type { RowInput } from '../table.ts';
import { type Ctx, scoreColor, section } from './section.ts';

/** Rows of the Pages table; the workbook has them all. */
export const MAX_PAGE_ROWS = 500;

export async function pagesTable(ctx: Ctx): Promise<void> {
  const { report } = ctx;
  section(ctx, 'pages', { newPage: true });
  const shown = report.pages.slice(0, MAX_PAGE_ROWS);
  const total = Math.max(report.pagesTotal, report.pages.length);
  await pageRows(ctx, shown, total);
}

/** The documents (PDFs) audited: their scores and counts, then the criteria they fail. */
export async function documentsTable(ctx: Ctx): Promise<void> {
  const { L, report } = ctx;
  section(ctx, 'documents', { newPage: report.kind === 'crawl', minSpace: 200 });
  const documents = report.pages.filter((p) => p.kind === 'document');
  L.paragraph(
    L.root,
    `${plural(documents.length, 'document')} (PDF) ${documents.length === 1 ? 'was' : 'were'} audited from the file itself: tags, title, language, text layer, ` +
      'figures, tables, links and form fields, by WCAG’s PDF techniques. Their issues are located by page number and structure path; the Issues sections above include them.',
    STYLES.body,
    { gapAfter: 8, keepWith: 50 },
  );
  await pageRows(ctx, documents.slice(0, MAX_PAGE_ROWS), documents.length, true);
  const failing = (report.documentConformance ?? []).filter((r) => r.conformance === 'does-not-support' || r.conformance === 'partially-supports');
  if (failing.length) {
    L.paragraph(L.root, 'Criteria the documents fail (the conformance report’s electronic-docs component):', withStyle(STYLES.bodyBold, { color: COLORS.navy }), { gapAfter: 4, keepWith: 40 });
    for (const r of failing) L.paragraph(L.root, `${r.id} ${text(r.title, 80)} – ${CONFORMANCE_LABEL[r.conformance]}: ${text(r.remarks, 400)}`, STYLES.small, { gapAfter: 3 });
  }
}

/** The rows of the Pages table, or of the Documents table (`documents`, whose section says above what it holds). */
async function pageRows(ctx: Ctx, shown: readonly ReportPage[], total: number, documents = false): Promise<void> {
  const { L } = ctx;
  if (!documents && total > shown.length) {
    L.paragraph(
      L.root,
      `The ${num(shown.length)} pages with the lowest scores, worst first, of ${num(total)} pages in this crawl. The full list is in the Excel workbook.`,
      STYLES.body,
      { gapAfter: 8, keepWith: 50 },
    );
  } else if (!documents) {
    L.paragraph(L.root, `All ${plural(total, 'page')} of this crawl, worst score first; pages that could not be scanned are listed last.`, STYLES.body, { gapAfter: 8, keepWith: 50 });
  }
  if (!shown.length) {
    L.paragraph(L.root, 'No pages.', STYLES.body);
    return;
  }
  const dash = '\u2013';
  const countCell = (p: ReportPage, n: number) => (p.state === 'failed' ? dash : num(n));
  await L.table(
    L.root,
    [
      { header: documents ? 'Document' : 'Page', width: 201 },
      { header: 'Score', width: 42, align: 'right' },
      { header: 'Critical', width: 48, align: 'right' },
      { header: 'Serious', width: 48, align: 'right' },
      { header: 'Moderate', width: 56, align: 'right' },
      { header: 'Minor', width: 42, align: 'right' },
      { header: 'Total', width: L.width - 437, align: 'right' },
    ],
    (function* () {
      for (const p of shown) {
        const failed = p.state === 'failed';
        const titleText = failed
          ? `Not scanned: ${text(p.error?.code ?? 'error', 40)}`
          : text(p.title, 120) || '(no title)';
        const url = text(p.url, LIMITS.url);
        yield {
          cells: [
            {
              parts: [
                { text: titleText, style: failed ? withStyle(STYLES.cellBold, { color: SEVERITY_COLOR.critical }) : STYLES.cell, gap: 1 },
                { text: url, style: withStyle(STYLES.cellMono, { size: 7, color: isHttpUrl(p.url) ? COLORS.link : COLORS.muted }) },
              ],
              link: isHttpUrl(p.url) ? p.url : undefined,
            },
            failed ? { text: 'failed', style: { color: SEVERITY_COLOR.critical } } : { text: p.score == null ? dash : String(Math.round(p.score)), style: { font: 'bold', color: scoreColor(p.score) } },
            countCell(p, p.counts.critical),
            countCell(p, p.counts.serious),
            countCell(p, p.counts.moderate),
            countCell(p, p.counts.minor),
            failed ? dash : { text: num(p.counts.total), style: { font: 'bold' } },
          ],
        } satisfies RowInput;
      }
    })(),
  );
  if (total > shown.length) {
    L.paragraph(L.root, `${num(total - shown.length)} more ${documents ? 'documents' : 'pages'} are not shown here: the full list is in the Excel workbook.`, STYLES.small);
  }
}
