/**
 * The Excel workbook of a report, streamed: exceljs's `stream.xlsx.WorkbookWriter` writes each row
 * into the zip as soon as it is committed, so a 50,000-issue crawl never sits in memory; sheets are
 * written one after the other (the zip takes one entry at a time, a second open sheet would be
 * buffered whole).
 *
 * Sheets: Summary, Issues, Pages, Criteria, and for a crawl with a diff New and Fixed, each written
 * by its module under xlsx/; this module creates the workbook and writes them in order. Each has a
 * bold, frozen header row, an autofilter over its table and column widths fitted to the first rows.
 * Every value that came from a page or a user passes through `safeCell` (see safe-cell.ts: no cell
 * can start a formula), every link through `safeHyperlink`; the renderer never writes a formula.
 *
 * Cooperative: the event loop gets a turn every few hundred rows, a slow reader of `out` pauses
 * the renderer ('drain'), and an aborted signal or a closed `out` stops it between rows, closes the
 * row iterators (so the database cursor behind them is released) and rejects with an AbortError.
 * On rejection `out` is unpiped and left unended: a partial workbook must not look complete, and the
 * caller destroys `out` (the export route does).
 */
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Report } from './report-model.ts';
import { stripXmlInvalid } from './safe-cell.ts';
import { writeChanges } from './xlsx/changes.ts';
import { writeCriteria } from './xlsx/criteria.ts';
import { Guard } from './xlsx/guard.ts';
import { writeIssues } from './xlsx/issues.ts';
import { writePages } from './xlsx/pages.ts';
import type { Workbook } from './xlsx/sheet.ts';
import { writeSummary } from './xlsx/summary.ts';

export { MAX_HYPERLINKS_PER_SHEET } from './xlsx/sheet.ts';

export interface RenderXlsxOptions {
  signal?: AbortSignal;
}

/**
 * Writes the report as an .xlsx workbook into `out` and resolves once `out` has finished.
 * Rejects with an AbortError when `opts.signal` aborts or `out` closes early, after closing the
 * row iterators; with the iterator's or the zip's error otherwise. On rejection `out` is left
 * unended (unpiped): the caller destroys it.
 */
export async function renderXlsx(report: Report, out: Writable, opts: RenderXlsxOptions = {}): Promise<void> {
  const guard = new Guard(out, opts.signal);
  let wb: Workbook | null = null;
  try {
    guard.check();
    wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    guard.watch((wb as unknown as { zip?: NodeJS.EventEmitter }).zip);
    wb.creator = 'a11y-audit';
    wb.lastModifiedBy = 'a11y-audit';
    wb.title = stripXmlInvalid(report.title);
    wb.subject = 'Automated accessibility findings (WCAG 2.2 A/AA)';
    wb.created = report.generatedAt;
    wb.modified = report.generatedAt;
    (wb as unknown as { language?: string }).language = stripXmlInvalid(report.lang);

    writeSummary(wb, report);
    await guard.breathe();

    await writeIssues(wb, guard, report);

    await writePages(wb, guard, report);

    writeCriteria(wb, report);
    await guard.breathe();

    if (report.diff) await writeChanges(wb, guard, report.diff);

    guard.check();
    await guard.race(wb.commit());
  } catch (err) {
    // Abandon the zip: nothing more reaches `out`, and a late error of the half-written archive
    // (nobody listens once the guard is disposed) must not become an uncaught exception.
    const zip = (wb as unknown as { zip?: NodeJS.EventEmitter & { unpipe?: (dest: Writable) => void } } | null)?.zip;
    zip?.unpipe?.(out);
    zip?.on('error', () => {});
    throw guard.error ?? err;
  } finally {
    guard.dispose();
  }
}
