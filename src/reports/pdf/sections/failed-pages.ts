/**
 * Pages not scanned, and why.
 */
import { LIMITS, num, plural, text } from '../format.ts';
import { STYLES } from '../styles.ts';
import { type Ctx, section } from './section.ts';

const MAX_FAILED_ROWS = 200;

export async function failedPages(ctx: Ctx): Promise<void> {
  const { L, report } = ctx;
  section(ctx, 'failed', { newPage: report.kind === 'crawl', minSpace: 220 });
  const f = report.failedPages;
  const shown = f.slice(0, MAX_FAILED_ROWS);
  L.paragraph(
    L.root,
    `${plural(f.length, 'page')} could not be scanned, so the findings above do not cover ${f.length === 1 ? 'it' : 'them'}.` +
      (f.length > shown.length ? ` The first ${num(shown.length)} are listed; the Excel workbook has them all.` : ''),
    STYLES.body,
    { gapAfter: 8, keepWith: 50 },
  );
  await L.table(
    L.root,
    [
      { header: 'URL', width: 210 },
      { header: 'Reason', width: 80 },
      { header: 'Details', width: L.width - 290 },
    ],
    shown.map((p) => ({
      cells: [
        { text: text(p.url, LIMITS.url), style: { font: 'mono', size: 7 } },
        { text: text(p.code, 40), style: { font: 'bold' } },
        text(p.message, 300),
      ],
    })),
  );
}
