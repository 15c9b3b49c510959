/**
 * Findings at a glance: the vector charts (by severity, by WCAG principle, score per page, score over
 * the site’s crawls), each a Figure with alternative text and its numbers repeated in a caption.
 */
import type { ReportPage } from '../../report-model.ts';
import { type Bar, drawColumns, drawHBars, drawLineChart, hBarsHeight } from '../charts.ts';
import { fmtShortDate, num, percent, plural, SEVERITY_LABEL, urlPath } from '../format.ts';
import { COLORS, SEVERITY_COLOR, STYLES } from '../styles.ts';
import { type Ctx, PRINCIPLES, scoreColor, section, SEVERITIES } from './section.ts';

const MAX_PAGE_BARS = 20;
const MAX_TREND_POINTS = 24;

function caption(ctx: Ctx, s: string): void {
  ctx.L.paragraph(ctx.L.root, s, STYLES.small, { gapAfter: 6 });
}

export function findingsAtAGlance(ctx: Ctx): void {
  const { L, report } = ctx;
  const s = report.summary;
  section(ctx, 'charts', { minSpace: 280 });
  L.paragraph(L.root, 'The charts below summarise the findings; each chart\u2019s numbers are repeated in the text under it.', STYLES.body, { gapAfter: 4 });

  if (!s.bySeverity.total && !s.issues) {
    L.paragraph(L.root, 'The automated checks found no issues, so there is nothing to chart by severity or WCAG principle.', STYLES.body);
  } else {
    severityAndPrincipleCharts(ctx);
  }
  if (report.kind === 'crawl') crawlCharts(ctx);
}

function severityAndPrincipleCharts(ctx: Ctx): void {
  const { L, report } = ctx;
  const s = report.summary;
  // Issues by severity.
  const sevTotal = s.bySeverity.total;
  const sevList = SEVERITIES.map((sev) => `${SEVERITY_LABEL[sev].toLowerCase()} ${num(s.bySeverity[sev])}`).join(', ');
  L.heading(L.root, 3, 'Issues by severity', { keepWith: hBarsHeight(4) + 30 });
  L.figure(L.root, `Bar chart of issues by severity: ${sevList} (${num(sevTotal)} in total).`, hBarsHeight(4), (x, y, w) => {
    drawHBars(L, x, y + 4, w, SEVERITIES.map((sev): Bar => ({ label: SEVERITY_LABEL[sev], value: s.bySeverity[sev], color: SEVERITY_COLOR[sev], valueText: `${num(s.bySeverity[sev])} (${percent(s.bySeverity[sev], sevTotal)})` })), {
      labelWidth: 80,
      axisTitle: 'Issues',
    });
  });
  caption(ctx, `Issues by severity: ${SEVERITIES.map((sev) => `${SEVERITY_LABEL[sev]} ${num(s.bySeverity[sev])} (${percent(s.bySeverity[sev], sevTotal)})`).join(' \u00b7 ')}. Total ${num(sevTotal)}.`);

  // Issues by principle.
  const pTotal = PRINCIPLES.reduce((n, p) => n + (s.byPrinciple[p] ?? 0), 0);
  L.heading(L.root, 3, 'Issues by WCAG principle', { keepWith: hBarsHeight(4) + 30 });
  L.figure(L.root, `Bar chart of issues by WCAG principle: ${PRINCIPLES.map((p) => `${p} ${num(s.byPrinciple[p] ?? 0)}`).join(', ')}.`, hBarsHeight(4), (x, y, w) => {
    drawHBars(L, x, y + 4, w, PRINCIPLES.map((p): Bar => ({ label: p, value: s.byPrinciple[p] ?? 0, color: COLORS.accent, valueText: `${num(s.byPrinciple[p] ?? 0)} (${percent(s.byPrinciple[p] ?? 0, pTotal)})` })), {
      labelWidth: 80,
      axisTitle: 'Issues',
    });
  });
  caption(ctx, `Issues by WCAG principle: ${PRINCIPLES.map((p) => `${p} ${num(s.byPrinciple[p] ?? 0)}`).join(' \u00b7 ')}.`);
}

