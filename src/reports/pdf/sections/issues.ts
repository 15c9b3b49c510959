/**
 * Issues by WCAG criterion and rule: one entry per issue group (the most severe and widespread in full,
 * with example elements and the fix; any further ones as table rows).
 */
import { contextText } from '../../context-text.ts';
import type { IssueGroup } from '../../report-model.ts';
import { successCriterion } from '../../../shared/wcag.ts';
import { clean, isHttpUrl, LIMITS, num, plural, SEVERITY_LABEL, text, TYPE_LABEL } from '../format.ts';
import type { ListItem } from '../layout.ts';
import { COLORS, SEVERITY_COLOR, STYLES, withStyle } from '../styles.ts';
import { type Ctx, section } from './section.ts';

/** Groups shown in full; any further ones (rare: one group per rule and criterion) get a table row. */
export const MAX_DETAILED_GROUPS = 40;

function isAiText(enrichedBy: string | null): boolean {
  return enrichedBy != null && enrichedBy !== '' && enrichedBy !== 'offline';
}

export async function issueGroups(ctx: Ctx): Promise<void> {
  const { L, report } = ctx;
  section(ctx, 'issues', { newPage: true });
  const groups = report.groups;
  if (!groups.length) {
    L.paragraph(L.root, 'The automated checks found no issues.', STYLES.body);
    return;
  }
  L.paragraph(
    L.root,
    `${plural(groups.length, 'group')} of issues, most severe and widespread first. A group gathers one rule\u2019s findings under one WCAG criterion` +
      `${report.kind === 'crawl' ? ' across all pages' : ''}, with up to three example elements. The Excel workbook lists every single issue.`,
    STYLES.body,
    { gapAfter: 4 },
  );
  let i = 0;
  const detailed = groups.slice(0, MAX_DETAILED_GROUPS);
  for (const g of detailed) {
    await L.checkpoint();
    if (i > 0) {
      L.space(10);
      L.ensure(120);
      if (!L.atPageTop) L.hrule(L.y, COLORS.rule, 0.5);
      L.space(2);
    }
    await group(ctx, g, ++i);
  }
  const rest = groups.slice(detailed.length);
  if (rest.length) {
    await L.checkpoint();
    L.heading(L.root, 3, `Other issue groups (${num(rest.length)})`, { keepWith: 60 });
    L.paragraph(L.root, `${rest.length === 1 ? `Group ${num(groups.length)} is` : `Groups ${num(detailed.length + 1)} to ${num(groups.length)} are`} less severe or less widespread and listed in short; the Excel workbook has their descriptions, fixes and every issue.`, STYLES.body, { gapAfter: 6, keepWith: 50 });
    await L.table(
      L.root,
      [
        { header: '#', width: 24, align: 'right' },
        { header: 'Issue', width: 205 },
        { header: 'WCAG', width: 44 },
        { header: 'Severity', width: 60 },
        { header: 'Type', width: 60 },
        { header: 'Elements', width: 50, align: 'right' },
        { header: 'Pages', width: L.width - 443, align: 'right' },
      ],
      rest.map((g, k) => ({
        cells: [
          String(detailed.length + k + 1),
          { parts: [{ text: text(g.title, LIMITS.title), style: STYLES.cell, gap: 1 }, { text: text(g.ruleId, 80), style: STYLES.cellMono }] },
          text(g.wcagCriterion, 12),
          { text: SEVERITY_LABEL[g.severity] ?? clean(g.severity), style: { font: 'bold', color: SEVERITY_COLOR[g.severity] ?? COLORS.ink } },
          TYPE_LABEL[g.type] ?? clean(g.type),
          num(g.elements),
          num(g.pages),
        ],
      })),
    );
  }
}

/** The state that revealed an example and the viewport it was found at, when either applies. */
function contextParts(e: IssueGroup['examples'][number]) {
  const t = contextText(e);
  return t ? [{ text: `found ${text(t, 260)}`, style: withStyle(STYLES.small, { size: 7.5, color: COLORS.ink }) }] : [];
}

/** Largest size of a group's picture on the page, in points (a CSS pixel is 0.75 pt). */
const PICTURE_MAX = { width: 380, height: 240 };

/** The group's first example in its page, outlined: a Figure with alternative text, and a caption. */
function picture(ctx: Ctx, p: NonNullable<IssueGroup['picture']>): void {
  const { L } = ctx;
  if (!(p.width > 0 && p.height > 0)) return;
  const scale = Math.min(0.75, Math.min(PICTURE_MAX.width, L.width) / p.width, PICTURE_MAX.height / p.height);
  const w = p.width * scale;
  const h = p.height * scale;
  L.ensure(h + 20);
  L.figure(
    L.root,
    text(p.alt, 600),
    h + 2,
    (x, y) => {
      try {
        L.doc.image(p.image, x + 1, y + 1, { width: w, height: h });
      } catch {
        // A picture pdfkit cannot read leaves its frame empty; the report goes on.
      }
      L.doc.lineWidth(0.5).strokeColor(COLORS.rule).rect(x + 0.5, y + 0.5, w + 1, h + 1).stroke();
    },
    { gapAfter: 2 },
  );
  L.paragraph(L.root, 'Example 1 in its page, outlined in magenta (a screenshot taken by the scan).', withStyle(STYLES.small, { size: 7.5 }), { gapAfter: 4 });
}

