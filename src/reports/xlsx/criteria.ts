/**
 * The Criteria sheet: every WCAG 2.2 A/AA criterion with its result, rules, issues and pages.
 */
import type { CriterionResult, Report } from '../report-model.ts';
import { type ColumnSpec, joinList, TableSheet, type Workbook } from './sheet.ts';

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

export function writeCriteria(wb: Workbook, report: Report): void {
  const criteria = new TableSheet(wb, 'Criteria', CRITERION_COLUMNS, report.criteria);
  for (const c of report.criteria) criteria.write(c);
  criteria.finish();
}