function crawlCharts(ctx: Ctx): void {
  const { L, report } = ctx;

  // Score per page: a bar per page for small crawls, else a histogram of 10-point bands.
  const scored = report.pages.filter((p): p is ReportPage & { score: number } => p.state === 'scanned' && p.score != null);
  const capped = report.pagesTotal > report.pages.length;
  if (scored.length && scored.length <= MAX_PAGE_BARS && !capped) {
    L.heading(L.root, 3, 'Score per page', { keepWith: hBarsHeight(scored.length) + 30 });
    const list = scored.map((p) => `${urlPath(p.url, 60)} ${Math.round(p.score)}`).join(', ');
    L.figure(L.root, `Bar chart of the score of each scanned page out of 100, worst first: ${list}.`, hBarsHeight(scored.length), (x, y, w) => {
      drawHBars(L, x, y + 4, w, scored.map((p): Bar => ({ label: urlPath(p.url, 60), value: p.score, color: scoreColor(p.score), valueText: String(Math.round(p.score)) })), {
        labelWidth: 170,
        axisTitle: 'Score (0\u2013100)',
        max: 100,
      });
    });
    caption(ctx, `Score per page, worst first: ${scored.map((p) => `${urlPath(p.url, 60)} ${Math.round(p.score)}`).join(' \u00b7 ')}.`);
  } else if (scored.length) {
    const bands = Array.from({ length: 10 }, (_, i) => ({ label: i === 9 ? '90\u2013100' : `${i * 10}\u2013${i * 10 + 9}`, value: 0 }));
    for (const p of scored) bands[Math.min(9, Math.max(0, Math.floor(p.score / 10)))]!.value++;
    const bandText = bands.map((b) => `${b.label}: ${num(b.value)}`).join(', ');
    const scope = capped ? ` of the ${num(scored.length)} pages listed in this report (of ${num(report.pagesTotal)})` : ` of ${plural(scored.length, 'scanned page')}`;
    L.heading(L.root, 3, 'Pages by score', { keepWith: 200 });
    L.figure(L.root, `Histogram of page scores in 10-point bands${scope}: ${bandText}.`, 170, (x, y, w) => {
      drawColumns(L, x, y, w, 170, bands.map((b, i): Bar => ({ label: b.label, value: b.value, color: scoreColor(i * 10 + 5) })), { yTitle: 'Pages', xTitle: 'Score band' });
    });
    caption(ctx, `Pages per score band${scope}: ${bands.map((b) => `${b.label}: ${num(b.value)}`).join(' \u00b7 ')}.`);
  }

  // Score trend over the site's crawls.
  L.heading(L.root, 3, 'Score over time', { keepWith: 200 });
  const trend = report.trend.slice(-MAX_TREND_POINTS);
  if (trend.some((p) => p.overallScore != null)) {
    const pts = trend.map((p) => ({ label: fmtShortDate(p.completedAt), value: p.overallScore == null ? null : Math.round(p.overallScore) }));
    const list = pts.map((p) => `${p.label} ${p.value ?? 'no score'}`).join(', ');
    const more = report.trend.length > trend.length ? ` (the last ${trend.length} of ${report.trend.length} crawls)` : '';
    L.figure(L.root, `Line chart of the site\u2019s score out of 100 per crawl${more}, oldest first: ${list}.`, 180, (x, y, w) => {
      drawLineChart(L, x, y, w, 180, pts, { yTitle: 'Score', xTitle: 'Crawl completed' });
    });
    caption(ctx, `Score per crawl${more}, oldest first: ${pts.map((p) => `${p.label}: ${p.value ?? 'no score'}`).join(' \u00b7 ')}.`);
  } else {
    L.paragraph(L.root, 'No crawl of this site has a score yet.', STYLES.body);
  }
}