async function group(ctx: Ctx, g: IssueGroup, n: number): Promise<void> {
  const { L } = ctx;
  L.heading(L.root, 3, `${n}. ${text(g.title, LIMITS.title)}`, { keepWith: 90 });

  // Badges (severity, type) and the counts, then the criterion line.
  const badge = withStyle(STYLES.label, { size: 7.5, color: COLORS.white });
  const sevText = SEVERITY_LABEL[g.severity].toUpperCase();
  const typeText = (TYPE_LABEL[g.type] ?? clean(g.type)).toUpperCase();
  const sevW = L.widthOf(sevText, badge) + 12;
  const typeW = L.widthOf(typeText, badge) + 12;
  const metaStyle = withStyle(STYLES.body, { size: 9, color: COLORS.muted });
  const counts = `${plural(g.elements, 'element')} on ${plural(g.pages, 'page')}`;
  // The primary criterion with its own level, then the further criteria the same failure fails.
  const also = g.wcagCriteria.filter((c) => c !== g.wcagCriterion);
  const level = successCriterion(g.wcagCriterion)?.level ?? g.wcagLevel;
  const crit =
    `WCAG ${text(g.wcagCriterion, 12)} ${text(g.criterionTitle, 120)} (Level ${text(level, 4)}, ${text(g.principle, 20)})` +
    `${also.length ? `; also fails WCAG ${also.map((c) => text(c, 12)).join(', ')}` : ''} \u00b7 rule ${text(g.ruleId, 80)}`;
  const critH = L.measure(crit, metaStyle, L.width);
  L.ensure(16 + critH);
  const y0 = L.y;
  L.rect(L.left, y0, sevW, 14, SEVERITY_COLOR[g.severity] ?? COLORS.muted, 2);
  L.rect(L.left + sevW + 5, y0, typeW, 14, g.type === 'confirmed' ? COLORS.navy : COLORS.muted, 2);
  L.leaf(L.root, 'P', () => {
    L.drawLine(`${sevText} `, L.left + 6, y0 + 3, badge);
    L.drawLine(`${typeText} `, L.left + sevW + 11, y0 + 3, badge);
    L.drawLine(`${counts} `, L.left + sevW + typeW + 14, y0 + 2, withStyle(STYLES.bodyBold, { size: 9 }));
    L.draw(crit, L.left, y0 + 19, L.width, metaStyle);
  });
  L.y = y0 + 19 + critH + 6;

  L.paragraph(L.root, text(g.description, LIMITS.paragraph, true), STYLES.body, { gapAfter: 4 });

  L.heading(L.root, 4, 'How to fix', { keepWith: 24 });
  L.paragraph(L.root, text(g.fixSuggestion, LIMITS.paragraph, true) || 'No suggestion available.', STYLES.body, { gapAfter: 3 });
  if (isAiText(g.enrichedBy)) {
    L.paragraph(L.root, `This description and fix were written by AI (${text(g.enrichedBy, 60)}). Check them before relying on them.`, withStyle(STYLES.small, { size: 7.5 }), { gapAfter: 3 });
  }

  if (g.examples.length) {
    L.heading(L.root, 4, g.examples.length === 1 ? 'Example element' : `Example elements (${g.examples.length} of ${num(g.elements)})`, { keepWith: 40 });
    const items: ListItem[] = g.examples.slice(0, 3).map((e, k) => ({
      label: `${k + 1}.`,
      parts: [
        { text: text(e.selector, LIMITS.selector) || '(no selector)', style: withStyle(STYLES.mono, { font: 'mono' }), gap: 2 },
        { text: text(e.html, LIMITS.html, true) || '(no HTML)', style: withStyle(STYLES.mono, { size: 7.2, color: COLORS.ink }), fill: COLORS.codeFill, gap: 2 },
        { text: `on ${text(e.pageUrl, LIMITS.url)}`, style: withStyle(STYLES.small, { size: 7.5 }), gap: 1 },
        ...contextParts(e),
      ],
    }));
    await L.list(L.root, items, { itemGap: 6, labelStyle: withStyle(STYLES.small, { size: 8 }) });
  }
  if (g.picture) picture(ctx, g.picture);

  if (g.examplePages.length && ctx.report.kind === 'crawl') {
    const shown = g.examplePages.slice(0, 5);
    L.heading(L.root, 4, `Pages affected (${num(g.pages)})`, { keepWith: 30 });
    await L.list(
      L.root,
      shown.map((u) => ({ label: '\u2022', parts: [{ text: text(u, LIMITS.url), style: withStyle(STYLES.small, { color: COLORS.ink }) }] })),
      { itemGap: 1.5, gapAfter: 3 },
    );
    const more = g.pages - shown.length;
    if (more > 0) L.paragraph(L.root, `+${num(more)} more ${more === 1 ? 'page' : 'pages'}: the Excel workbook lists them all.`, withStyle(STYLES.small, { size: 7.5 }), { gapAfter: 3 });
  }
  if (g.helpUrl && isHttpUrl(g.helpUrl)) {
    L.linkParagraph(L.root, 'Rule documentation:', g.helpUrl, text(g.helpUrl, LIMITS.url), { style: withStyle(STYLES.small, { size: 7.5 }) });
  }
}
