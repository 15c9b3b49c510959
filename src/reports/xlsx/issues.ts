/**
 * The Issues sheet: every issue, every field, one row each, streamed; a list validation on Status.
 */
import type ExcelJS from 'exceljs';
import { stateText, viewportText } from '../context-text.ts';
import type { Report, ReportIssueRow } from '../report-model.ts';
import type { Guard } from './guard.ts';
import { type ColumnSpec, joinList, streamSheet, type Workbook } from './sheet.ts';

const ISSUE_STATUSES = ['open', 'fixed', 'dismissed', 'cant_fix'] as const;

const ISSUE_COLUMNS: ColumnSpec<ReportIssueRow>[] = [
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
  { header: 'State', kind: 'text', get: (r) => stateText(r.state), max: 50 },
  { header: 'Viewport', kind: 'text', get: (r) => viewportText(r.viewport), max: 20 },
  // A link to the API's picture of the element (our own URL, never page content).
  { header: 'Screenshot', kind: 'link', get: (r) => r.screenshotUrl, max: 60 },
  // Every criterion the issue fails, the primary first (last, so the older columns keep
  // their places); the level is the lowest of them.
  { header: 'WCAG criteria', kind: 'text', get: (r) => joinList(r.wcagCriteria), max: 30 },
];

export async function writeIssues(wb: Workbook, guard: Guard, report: Report): Promise<void> {
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
}
