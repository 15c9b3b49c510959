/**
 * The Excel workbook of a report, streamed: exceljs's `stream.xlsx.WorkbookWriter` writes each row
 * into the zip as soon as it is committed, so a 50,000-issue crawl never sits in memory; sheets are
 * written one after the other (the zip takes one entry at a time, a second open sheet would be
 * buffered whole).
 *
 * Sheets: Summary, Issues, Pages, Criteria, and for a crawl with a diff New and Fixed. Each has a
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
import type { CriterionResult, DiffRow, IssueRow, Report, ReportPage } from './report-model.ts';
import { safeCell, safeHyperlink, stripXmlInvalid, type SafeCellValue } from './safe-cell.ts';

export interface RenderXlsxOptions {
  signal?: AbortSignal;
}

/** Excel allows 65,530 hyperlinks per sheet; past this many, URLs are written as plain text. */
export const MAX_HYPERLINKS_PER_SHEET = 65_000;
/** Rows written between two turns given back to the event loop. */
const ROWS_PER_TURN = 250;
/** Rows looked at to fit the column widths of a streamed sheet. */
const WIDTH_SAMPLE_ROWS = 500;
const MAX_COLUMN_WIDTH = 80;
const ISSUE_STATUSES = ['open', 'fixed', 'dismissed', 'cant_fix'] as const;

const DATE_FMT = 'yyyy-mm-dd hh:mm:ss';
const DURATION_FMT = '[h]:mm:ss';
const INT_FMT = '#,##0';

type Style = Partial<ExcelJS.Style>;
type CellInput = SafeCellValue | ExcelJS.CellHyperlinkValue;

