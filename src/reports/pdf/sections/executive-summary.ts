/**
 * The executive summary: the summary text, key figures, counts by severity and type, the change
 * since the previous crawl, top priorities and what works well.
 */
import { LIMITS, num, percent, plural, SEVERITY_LABEL, text } from '../format.ts';
import { COLORS, SEVERITY_COLOR, STYLES, withStyle } from '../styles.ts';
import type { RowInput } from '../table.ts';
import { type Ctx, scoreColor, section, SEVERITIES } from './section.ts';
import { worksWell } from '../../conformance.ts';

export async function executiveSummary(ctx: Ctx): Promise<void> {
  const { L, report } = ctx;
  const s = report.summary;
  section(ctx, 'summary', { minSpace: 360 });
  L.paragraph(L.root, text(s.text, LIMITS.summary, true), withStyle(STYLES.body, { size: 10, lineGap: 3 }), { gapAfter: 12 });

  // Key figures: four tiles, each a paragraph.
  const tiles: Array<[string, string, string?]> = [
    ['Score', s.score == null ? '\u2013' : `${Math.round(s.score)} / 100`, scoreColor(s.score)],
    ['Issues', num(s.issues)],
    ['Pages affected', `${num(s.pagesAffected)} of ${num(s.pagesScanned)}`],
  ];
  if (s.change) tiles.push(['Since previous crawl', `+${num(s.change.newIssues)} / \u2212${num(s.change.fixedIssues)}`]);
  else tiles.push(['Critical issues', num(s.bySeverity.critical), SEVERITY_COLOR.critical]);
  const gap = 10;
  const tw = (L.width - gap * (tiles.length - 1)) / tiles.length;
  const th = 54;
  L.ensure(th);
  const ty = L.y;
  tiles.forEach((_, i) => L.rect(L.left + i * (tw + gap), ty, tw, th, COLORS.boxFill, 3));
  const valueStyle = withStyle(STYLES.h2, { size: 17, color: COLORS.ink });
  tiles.forEach(([label, value, color], i) => {
    const x = L.left + i * (tw + gap) + 10;
    // Shrink long values to fit the tile rather than cutting them.
    let vs = withStyle(valueStyle, { color: color ?? COLORS.ink });
    while (vs.size > 10 && L.widthOf(value, vs) > tw - 20) vs = withStyle(vs, { size: vs.size - 1 });
    L.leaf(L.root, 'P', () => {
      L.drawLine(`${L.fit(label, withStyle(STYLES.label, { size: 7.5 }), tw - 20)} `, x, ty + 10, withStyle(STYLES.label, { size: 7.5 }));
      L.drawLine(L.fit(value, vs, tw - 20), x, ty + 24 + (valueStyle.size - vs.size) / 2, vs);
    });
  });
  L.y = ty + th + 10;
  if (s.change) {
    L.paragraph(L.root, `Since the previous crawl: ${plural(s.change.newIssues, 'new issue')}, ${plural(s.change.fixedIssues, 'fixed issue')}, ${num(s.change.persisting)} persisting.`, STYLES.small, { gapAfter: 4 });
  }
  L.paragraph(L.root, `How the score is calculated: ${text(s.scoreFormula, 600)}`, STYLES.small, { gapAfter: 4 });

  // Severity and type counts.
  L.heading(L.root, 3, 'Issues by severity and type', { keepWith: 90 });
  const total = s.bySeverity.total;
  const sevRows: RowInput[] = SEVERITIES.map((sev) => ({
    cells: [{ text: SEVERITY_LABEL[sev], style: { font: 'bold', color: SEVERITY_COLOR[sev] } }, num(s.bySeverity[sev]), percent(s.bySeverity[sev], total)],
  }));
  sevRows.push({ cells: [{ text: 'Total', style: { font: 'bold' } }, { text: num(total), style: { font: 'bold' } }, total ? '100%' : '0%'] });
  await L.table(L.root, [
    { header: 'Severity', width: 150 },
    { header: 'Issues', width: 90, align: 'right' },
    { header: 'Share', width: 90, align: 'right' },
  ], sevRows, { rowHeaders: true, gapAfter: 6 });
  const typeTotal = s.byType.confirmed + s.byType.needs_review;
  L.paragraph(
    L.root,
    `By type: ${num(s.byType.confirmed)} confirmed (${percent(s.byType.confirmed, typeTotal)}) and ${num(s.byType.needs_review)} needing review (${percent(s.byType.needs_review, typeTotal)}). ` +
      `Issues were found on ${num(s.pagesAffected)} of ${plural(s.pagesScanned, 'scanned page')}.`,
    STYLES.body,
  );

  if (report.kind === 'crawl') {
    L.heading(L.root, 3, 'Change since the previous crawl', { keepWith: 30 });
    if (s.change) {
      const prev = s.change.previousScore;
      const delta = prev != null && s.score != null ? Math.round(s.score) - Math.round(prev) : null;
      const scoreText =
        prev == null
          ? ''
          : `The score went from ${Math.round(prev)} to ${s.score == null ? 'none' : Math.round(s.score)}${delta == null ? '' : ` (${delta > 0 ? '+' : delta < 0 ? '\u2212' : '\u00b1'}${Math.abs(delta)} points)`}. `;
      L.paragraph(
        L.root,
        `${scoreText}${plural(s.change.newIssues, 'issue')} ${s.change.newIssues === 1 ? 'is' : 'are'} new or reopened, ${num(s.change.fixedIssues)} fixed and ${num(s.change.persisting)} persisting.`,
        STYLES.body,
      );
    } else {
      L.paragraph(L.root, 'This is the first crawl of the site: there is no previous crawl to compare with.', STYLES.body);
    }
  }

  L.heading(L.root, 3, 'Top priorities', { keepWith: 60 });
  if (report.topPriorities.length) {
    L.paragraph(L.root, 'Fix these first: they are the most severe problems that reach the most pages.', STYLES.body, { gapAfter: 6, keepWith: 50 });
    await L.table(
      L.root,
      [
        { header: '#', width: 18, align: 'right' },
        { header: 'Issue', width: 168 },
        { header: 'Severity', width: 56 },
        { header: 'WCAG', width: 40 },
        { header: 'Elements', width: 56, align: 'right' },
        { header: 'Pages', width: 40, align: 'right' },
        { header: 'Why it matters', width: L.width - 378 },
      ],
      report.topPriorities.slice(0, 10).map((p, i) => ({
        cells: [
          String(i + 1),
          { parts: [{ text: text(p.title, LIMITS.title), style: STYLES.cellBold, gap: 1 }, { text: text(p.ruleId, 80), style: STYLES.cellMono }] },
          { text: SEVERITY_LABEL[p.severity], style: { font: 'bold', color: SEVERITY_COLOR[p.severity] } },
          text(p.wcagCriterion, 12),
          num(p.elements),
          num(p.pages),
          text(p.reason, 200),
        ],
      })),
    );
  } else {
    L.paragraph(L.root, 'No issues were found, so there is nothing to prioritise.', STYLES.body);
  }

  // "What works well" holds only criteria whose automated checks decide them in full (none yet:
  // conformance.ts); a check that found nothing against any other criterion is "no automated
  // failure", never evidence that the criterion is met (axe's `bypass` passes on any page with a
  // heading, whatever its repeated blocks).
  const positives = report.positiveFindings.slice(0, 20);
  const works = positives.filter((f) => worksWell(f.wcagCriterion));
  const noFailure = positives.filter((f) => !worksWell(f.wcagCriterion));
  const listOf = (items: typeof positives, label: string, color: string) =>
    L.list(
      L.root,
      items.map((f) => ({
        label,
        parts: [
          { text: `${text(f.title, LIMITS.title)}${f.wcagCriterion ? ` (WCAG ${text(f.wcagCriterion, 12)})` : ''}`, style: STYLES.bodyBold, gap: 1 },
          { text: text(f.detail, 400), style: withStyle(STYLES.body, { color: COLORS.muted, size: 9 }) },
        ],
      })),
      { labelStyle: withStyle(STYLES.bodyBold, { color }), itemGap: 5 },
    );
  if (works.length) {
    L.heading(L.root, 3, 'What works well', { keepWith: 30 });
    await listOf(works, '\u2713', COLORS.good);
  }
  if (noFailure.length || !works.length) L.heading(L.root, 3, 'No automated failure', { keepWith: 30 });
  if (noFailure.length) {
    L.paragraph(
      L.root,
      'The automated checks found nothing against these criteria. They test only part of each, so this does not show that a criterion is met: a person must confirm it.',
      STYLES.body,
      { gapAfter: 4, keepWith: 30 },
    );
    await listOf(noFailure, '\u2013', COLORS.muted);
  } else if (!works.length) {
    L.paragraph(L.root, 'No passing checks were recorded for this audit.', STYLES.body);
  }
}
