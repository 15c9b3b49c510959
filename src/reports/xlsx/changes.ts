/**
 * The New and Fixed sheets of a crawl with a diff: exactly the issues the crawl counted in
 * `newIssues` and `fixedIssues`, streamed.
 */
import type { DiffRow, ReportDiff } from '../report-model.ts';
import type { Guard } from './guard.ts';
import { type ColumnSpec, joinList, streamSheet, type Workbook } from './sheet.ts';

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
  { header: 'WCAG criteria', kind: 'text', get: (r) => joinList(r.wcagCriteria), max: 30 },
];

export async function writeChanges(wb: Workbook, guard: Guard, diff: ReportDiff): Promise<void> {
  await streamSheet(wb, guard, 'New', DIFF_COLUMNS, diff.newRows());
  await streamSheet(wb, guard, 'Fixed', DIFF_COLUMNS, diff.fixedRows());
}