const TOP: Partial<ExcelJS.Alignment> = { vertical: 'top' };
const TOP_WRAP: Partial<ExcelJS.Alignment> = { vertical: 'top', wrapText: true };
// Style objects are shared: exceljs caches a style id per style object, so one object per kind of
// cell keeps the per-cell cost down.
const STYLE = {
  header: { font: { bold: true }, alignment: TOP_WRAP, fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE7E6E6' } } },
  heading: { font: { bold: true, size: 12 }, alignment: TOP },
  text: { alignment: TOP },
  wrap: { alignment: TOP_WRAP },
  int: { alignment: TOP, numFmt: INT_FMT },
  date: { alignment: TOP, numFmt: DATE_FMT },
  duration: { alignment: TOP, numFmt: DURATION_FMT },
  link: { alignment: TOP, font: { color: { argb: 'FF0563C1' }, underline: true } },
} satisfies Record<string, Style>;

type ColumnKind = 'text' | 'wrap' | 'int' | 'date' | 'link';
const KIND_STYLE: Record<ColumnKind, Style> = { text: STYLE.text, wrap: STYLE.wrap, int: STYLE.int, date: STYLE.date, link: STYLE.text };

interface ColumnSpec<T> {
  header: string;
  kind: ColumnKind;
  get: (row: T) => unknown;
  /** Width cap for this column (default 80; long wrapped texts use less). */
  max?: number;
}

// ------------------------------------------------------------------------------------------------
// Abort, close and backpressure

function abortError(reason: unknown, message = 'the workbook rendering was aborted'): Error {
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const err = new DOMException(message, 'AbortError');
  if (reason !== undefined) Object.defineProperty(err, 'cause', { value: reason, configurable: true, writable: true });
  return err;
}

/** Watches the signal, `out` and the zip; the first failure wins and wakes every waiter. */
class Guard {
  error: unknown = null;
  /** Rejecters of the promises `race` handed out and that are still pending. */
  private readonly waiters = new Set<(err: unknown) => void>();
  private readonly cleanups: Array<() => void> = [];
  private readonly out: Writable;

  constructor(out: Writable, signal: AbortSignal | undefined) {
    this.out = out;
    if (signal) {
      const onAbort = () => this.fail(abortError(signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
      this.cleanups.push(() => signal.removeEventListener('abort', onAbort));
      if (signal.aborted) onAbort();
    }
    const onClose = () => {
      if (!out.writableFinished) this.fail(abortError(undefined, 'the output stream closed before the workbook was complete'));
    };
    const onError = (err: unknown) => this.fail(err);
    out.on('close', onClose);
    out.on('error', onError);
    this.cleanups.push(() => {
      out.off('close', onClose);
      out.off('error', onError);
    });
    if (out.destroyed) onClose();
  }

  watch(emitter: NodeJS.EventEmitter | undefined) {
    if (!emitter) return;
    const onError = (err: unknown) => this.fail(err);
    emitter.on('error', onError);
    this.cleanups.push(() => emitter.off('error', onError));
  }

  fail(err: unknown) {
    if (this.error) return;
    this.error = err ?? new Error('the workbook rendering failed');
    for (const reject of this.waiters) reject(this.error);
    this.waiters.clear();
  }

  check() {
    if (this.error) throw this.error;
  }

  /**
   * `p`, or the failure if it comes first. Not `Promise.race` against one long-pending promise:
   * every such race leaves a reaction on it that keeps the race's result (a batch of rows) alive.
   */
  race<T>(p: Promise<T>): Promise<T> {
    if (this.error) {
      p.catch(() => {});
      return Promise.reject(this.error);
    }
    return new Promise<T>((resolve, reject) => {
      this.waiters.add(reject);
      p.then(
        (v) => {
          this.waiters.delete(reject);
          resolve(v);
        },
        (e: unknown) => {
          this.waiters.delete(reject);
          reject(e);
        },
      );
    });
  }

  /**
   * Give the event loop a turn, then wait while `out` asks for a pause, and while the sheet's zip
   * entry holds more than MAX_SHEET_BACKLOG bytes not yet compressed (exceljs writes rows into it
   * without looking at backpressure, so without this the whole sheet would pile up in memory when
   * the rows come faster than zlib compresses them).
   */
  async breathe(sheet?: ExcelJS.Worksheet) {
    this.check();
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.check();
    for (;;) {
      const waitOn = this.out.writableNeedDrain ? this.out : sheetBacklog(sheet);
      if (!waitOn) return;
      await this.race(drainOf(waitOn));
      this.check();
    }
  }

  dispose() {
    for (const c of this.cleanups.splice(0)) c();
  }
}

/** Don't let more than this many bytes of sheet XML wait for the compressor. */
const MAX_SHEET_BACKLOG = 1 << 20;

/**
 * The stream inside exceljs that a sheet's rows are written to (the zip entry's input), when it
 * holds more than MAX_SHEET_BACKLOG bytes. Reads exceljs 4.4 internals (the worksheet writer's
 * `_stream`, a StreamBuf, and its `pipes`, the archiver's PassThrough for that entry); if they
 * change, this returns null and only `out` paces the writer.
 */
function sheetBacklog(sheet: ExcelJS.Worksheet | undefined): NodeJS.EventEmitter | null {
  const pipes = (sheet as unknown as { _stream?: { pipes?: unknown } } | undefined)?._stream?.pipes;
  if (!Array.isArray(pipes)) return null;
  for (const p of pipes as Array<{ writableLength?: number; _writableState?: { length?: number }; once?: unknown }>) {
    const pending = p?.writableLength ?? p?._writableState?.length ?? 0;
    if (pending > MAX_SHEET_BACKLOG && typeof p.once === 'function') return p as unknown as NodeJS.EventEmitter;
  }
  return null;
}

/** Resolves on the emitter's next 'drain', or after 25 ms (re-checked by the caller), whichever comes first. */
function drainOf(emitter: NodeJS.EventEmitter): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      emitter.off('drain', done);
      resolve();
    };
    const timer = setTimeout(done, 25);
    emitter.once('drain', done);
  });
}

/**
 * Reads an async iterable batch by batch. When the caller stops early (abort, error) the iterator's
 * `return` is called, so an async generator's `finally` runs and a cursor behind it closes; if a
 * `next()` is still in flight, `return` is queued behind it and not awaited.
 */
