/**
 * The Pages sheet: the report's pages with their kind (page or document), score and counts by
 * severity, failed pages with their error; a note under the table when the report lists only some
 * of the pages. The Documents sheet, when the audit met a PDF: the documents alone.
 */
import type { Report, ReportPage } from '../report-model.ts';
import type { Guard } from './guard.ts';
import { type ColumnSpec, ROWS_PER_TURN, STYLE, TableSheet, WIDTH_SAMPLE_ROWS, type Workbook } from './sheet.ts';

const PAGE_COLUMNS: ColumnSpec<ReportPage>[] = [
  { header: 'Page URL', kind: 'link', get: (p) => p.url, max: 60 },
  { header: 'Title', kind: 'text', get: (p) => p.title, max: 50 },
  { header: 'State', kind: 'text', get: (p) => p.state },
  { header: 'Score', kind: 'int', get: (p) => p.score },
  { header: 'Critical', kind: 'int', get: (p) => p.counts.critical },
  { header: 'Serious', kind: 'int', get: (p) => p.counts.serious },
  { header: 'Moderate', kind: 'int', get: (p) => p.counts.moderate },
  { header: 'Minor', kind: 'int', get: (p) => p.counts.minor },
  { header: 'Total', kind: 'int', get: (p) => p.counts.total },
  { header: 'Error code', kind: 'text', get: (p) => p.error?.code ?? null },
  { header: 'Error message', kind: 'wrap', get: (p) => p.error?.message ?? null, max: 60 },
  { header: 'Kind', kind: 'text', get: (p) => p.kind },
];

export async function writePages(wb: Workbook, guard: Guard, report: Report): Promise<void> {
  const pages = new TableSheet(wb, 'Pages', PAGE_COLUMNS, report.pages.slice(0, WIDTH_SAMPLE_ROWS));
  let sinceTurn = 0;
  for (const p of report.pages) {
    pages.write(p);
    if (++sinceTurn >= ROWS_PER_TURN) {
      sinceTurn = 0;
      await guard.breathe(pages.ws);
    }
  }
  pages.finish(
    report.pages.length < report.pagesTotal
      ? [
          { values: [], styles: [] },
          {
            values: [`This sheet lists ${report.pages.length} of the ${report.pagesTotal} pages, worst scores first.`],
            styles: [STYLE.text],
          },
        ]
      : [],
  );
  await guard.breathe();
  const documents = report.pages.filter((p) => p.kind === 'document');
  if (documents.length) {
    const sheet = new TableSheet(wb, 'Documents', PAGE_COLUMNS, documents.slice(0, WIDTH_SAMPLE_ROWS));
    for (const p of documents) sheet.write(p);
    sheet.finish([]);
    await guard.breathe(sheet.ws);
  }
}
