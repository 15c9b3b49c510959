/**
 * Changes since the previous crawl (crawl reports): new and fixed issues counted per rule.
 */
import type { DiffByRule } from '../../report-model.ts';
import { clean, fmtDate, LIMITS, num, plural, SEVERITY_LABEL, text } from '../format.ts';
import { COLORS, SEVERITY_COLOR, STYLES } from '../styles.ts';
import { type Ctx, section } from './section.ts';

const MAX_DIFF_RULE_ROWS = 100;

async function diffTable(ctx: Ctx, rows: DiffByRule[], countHeader: string): Promise<void> {
  const { L } = ctx;
  const shown = rows.slice(0, MAX_DIFF_RULE_ROWS);
  await L.table(
    L.root,
    [
      { header: 'Rule', width: 250 },
      { header: 'WCAG', width: 50 },
      { header: 'Severity', width: 80 },
      { header: countHeader, width: L.width - 380, align: 'right' },
    ],
    shown.map((r) => ({
      cells: [
        { parts: [{ text: text(r.title, LIMITS.title), style: STYLES.cell, gap: 1 }, { text: text(r.ruleId, 80), style: STYLES.cellMono }] },
        text(r.wcagCriterion, 12),
        { text: SEVERITY_LABEL[r.severity] ?? clean(r.severity), style: { font: 'bold', color: SEVERITY_COLOR[r.severity] ?? COLORS.ink } },
        num(r.count),
      ],
    })),
  );
  if (rows.length > shown.length) L.paragraph(L.root, `${num(rows.length - shown.length)} more rules: see the Excel workbook.`, STYLES.small);
}

export async function changes(ctx: Ctx): Promise<void> {
  const { L, report } = ctx;
  section(ctx, 'changes', { minSpace: 300 });
  const d = report.diff;
  if (!d || !d.previous) {
    L.paragraph(L.root, 'This is the first crawl of the site: there is no previous crawl to compare with. The next crawl\u2019s report will show what changed.', STYLES.body);
    return;
  }
  const now = report.summary.score;
  const prev = d.previous.overallScore;
  const delta = now != null && prev != null ? Math.round(now) - Math.round(prev) : null;
  L.paragraph(
    L.root,
    `Compared with the crawl completed on ${fmtDate(d.previous.completedAt)} (score ${prev == null ? 'none' : Math.round(prev)}), this crawl scores ${now == null ? 'none' : Math.round(now)}` +
      `${delta == null ? '' : ` (${delta > 0 ? '+' : delta < 0 ? '\u2212' : '\u00b1'}${Math.abs(delta)} points)`}. ` +
      `${plural(d.newIssues, 'issue')} ${d.newIssues === 1 ? 'is' : 'are'} new or reopened and ${num(d.fixedIssues)} ${d.fixedIssues === 1 ? 'was' : 'were'} fixed.` +
      (report.summary.change ? ` ${num(report.summary.change.persisting)} persist.` : ''),
    STYLES.body,
    { gapAfter: 4 },
  );
  L.paragraph(L.root, 'The tables count issues per rule; the Excel workbook lists each new and fixed issue.', STYLES.small, { gapAfter: 4, keepWith: 90 });
  L.heading(L.root, 3, `New issues by rule (${num(d.newIssues)})`, { keepWith: 50 });
  if (d.newByRule.length) await diffTable(ctx, d.newByRule, 'New issues');
  else L.paragraph(L.root, 'No new issues.', STYLES.body);
  await L.checkpoint();
  L.heading(L.root, 3, `Fixed issues by rule (${num(d.fixedIssues)})`, { keepWith: 50 });
  if (d.fixedByRule.length) await diffTable(ctx, d.fixedByRule, 'Fixed issues');
  else L.paragraph(L.root, 'No issues were fixed.', STYLES.body);
}
