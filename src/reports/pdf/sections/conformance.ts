/**
 * The conformance report (ACR): every WCAG 2.2 A/AA criterion with the level an Accessibility
 * Conformance Report may state on the audit's evidence, and why (see ../../conformance.ts). The
 * same rows as the OpenACR export.
 */
import { CONFORMANCE_LABEL, type ConformanceLevel } from '../../conformance.ts';
import { LIMITS, num, text } from '../format.ts';
import { COLORS, SEVERITY_COLOR, STYLES, withStyle } from '../styles.ts';
import { type Ctx, section } from './section.ts';

const LOOK: Record<ConformanceLevel, { color: string; fill?: string; bold: boolean }> = {
  'does-not-support': { color: SEVERITY_COLOR.critical, fill: COLORS.failFill, bold: true },
  'partially-supports': { color: SEVERITY_COLOR.serious, fill: COLORS.reviewFill, bold: true },
  supports: { color: COLORS.good, bold: true },
  'not-evaluated': { color: COLORS.muted, bold: false },
};

export async function conformanceReport(ctx: Ctx): Promise<void> {
  const { L, report } = ctx;
  section(ctx, 'conformance', { minSpace: 320 });
  const rows = report.conformance;
  const count = (c: ConformanceLevel) => rows.filter((r) => r.conformance === c).length;
  const engines = report.target.engines.map((e) => `${e.name} ${e.version}`).join('; ');
  L.paragraph(
    L.root,
    `What an Accessibility Conformance Report (VPAT\u00ae 2.5, WCAG edition) can state from this automated audit: ${num(count('does-not-support'))} Does Not Support ` +
      `(confirmed issues on every page audited), ${num(count('partially-supports'))} Partially Supports (on some pages), ${num(count('supports'))} Supports and ` +
      `${num(count('not-evaluated'))} Not Evaluated. Automated checks never show that a criterion is met, so nothing is marked Supports on their evidence alone; ` +
      `Not Evaluated criteria need a person. Checked by ${text(engines, 600)}. The OpenACR export (format=openacr) carries the same rows.`,
    STYLES.body,
    { gapAfter: 8, keepWith: 50 },
  );
  await L.table(
    L.root,
    [
      { header: 'WCAG', width: 40 },
      { header: 'Criterion', width: 120 },
      { header: 'Level', width: 34 },
      { header: 'Conformance', width: 86 },
      { header: 'Remarks and explanations', width: L.width - 280 },
    ],
    rows.map((r) => {
      const look = LOOK[r.conformance];
      return {
        fill: look.fill,
        cells: [
          { text: text(r.id, 12), style: { font: 'bold' } },
          text(r.title, LIMITS.title),
          text(r.level, 4),
          { text: CONFORMANCE_LABEL[r.conformance], style: { font: look.bold ? 'bold' : 'regular', color: look.color } },
          { text: text(r.remarks, 420), style: withStyle(STYLES.cell, { size: 7.5 }) },
        ],
      };
    }),
  );
}
