/**
 * The Summary sheet: what was audited, the score and every count of the report as items, the summary
 * text, the top priorities, and the note that these are automated findings.
 */
import type { Report } from '../report-model.ts';
import { safeCell, safeHyperlink } from '../safe-cell.ts';
import { addSheet, type CellInput, MAX_COLUMN_WIDTH, STYLE, type Style, textWidth, type Workbook, writeRow } from './sheet.ts';

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

export function writeSummary(wb: Workbook, report: Report) {
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
