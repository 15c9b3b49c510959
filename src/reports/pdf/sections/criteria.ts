/**
 * Results by WCAG criterion: every WCAG 2.2 A/AA criterion with its result.
 */
import type { CriterionResult } from '../../report-model.ts';
import type { Part } from '../canvas.ts';
import { LIMITS, num, text } from '../format.ts';
import { COLORS, SEVERITY_COLOR, STYLES, withStyle } from '../styles.ts';
import { type Ctx, section } from './section.ts';

const RESULT: Record<CriterionResult['result'], { label: string; color: string; fill?: string; bold: boolean }> = {
  fails: { label: '\u2717 Fails', color: SEVERITY_COLOR.critical, fill: COLORS.failFill, bold: true },
  needs_review: { label: '? Needs review', color: SEVERITY_COLOR.moderate, fill: COLORS.reviewFill, bold: true },
  passed: { label: '\u2713 No automated failure', color: COLORS.good, bold: false },
  not_checked: { label: '\u2013 Not checked', color: COLORS.muted, bold: false },
};

export async function criteria(ctx: Ctx): Promise<void> {
  const { L, report } = ctx;
  section(ctx, 'criteria', { minSpace: 320 });
  const c = report.criteria;
  const count = (r: CriterionResult['result']) => c.filter((x) => x.result === r).length;
  L.paragraph(
    L.root,
    `All ${num(c.length)} success criteria of ${text(report.target.standard, 120)}: ${num(count('fails'))} fail, ${num(count('needs_review'))} need review, ` +
      `${num(count('passed'))} have no automated failure and ${num(count('not_checked'))} cannot be checked automatically. ` +
      'Criteria without an automated failure still need a manual review before any conformance statement.',
    STYLES.body,
    { gapAfter: 8, keepWith: 50 },
  );
  await L.table(
    L.root,
    [
      { header: 'WCAG', width: 40 },
      { header: 'Criterion and rules', width: 183 },
      { header: 'Level', width: 34 },
      { header: 'Result', width: 122 },
      { header: 'Issues', width: 52, align: 'right' },
      { header: 'Pages', width: L.width - 431, align: 'right' },
    ],
    c.map((x) => {
      const r = RESULT[x.result] ?? RESULT.not_checked;
      const titleParts: Part[] = [{ text: text(x.title, LIMITS.title), style: STYLES.cell }];
      if (x.rules.length) {
        titleParts[0]!.gap = 1;
        titleParts.push({ text: text(x.rules.join(', '), 200), style: withStyle(STYLES.cellMono, { size: 7, color: COLORS.muted }) });
      }
      return {
        fill: r.fill,
        cells: [
          { text: text(x.id, 12), style: { font: 'bold' } },
          { parts: titleParts },
          text(x.level, 4),
          { text: r.label, style: { font: r.bold ? 'bold' : 'regular', color: r.color } },
          x.issues ? num(x.issues) : '\u2013',
          x.pages ? num(x.pages) : '\u2013',
        ],
      };
    }),
  );
}