async function forEachBatch<T>(
  iterable: AsyncIterable<T[]>,
  guard: Guard,
  onBatch: (batch: T[]) => Promise<void>,
): Promise<void> {
  guard.check();
  const it = iterable[Symbol.asyncIterator]();
  let done = false;
  let inFlight = false;
  try {
    for (;;) {
      inFlight = true;
      const r = await guard.race(it.next());
      inFlight = false;
      if (r.done) {
        done = true;
        return;
      }
      await onBatch(r.value);
    }
  } finally {
    if (!done && typeof it.return === 'function') {
      const closing = Promise.resolve()
        .then(() => it.return!())
        .catch(() => {});
      if (!inFlight) await closing;
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Sheets

type Workbook = ExcelJS.stream.xlsx.WorkbookWriter;

function textWidth(v: unknown): number {
  if (v == null) return 0;
  if (v instanceof Date) return 19;
  if (typeof v === 'number') return Math.min(15, String(Math.round(v * 100) / 100).length + 2);
  const s = typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : String(v);
  let max = 0;
  for (const line of s.split('\n')) max = Math.max(max, line.length);
  return max;
}

function fitWidths<T>(cols: ColumnSpec<T>[], sample: readonly T[]): number[] {
  return cols.map((c) => {
    let w = c.header.length + 3; // room for the filter button
    for (const row of sample) w = Math.max(w, textWidth(c.get(row)) + 2);
    if (c.kind === 'date') w = Math.max(w, 20);
    return Math.min(Math.max(w, 8), c.max ?? MAX_COLUMN_WIDTH);
  });
}

function addSheet(wb: Workbook, name: string, widths: Array<{ width: number; style: Style }>): ExcelJS.Worksheet {
  const ws = wb.addWorksheet(name, {
    views: [{ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }],
  });
  ws.columns = widths.map((c) => ({ width: c.width, style: c.style }));
  return ws;
}

/** Appends and commits one row; every cell gets one of the shared style objects. */
function writeRow(ws: ExcelJS.Worksheet, values: readonly CellInput[], styles: readonly Style[]) {
  const row = ws.addRow(values as unknown[]);
  for (let i = 0; i < values.length; i++) {
    const style = styles[i];
    if (style) row.getCell(i + 1).style = style;
  }
  row.commit();
}

/** A table sheet: header row, then rows written and committed one by one. */
class TableSheet<T> {
  readonly ws: ExcelJS.Worksheet;
  rows = 0;
  private hyperlinks = 0;
  private readonly cols: ColumnSpec<T>[];
  private readonly styles: Style[];

  constructor(wb: Workbook, name: string, cols: ColumnSpec<T>[], sample: readonly T[]) {
    this.cols = cols;
    const widths = fitWidths(cols, sample);
    this.styles = cols.map((c) => KIND_STYLE[c.kind]);
    this.ws = addSheet(
      wb,
      name,
      cols.map((c, i) => ({ width: widths[i]!, style: this.styles[i]! })),
    );
    writeRow(
      this.ws,
      cols.map((c) => c.header),
      cols.map(() => STYLE.header),
    );
  }

  write(row: T) {
    const values: CellInput[] = [];
    const styles: Style[] = [];
    for (const c of this.cols) {
      const raw = c.get(row);
      if (c.kind === 'link') {
        const text = safeCell(raw);
        const target = this.hyperlinks < MAX_HYPERLINKS_PER_SHEET ? safeHyperlink(raw) : null;
        if (target && typeof text === 'string') {
          this.hyperlinks++;
          values.push({ text, hyperlink: target });
          styles.push(STYLE.link);
          continue;
        }
        values.push(text);
      } else {
        values.push(safeCell(raw));
      }
      styles.push(KIND_STYLE[c.kind]);
    }
    writeRow(this.ws, values, styles);
    this.rows++;
  }

  /** Header-and-rows range of the table, e.g. `A1:Q50001`. */
  get range(): { from: string; to: string } {
    return { from: 'A1', to: `${this.ws.getColumn(this.cols.length).letter}${this.rows + 1}` };
  }

  column(header: string): string {
    const i = this.cols.findIndex((c) => c.header === header);
    if (i < 0) throw new Error(`no column ${header}`);
    return this.ws.getColumn(i + 1).letter;
  }

  /** Autofilter over the table, then the rows after it (notes), then the sheet is committed. */
  finish(after: Array<{ values: CellInput[]; styles: Style[] }> = []) {
    this.ws.autoFilter = this.range;
    for (const r of after) writeRow(this.ws, r.values, r.styles);
    this.ws.commit();
  }
}

/** Streams an iterable of row batches into a new table sheet, fitting widths to the first rows. */
async function streamSheet<T>(
  wb: Workbook,
  guard: Guard,
  name: string,
  cols: ColumnSpec<T>[],
  batches: AsyncIterable<T[]>,
  configure?: (sheet: TableSheet<T>) => void,
): Promise<void> {
  let sheet: TableSheet<T> | null = null;
  let sinceTurn = 0;
  await forEachBatch(batches, guard, async (batch) => {
    sheet ??= new TableSheet(wb, name, cols, batch.slice(0, WIDTH_SAMPLE_ROWS));
    for (const row of batch) {
      sheet.write(row);
      if (++sinceTurn >= ROWS_PER_TURN) {
        sinceTurn = 0;
        await guard.breathe(sheet.ws);
      }
    }
    sinceTurn = 0;
    await guard.breathe(sheet.ws);
  });
  const done: TableSheet<T> = sheet ?? new TableSheet(wb, name, cols, []);
  configure?.(done);
  done.finish();
}

// ------------------------------------------------------------------------------------------------
// Columns

const joinList = (xs: readonly string[] | null | undefined) => (xs && xs.length ? xs.join(', ') : null);

const ISSUE_COLUMNS: ColumnSpec<IssueRow>[] = [
  { header: 'Issue ID', kind: 'text', get: (r) => r.id },
  { header: 'Page URL', kind: 'link', get: (r) => r.pageUrl, max: 60 },
  { header: 'Page title', kind: 'text', get: (r) => r.pageTitle, max: 40 },
  { header: 'Rule', kind: 'text', get: (r) => r.ruleId },
  { header: 'WCAG criterion', kind: 'text', get: (r) => r.wcagCriterion },
  { header: 'Level', kind: 'text', get: (r) => r.wcagLevel },
  { header: 'Severity', kind: 'text', get: (r) => r.severity },
  { header: 'Type', kind: 'text', get: (r) => r.type },
  { header: 'Status', kind: 'text', get: (r) => r.status },
  { header: 'Selector', kind: 'wrap', get: (r) => r.selector, max: 40 },
  { header: 'HTML', kind: 'wrap', get: (r) => r.html, max: 50 },
  { header: 'Description', kind: 'wrap', get: (r) => r.description, max: 50 },
  { header: 'Fix suggestion', kind: 'wrap', get: (r) => r.fixSuggestion, max: 60 },
  { header: 'Help URL', kind: 'text', get: (r) => r.helpUrl, max: 50 },
  { header: 'Also flagged by', kind: 'text', get: (r) => joinList(r.alsoFlaggedBy), max: 30 },
  { header: 'First seen (UTC)', kind: 'date', get: (r) => r.firstSeenAt },
  { header: 'Last seen (UTC)', kind: 'date', get: (r) => r.lastSeenAt },
];

const DIFF_COLUMNS: ColumnSpec<DiffRow>[] = [
  { header: 'Issue ID', kind: 'text', get: (r) => r.id },
  { header: 'Page URL', kind: 'link', get: (r) => r.pageUrl, max: 60 },
  { header: 'Rule', kind: 'text', get: (r) => r.ruleId },
  { header: 'WCAG criterion', kind: 'text', get: (r) => r.wcagCriterion },
  { header: 'Level', kind: 'text', get: (r) => r.wcagLevel },
  { header: 'Severity', kind: 'text', get: (r) => r.severity },
  { header: 'Type', kind: 'text', get: (r) => r.type },
  { header: 'Selector', kind: 'wrap', get: (r) => r.selector, max: 50 },
  { header: 'Change', kind: 'text', get: (r) => r.change },
  { header: 'Recorded (UTC)', kind: 'date', get: (r) => r.at },
];

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
];

const RESULT_LABEL: Record<CriterionResult['result'], string> = {
  fails: 'Fails',
  needs_review: 'Needs review',
  passed: 'No automated failure',
  not_checked: 'Not checked automatically',
};

const CRITERION_COLUMNS: ColumnSpec<CriterionResult>[] = [
  { header: 'Criterion', kind: 'text', get: (c) => c.id },
  { header: 'Title', kind: 'text', get: (c) => c.title, max: 50 },
  { header: 'Level', kind: 'text', get: (c) => c.level },
  { header: 'Principle', kind: 'text', get: (c) => c.principle },
  { header: 'Result', kind: 'text', get: (c) => RESULT_LABEL[c.result] ?? c.result },
  { header: 'Rules', kind: 'wrap', get: (c) => joinList(c.rules), max: 50 },
  { header: 'Issues', kind: 'int', get: (c) => c.issues },
  { header: 'Pages', kind: 'int', get: (c) => c.pages },
];

// ------------------------------------------------------------------------------------------------
// Summary

type SummaryValue = { value: CellInput; style: Style };

const num = (n: number | null | undefined, notAvailable = 'not available'): SummaryValue =>
  n == null || !Number.isFinite(n) ? { value: notAvailable, style: STYLE.text } : { value: n, style: STYLE.int };
const date = (d: Date | null | undefined): SummaryValue =>
  d instanceof Date && !Number.isNaN(d.getTime()) ? { value: d, style: STYLE.date } : { value: 'not recorded', style: STYLE.text };
const text = (s: unknown): SummaryValue => ({ value: safeCell(s), style: STYLE.wrap });
const link = (url: string): SummaryValue => {
  const target = safeHyperlink(url);
  const shown = safeCell(url);
  return target && typeof shown === 'string' ? { value: { text: shown, hyperlink: target }, style: STYLE.link } : text(url);
};

function summaryItems(report: Report): Array<[string, SummaryValue]> {
  const { target, summary } = report;
  const items: Array<[string, SummaryValue]> = [
    ['Report', text(report.title)],
    [target.kind === 'scan' ? 'Page title' : 'Site', text(target.name ?? target.hostname)],
    ['Target URL', link(target.url)],
    ['Kind', text(target.kind === 'scan' ? 'Single-page scan' : 'Site crawl')],
    ['Status', text(target.status)],
    [target.kind === 'scan' ? 'Scan ID' : 'Crawl ID', text(target.id)],
    ['Started (UTC)', date(target.startedAt)],
    ['Completed (UTC)', date(target.completedAt)],
    [
      'Duration (h:mm:ss)',
      target.durationMs != null && Number.isFinite(target.durationMs)
        ? { value: target.durationMs / 86_400_000, style: STYLE.duration }
        : { value: 'not recorded', style: STYLE.text },
    ],
    ['Report generated (UTC)', date(report.generatedAt)],
    ['Standard', text(target.standard)],
    ['Engine', text(target.engine)],
    ['Browser', text(target.browser)],
    ['Score (0-100)', num(summary.score, 'not scored: no page was scanned')],
    ['Score formula', text(summary.scoreFormula)],
    ['Issues (distinct: one rule on one element of one page)', num(summary.issues)],
    ['Pages scanned', num(summary.pagesScanned)],
    ['Pages affected', num(summary.pagesAffected)],
    ['Critical issues', num(summary.bySeverity.critical)],
    ['Serious issues', num(summary.bySeverity.serious)],
    ['Moderate issues', num(summary.bySeverity.moderate)],
    ['Minor issues', num(summary.bySeverity.minor)],
    ['Confirmed issues', num(summary.byType.confirmed)],
    ['Issues that need review', num(summary.byType.needs_review)],
    ['Perceivable', num(summary.byPrinciple.Perceivable)],
    ['Operable', num(summary.byPrinciple.Operable)],
    ['Understandable', num(summary.byPrinciple.Understandable)],
    ['Robust', num(summary.byPrinciple.Robust)],
  ];
  if (target.crawl) {
    items.push(
      ['Page budget', num(target.crawl.maxPages)],
      ['Pages found', num(target.crawl.totalPages)],
      ['Pages failed', num(target.crawl.failedPages)],
      ['Broken links', num(target.crawl.brokenLinks)],
    );
  }
  if (summary.change) {
    items.push(
      ['New issues since the previous crawl', num(summary.change.newIssues)],
      ['Fixed issues since the previous crawl', num(summary.change.fixedIssues)],
      ['Persisting issues', num(summary.change.persisting)],
      ['Previous score', num(summary.change.previousScore, 'not scored')],
    );
    if (report.diff?.previous) items.push(['Previous crawl completed (UTC)', date(report.diff.previous.completedAt)]);
  }
  if (report.pages.length < report.pagesTotal) {
    items.push(['Pages listed on the Pages sheet', text(`${report.pages.length} of ${report.pagesTotal} (worst scores first)`)]);
  }
  return items;
}

const NOT_A_CONFORMANCE_CLAIM =
  'These are automated findings. Automated checks cover only part of WCAG 2.2: this workbook is not a conformance claim, ' +
  'and issues marked "needs_review" need a person to decide. A manual review with assistive technology is needed for the rest.';

function writeSummary(wb: Workbook, report: Report) {
  const items = summaryItems(report);
  const priorities = report.topPriorities;
  const prioHeaders = ['Top priority', 'Why', 'Rule', 'Severity', 'WCAG criterion', 'Elements', 'Pages'];
  const keyWidth = Math.min(
    50,
    Math.max(...items.map(([k]) => k.length + 2), ...priorities.map((p) => textWidth(p.title) + 2), prioHeaders[0]!.length + 3),
  );
  const valueWidth = Math.min(
    MAX_COLUMN_WIDTH,
    Math.max(...items.map(([, v]) => (v.value instanceof Date ? 20 : textWidth(typeof v.value === 'object' && v.value ? (v.value as { text?: string }).text : v.value) + 2)), 24),
  );
  const rest = [2, 3, 4, 5, 6].map((i) =>
    Math.min(40, Math.max(prioHeaders[i]!.length + 2, ...priorities.map((p) => textWidth([null, null, p.ruleId, p.severity, p.wcagCriterion, p.elements, p.pages][i]) + 2))),
  );
  const ws = addSheet(wb, 'Summary', [
    { width: keyWidth, style: STYLE.wrap },
    { width: valueWidth, style: STYLE.wrap },
    ...rest.map((width) => ({ width, style: STYLE.text })),
  ]);

  writeRow(ws, ['Item', 'Value'], [STYLE.header, STYLE.header]);
  for (const [key, v] of items) writeRow(ws, [key, v.value], [STYLE.wrap, v.style]);
  ws.autoFilter = { from: 'A1', to: `B${items.length + 1}` };

  writeRow(ws, [], []);
  writeRow(ws, ['Summary', safeCell(report.summary.text)], [STYLE.heading, STYLE.wrap]);
  writeRow(ws, [], []);
  writeRow(ws, ['Top priorities'], [STYLE.heading]);
  if (priorities.length) {
    writeRow(ws, prioHeaders, prioHeaders.map(() => STYLE.header));
    for (const p of priorities) {
      writeRow(
        ws,
        [safeCell(p.title), safeCell(p.reason), safeCell(p.ruleId), safeCell(p.severity), safeCell(p.wcagCriterion), safeCell(p.elements), safeCell(p.pages)],
        [STYLE.wrap, STYLE.wrap, STYLE.text, STYLE.text, STYLE.text, STYLE.int, STYLE.int],
      );
    }
  } else {
    writeRow(ws, ['No issues were found by the automated checks.'], [STYLE.wrap]);
  }
  writeRow(ws, [], []);
  writeRow(ws, ['Note', NOT_A_CONFORMANCE_CLAIM], [STYLE.heading, STYLE.wrap]);
  ws.commit();
}

// ------------------------------------------------------------------------------------------------

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

    await streamSheet(wb, guard, 'Issues', ISSUE_COLUMNS, report.issueRows(), (sheet) => {
      const col = sheet.column('Status');
      // The streaming writer has `dataValidations` (one range entry, written at commit); its typings omit it.
      (sheet.ws as unknown as { dataValidations: { add(range: string, validation: ExcelJS.DataValidation): void } }).dataValidations.add(`${col}2:${col}${Math.max(2, sheet.rows + 1)}`, {
        type: 'list',
        allowBlank: true,
        formulae: [`"${ISSUE_STATUSES.join(',')}"`],
        showErrorMessage: true,
        errorStyle: 'warning',
        errorTitle: 'Status',
        error: `Use one of: ${ISSUE_STATUSES.join(', ')}`,
      });
    });

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

    const criteria = new TableSheet(wb, 'Criteria', CRITERION_COLUMNS, report.criteria);
    for (const c of report.criteria) criteria.write(c);
    criteria.finish();
    await guard.breathe();

    if (report.diff) {
      await streamSheet(wb, guard, 'New', DIFF_COLUMNS, report.diff.newRows());
      await streamSheet(wb, guard, 'Fixed', DIFF_COLUMNS, report.diff.fixedRows());
    }

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
