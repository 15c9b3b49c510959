/**
 * The PDF report: a tagged, PDF/UA-minded document built with pdfkit from a `Report`.
 *
 * Order: cover (H1), contents (crawl), About this audit, Executive summary, Findings at a glance
 * (vector charts as Figures with alt text), Results by WCAG criterion, Issues by WCAG criterion and
 * rule, Changes since the previous crawl (crawl), Pages (crawl), Pages not scanned, Glossary.
 * Page furniture (running header, footer, page numbers) is drawn at the end over the buffered pages
 * as Pagination artifacts, and the contents' page numbers are filled in then.
 *
 * It never reads `report.issueRows()` nor the diff's row lists: the PDF is aggregated (one entry per
 * rule group, at most 500 page rows); the workbook holds every issue. It yields to the event loop
 * every few rows and stops with an AbortError when `opts.signal` aborts or `out` is closed.
 */
import type { Writable } from 'node:stream';
import PDFDocument from 'pdfkit';
import type { Severity } from '../shared/contracts.ts';
import { drawColumns, drawHBars, drawLineChart, hBarsHeight, type Bar } from './pdf/charts.ts';
import {
  capitalize,
  clean,
  fmtDate,
  fmtDateTime,
  fmtDuration,
  fmtShortDate,
  isHttpUrl,
  LIMITS,
  num,
  percent,
  plural,
  SEVERITY_LABEL,
  text,
  TYPE_LABEL,
  urlPath,
} from './pdf/format.ts';
import type { StructElem, Part } from './pdf/canvas.ts';
import { escapeXmpInfo, registerFonts } from './pdf/document.ts';
import { Layout, type ListItem } from './pdf/layout.ts';
import { COLORS, SEVERITY_COLOR, STYLES, withStyle } from './pdf/styles.ts';
import type { RowInput } from './pdf/table.ts';
import type { CriterionResult, DiffByRule, IssueGroup, Report, ReportPage, WcagPrinciple } from './report-model.ts';

export interface RenderPdfOptions {
  signal?: AbortSignal;
}

const MARGINS = { top: 68, bottom: 62, left: 56, right: 56 };
/** Rows of the Pages table; the workbook has them all. */
export const MAX_PAGE_ROWS = 500;
const MAX_FAILED_ROWS = 200;
const MAX_DIFF_RULE_ROWS = 100;
const MAX_PAGE_BARS = 20;
const MAX_TREND_POINTS = 24;
/** Groups shown in full; any further ones (rare: one group per rule and criterion) get a table row. */
export const MAX_DETAILED_GROUPS = 40;
const SEVERITIES: Severity[] = ['critical', 'serious', 'moderate', 'minor'];
const PRINCIPLES: WcagPrinciple[] = ['Perceivable', 'Operable', 'Understandable', 'Robust'];

interface Section {
  id: string;
  title: string;
}

interface TocEntry {
  section: Section;
  toci: StructElem;
  link: StructElem;
  y: number;
  titleEnd: number;
}

interface Ctx {
  L: Layout;
  report: Report;
  sections: Section[];
  sectionPage: Map<string, number>;
  toc: { page: number; elem: StructElem; entries: TocEntry[] } | null;
}

function abortError(message = 'The PDF rendering was aborted'): DOMException {
  return new DOMException(message, 'AbortError');
}

/**
 * Writes the report as a PDF into `out` and ends it. Rejects with an AbortError (and destroys
 * `out`) when `opts.signal` aborts or `out` is closed before the document is complete.
 */
export async function renderPdf(report: Report, out: NodeJS.WritableStream | Writable, opts: RenderPdfOptions = {}): Promise<void> {
  const { signal } = opts;
  const stream = out as Writable;
  if (signal?.aborted) throw signal.reason ?? abortError();
  if (stream.destroyed || stream.writableEnded) throw abortError('The output stream is already closed');

  const title = text(report.title, 300) || 'Accessibility report';
  const doc = new PDFDocument({
    pdfVersion: '1.7',
    tagged: true,
    subset: 'PDF/UA',
    lang: clean(report.lang) || 'en',
    displayTitle: true,
    bufferPages: true,
    autoFirstPage: true,
    size: 'A4',
    margins: MARGINS,
    info: {
      Title: title,
      Subject: `Automated accessibility findings (${clean(report.target.standard)}) for ${text(report.target.url, 300)}`,
      Author: 'a11y-audit',
      Creator: 'a11y-audit',
      Keywords: 'accessibility, WCAG, audit',
      CreationDate: report.generatedAt instanceof Date && !Number.isNaN(report.generatedAt.getTime()) ? report.generatedAt : new Date(),
    },
  } as unknown as PDFKit.PDFDocumentOptions);
  registerFonts(doc);
  escapeXmpInfo(doc);
  const L = new Layout(doc);

  let complete = false;
  const onAbort = () => L.stop(signal?.reason ?? abortError());
  const onClose = () => {
    if (!complete) L.stop(abortError('The output stream was closed before the PDF was complete'));
  };
  const onError = (err: unknown) => L.stop(err);
  signal?.addEventListener('abort', onAbort, { once: true });
  stream.on('close', onClose);
  stream.on('error', onError);
  doc.on('error', onError);
  doc.pipe(stream);

  try {
    await layoutReport(L, report);
    L.throwIfStopped();
    const finished = new Promise<void>((resolve, reject) => {
      stream.once('finish', () => {
        complete = true;
        resolve();
      });
      L.onStop(reject);
    });
    doc.end();
    await finished;
  } catch (err) {
    doc.unpipe(stream);
    doc.destroy();
    // Destroyed without an error: the caller gets the error from this promise, and an 'error'
    // event emitted after our listeners are gone would be an uncaught exception.
    if (!stream.destroyed) stream.destroy();
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    stream.off('close', onClose);
    stream.off('error', onError);
  }
}

async function layoutReport(L: Layout, report: Report): Promise<void> {
  const ctx: Ctx = { L, report, sections: planSections(report), sectionPage: new Map(), toc: null };
  await L.checkpoint();
  cover(ctx);
  await L.checkpoint();
  if (report.kind === 'crawl') contents(ctx);
  await about(ctx);
  await L.checkpoint();
  await executiveSummary(ctx);
  await L.checkpoint();
  charts(ctx);
  await L.checkpoint();
  await criteria(ctx);
  await L.checkpoint();
  await issueGroups(ctx);
  if (report.kind === 'crawl') {
    await L.checkpoint();
    await changes(ctx);
    await L.checkpoint();
    await pagesTable(ctx);
  }
  if (report.failedPages.length) {
    await L.checkpoint();
    await failedPages(ctx);
  }
  await L.checkpoint();
  await glossary(ctx);
  await L.checkpoint();
  fillContents(ctx);
  furniture(ctx);
  L.root.end();
  await L.checkpoint();
}

function planSections(report: Report): Section[] {
  const s: Section[] = [
    { id: 'about', title: 'About this audit' },
    { id: 'summary', title: 'Executive summary' },
    { id: 'charts', title: 'Findings at a glance' },
    { id: 'criteria', title: 'Results by WCAG criterion' },
    { id: 'issues', title: 'Issues by WCAG criterion and rule' },
  ];
  if (report.kind === 'crawl') {
    s.push({ id: 'changes', title: 'Changes since the previous crawl' });
    s.push({ id: 'pages', title: 'Pages' });
  }
  if (report.failedPages.length) s.push({ id: 'failed', title: 'Pages not scanned' });
  s.push({ id: 'glossary', title: 'Glossary' });
  return s;
}

/** An H2 section heading with its bookmark and named destination; `newPage` unless it fits. */
function section(ctx: Ctx, id: string, opts: { newPage?: boolean; minSpace?: number } = {}): void {
  const { L } = ctx;
  const s = ctx.sections.find((x) => x.id === id)!;
  if (opts.newPage || (opts.minSpace != null && L.remaining < opts.minSpace)) {
    if (!L.atPageTop) L.newPage();
  }
  L.heading(L.root, 2, s.title, { outline: true, dest: `section-${id}`, keepWith: 80 });
  ctx.sectionPage.set(id, L.pageIndex);
}

const scoreColor = (score: number | null): string =>
  score == null ? COLORS.muted : score >= 90 ? COLORS.good : score >= 50 ? SEVERITY_COLOR.moderate : SEVERITY_COLOR.critical;

const kindLabel = (r: Report) => (r.kind === 'crawl' ? 'Site crawl' : 'Single-page scan');

function statusLabel(status: string): string {
  const map: Record<string, string> = {
    completed: 'Completed',
    completed_partial: 'Completed, some pages not scanned',
    failed: 'Failed',
    cancelled: 'Cancelled',
    running: 'Running',
    queued: 'Queued',
  };
  return map[status] ?? capitalize(clean(status).replace(/_/g, ' '));
}

// ---- cover ------------------------------------------------------------------------------------

function cover(ctx: Ctx): void {
  const { L, report } = ctx;
  const t = report.target;
  L.rect(0, 0, L.pageW, 10, COLORS.navy);
  L.artifact(() => {
    L.drawLine('a11y-audit', L.left, 40, withStyle(STYLES.label, { size: 8, color: COLORS.navy }));
    L.drawLine('Automated accessibility audit', L.left, 40, withStyle(STYLES.small, { size: 8 }), { width: L.width, align: 'right' });
  });
  L.hrule(56, COLORS.rule, 0.5);

  // H1: the report title, set as "Accessibility report" and the site or page.
  const subject = report.kind === 'crawl' ? text(t.hostname || t.url, 80) : text(t.url, LIMITS.url);
  const y0 = 150;
  const h1 = L.el(L.root, 'H1');
  const subjectStyle = withStyle(STYLES.h1, { font: 'regular', size: report.kind === 'crawl' ? 20 : 15, color: COLORS.ink, lineGap: 2 });
  let y = y0;
  L.mark(h1, 'H1', () => {
    y += L.draw('Accessibility report ', L.left, y, L.width, STYLES.h1) + 6;
    y += L.draw(subject, L.left, y, L.width, subjectStyle);
  });
  h1.end();
  L.y = y + 18;

  const kindLine =
    report.kind === 'crawl'
      ? `${kindLabel(report)} of ${text(t.url, LIMITS.url)}${t.crawl ? ` \u00b7 ${plural(t.crawl.scannedPages, 'page')} scanned` : ''}`
      : `${kindLabel(report)}${t.name ? ` \u00b7 \u201c${text(t.name, 100)}\u201d` : ''}`;
  L.paragraph(L.root, kindLine, withStyle(STYLES.body, { size: 11 }), { gapAfter: 4 });
  L.paragraph(L.root, `Audit completed ${fmtDateTime(t.completedAt ?? t.startedAt)} \u00b7 report generated ${fmtDate(report.generatedAt)}`, withStyle(STYLES.body, { size: 10, color: COLORS.muted }), { gapAfter: 4 });
  L.paragraph(L.root, `Standard: ${text(t.standard, 120)}`, withStyle(STYLES.body, { size: 10, color: COLORS.muted }), { gapAfter: 0 });

  // Score card.
  const s = report.summary;
  const cardY = Math.max(L.y + 34, 340);
  const cardH = 150;
  L.rect(L.left, cardY, L.width, cardH, COLORS.boxFill, 4);
  L.rect(L.left, cardY, 5, cardH, scoreColor(s.score));
  const leftW = 170;
  const sx = L.left + 24;
  L.leaf(L.root, 'P', () => {
    L.drawLine('Overall score ', sx, cardY + 20, withStyle(STYLES.label, { size: 9 }));
    const big = withStyle(STYLES.h1, { size: 58, color: scoreColor(s.score), lineGap: 0 });
    const scoreText = s.score == null ? '\u2013' : String(Math.round(s.score));
    L.drawLine(`${scoreText} `, sx, cardY + 38, big);
    const w = L.widthOf(scoreText, big);
    L.drawLine(s.score == null ? 'no page scanned' : 'out of 100', sx + w + 6, cardY + 84, withStyle(STYLES.body, { size: 11, color: COLORS.muted }));
  });
  L.artifact(() => {
    L.doc.strokeColor(COLORS.rule).lineWidth(0.75).moveTo(L.left + leftW + 14, cardY + 18).lineTo(L.left + leftW + 14, cardY + cardH - 18).stroke();
  });
  const figures: Array<[string, string]> = [
    ['Issues found', num(s.issues)],
    ['Pages affected', `${num(s.pagesAffected)} of ${num(s.pagesScanned)}`],
    ['Critical issues', num(s.bySeverity.critical)],
    ['Serious issues', num(s.bySeverity.serious)],
  ];
  const gx = L.left + leftW + 34;
  const colW = (L.right - gx - 10) / 2;
  figures.forEach(([label, value], i) => {
    const fx = gx + (i % 2) * colW;
    const fy = cardY + 22 + Math.floor(i / 2) * 58;
    L.leaf(L.root, 'P', () => {
      L.drawLine(`${label} `, fx, fy, withStyle(STYLES.label, { size: 8 }));
      L.drawLine(L.fit(value, withStyle(STYLES.h2, { size: 20, color: COLORS.ink }), colW - 8), fx, fy + 13, withStyle(STYLES.h2, { size: 20, color: COLORS.ink }));
    });
  });

  // Disclaimer.
  const dParts: Part[] = [
    { text: 'Automated findings, not a conformance claim', style: withStyle(STYLES.bodyBold, { color: COLORS.navy }), gap: 4 },
    {
      text:
        'This report lists what automated checks found on the pages that were scanned. Automated checks cover only part of WCAG: ' +
        'a page without findings is not necessarily accessible, items marked \u201cneeds review\u201d must be judged by a person, and ' +
        'nothing in this report is a statement of conformance with WCAG or any law.',
      style: withStyle(STYLES.body, { size: 9 }),
    },
  ];
  const dW = L.width - 32;
  const dH = L.measureParts(dParts, dW) + 28;
  const dY = Math.max(cardY + cardH + 40, L.bottom - dH - 10);
  L.rect(L.left, dY, L.width, dH, COLORS.boxFill, 4);
  L.rect(L.left, dY, 5, dH, COLORS.navy);
  L.y = dY + 14;
  L.block(L.root, 'P', dParts, { x: L.left + 18, width: dW });
}

// ---- contents (crawl) -------------------------------------------------------------------------

function contents(ctx: Ctx): void {
  const { L } = ctx;
  L.newPage();
  L.heading(L.root, 2, 'Contents', { outline: false, keepWith: 100 });
  const toc = L.el(L.root, 'TOC');
  const entries: TocEntry[] = [];
  const s = withStyle(STYLES.body, { size: 10.5 });
  for (const sec of ctx.sections) {
    const y0 = L.y;
    const toci = L.el(toc, 'TOCI');
    const link = L.el(toci, 'Link');
    L.mark(link, 'Link', () => L.drawLine(`${sec.title} `, L.left, y0, s));
    entries.push({ section: sec, toci, link, y: y0, titleEnd: L.left + L.widthOf(sec.title, s) });
    L.y = y0 + 22;
  }
  ctx.toc = { page: L.pageIndex, elem: toc, entries };
  L.y += 14;
}

/** Page numbers of the contents, known once everything is laid out; also the entries' links. */
function fillContents(ctx: Ctx): void {
  const { L, toc } = ctx;
  if (!toc) return;
  const doc = L.doc;
  const current = L.pageIndex;
  doc.switchToPage(toc.page);
  const s = withStyle(STYLES.body, { size: 10.5 });
  for (const e of toc.entries) {
    const page = (ctx.sectionPage.get(e.section.id) ?? 0) + 1;
    const label = String(page);
    const nw = L.widthOf(label, s);
    L.artifact(() => {
      L.doc.fillColor(COLORS.muted);
      for (let x = e.titleEnd + 8; x < L.right - nw - 8; x += 4.5) L.doc.circle(x, e.y + 9.5, 0.55).fill();
    });
    L.mark(e.link, 'Link', () => L.drawLine(label, L.right - nw, e.y, s));
    const annotation = { structParent: e.link, Contents: new String(`Go to ${e.section.title}, page ${page}`) };
    doc.goTo(L.left, e.y - 2, L.width, 17, `section-${e.section.id}`, annotation as unknown as PDFKit.Mixins.AnnotationOption);
    e.link.end();
    e.toci.end();
  }
  toc.elem.end();
  doc.switchToPage(current);
}

/** Running header and footer on every page but the cover, as Pagination artifacts. */
function furniture(ctx: Ctx): void {
  const { L, report } = ctx;
  const doc = L.doc;
  const range = doc.bufferedPageRange();
  const total = range.count;
  const headStyle = withStyle(STYLES.small, { size: 7.5 });
  const leftHead = L.fit(`Accessibility report \u00b7 ${text(report.kind === 'crawl' ? report.target.hostname : report.target.url, 90)}`, headStyle, L.width * 0.68);
  const rightHead = `${kindLabel(report)} \u00b7 ${fmtDate(report.generatedAt)}`;
  for (let i = range.start; i < range.start + total; i++) {
    doc.switchToPage(i);
    const margins = doc.page.margins;
    const saved = { ...margins };
    // Text in the bottom margin would make pdfkit add a page: draw the furniture with no margins.
    Object.assign(margins, { top: 0, bottom: 0 });
    L.artifact(() => {
      if (i > range.start) {
        L.drawLine(leftHead, L.left, 34, headStyle);
        L.drawLine(rightHead, L.left, 34, headStyle, { width: L.width, align: 'right' });
        doc.strokeColor(COLORS.rule).lineWidth(0.5).moveTo(L.left, 47).lineTo(L.right, 47).stroke();
      }
      const fy = L.pageH - 40;
      doc.strokeColor(COLORS.rule).lineWidth(0.5).moveTo(L.left, fy - 8).lineTo(L.right, fy - 8).stroke();
      L.drawLine('Automated findings \u2013 not a conformance claim', L.left, fy, headStyle);
      L.drawLine(`Page ${i - range.start + 1} of ${total}`, L.left, fy, headStyle, { width: L.width, align: 'right' });
    }, 'Pagination');
    Object.assign(margins, saved);
  }
}

// ---- about ------------------------------------------------------------------------------------

async function about(ctx: Ctx): Promise<void> {
  const { L, report } = ctx;
  const t = report.target;
  section(ctx, 'about', { newPage: report.kind === 'scan', minSpace: 300 });
  L.paragraph(L.root, 'What was audited, when, and with which tools.', STYLES.body, { gapAfter: 8, keepWith: 50 });
  const rows: RowInput[] = [];
  const kv = (k: string, v: string, extra?: { mono?: boolean; link?: string }) =>
    rows.push({
      cells: [{ text: k, style: { font: 'bold', color: COLORS.muted } }, extra?.link && isHttpUrl(extra.link) ? { parts: [{ text: v, style: withStyle(STYLES.cell, { color: COLORS.link }) }], link: extra.link } : { text: v, style: extra?.mono ? { font: 'mono', size: 7.5 } : {} }],
    });
  kv(report.kind === 'crawl' ? 'Site' : 'Page', text(t.name || t.hostname, LIMITS.title));
  kv(report.kind === 'crawl' ? 'Start URL' : 'URL', text(t.url, LIMITS.url), { link: t.url });
  kv('Type of audit', kindLabel(report));
  kv('Status', statusLabel(t.status));
  kv('Started', fmtDateTime(t.startedAt));
  kv('Completed', fmtDateTime(t.completedAt));
  kv('Duration', fmtDuration(t.durationMs));
  kv('Standard', text(t.standard, LIMITS.cell));
  kv('Test engine', text(t.engine, LIMITS.cell));
  kv('Browser and viewports', text(t.browser, LIMITS.cell));
  if (t.crawl) {
    kv('Page budget', num(t.crawl.maxPages));
    kv('Pages found', num(t.crawl.totalPages));
    kv('Pages scanned', num(t.crawl.scannedPages));
    kv('Pages not scanned', num(t.crawl.failedPages));
    kv('Broken links found', num(t.crawl.brokenLinks));
  }
  kv('Report generated', fmtDateTime(report.generatedAt));
  kv(report.kind === 'crawl' ? 'Crawl id' : 'Scan id', text(t.id, 80), { mono: true });
  await L.table(L.root, [
    { header: 'Property', width: 150 },
    { header: 'Value', width: L.width - 150 },
  ], rows, { header: false, rowHeaders: true });
}

// ---- executive summary ------------------------------------------------------------------------

async function executiveSummary(ctx: Ctx): Promise<void> {
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

  L.heading(L.root, 3, 'What works well', { keepWith: 30 });
  if (report.positiveFindings.length) {
    await L.list(
      L.root,
      report.positiveFindings.slice(0, 20).map((f) => ({
        label: '\u2713',
        parts: [
          { text: `${text(f.title, LIMITS.title)}${f.wcagCriterion ? ` (WCAG ${text(f.wcagCriterion, 12)})` : ''}`, style: STYLES.bodyBold, gap: 1 },
          { text: text(f.detail, 400), style: withStyle(STYLES.body, { color: COLORS.muted, size: 9 }) },
        ],
      })),
      { labelStyle: withStyle(STYLES.bodyBold, { color: COLORS.good }), itemGap: 5 },
    );
  } else {
    L.paragraph(L.root, 'No passing checks were recorded for this audit.', STYLES.body);
  }
}

// ---- charts -----------------------------------------------------------------------------------

function caption(ctx: Ctx, s: string): void {
  ctx.L.paragraph(ctx.L.root, s, STYLES.small, { gapAfter: 6 });
}

function charts(ctx: Ctx): void {
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

// ---- criteria ---------------------------------------------------------------------------------

const RESULT: Record<CriterionResult['result'], { label: string; color: string; fill?: string; bold: boolean }> = {
  fails: { label: '\u2717 Fails', color: SEVERITY_COLOR.critical, fill: COLORS.failFill, bold: true },
  needs_review: { label: '? Needs review', color: SEVERITY_COLOR.moderate, fill: COLORS.reviewFill, bold: true },
  passed: { label: '\u2713 No automated failure', color: COLORS.good, bold: false },
  not_checked: { label: '\u2013 Not checked', color: COLORS.muted, bold: false },
};

async function criteria(ctx: Ctx): Promise<void> {
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

// ---- issue groups -----------------------------------------------------------------------------

function isAiText(enrichedBy: string | null): boolean {
  return enrichedBy != null && enrichedBy !== '' && enrichedBy !== 'offline';
}

async function issueGroups(ctx: Ctx): Promise<void> {
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
  const crit = `WCAG ${text(g.wcagCriterion, 12)} ${text(g.criterionTitle, 120)} (Level ${text(g.wcagLevel, 4)}, ${text(g.principle, 20)}) \u00b7 rule ${text(g.ruleId, 80)}`;
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
        { text: `on ${text(e.pageUrl, LIMITS.url)}`, style: withStyle(STYLES.small, { size: 7.5 }) },
      ],
    }));
    await L.list(L.root, items, { itemGap: 6, labelStyle: withStyle(STYLES.small, { size: 8 }) });
  }

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

// ---- changes (crawl) --------------------------------------------------------------------------

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

async function changes(ctx: Ctx): Promise<void> {
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

// ---- pages (crawl) ----------------------------------------------------------------------------

async function pagesTable(ctx: Ctx): Promise<void> {
  const { L, report } = ctx;
  section(ctx, 'pages', { newPage: true });
  const shown = report.pages.slice(0, MAX_PAGE_ROWS);
  const total = Math.max(report.pagesTotal, report.pages.length);
  if (total > shown.length) {
    L.paragraph(
      L.root,
      `The ${num(shown.length)} pages with the lowest scores, worst first, of ${num(total)} pages in this crawl. The full list is in the Excel workbook.`,
      STYLES.body,
      { gapAfter: 8, keepWith: 50 },
    );
  } else {
    L.paragraph(L.root, `All ${plural(total, 'page')} of this crawl, worst score first; pages that could not be scanned are listed last.`, STYLES.body, { gapAfter: 8, keepWith: 50 });
  }
  if (!shown.length) {
    L.paragraph(L.root, 'No pages.', STYLES.body);
    return;
  }
  const dash = '\u2013';
  const countCell = (p: ReportPage, n: number) => (p.state === 'failed' ? dash : num(n));
  await L.table(
    L.root,
    [
      { header: 'Page', width: 201 },
      { header: 'Score', width: 42, align: 'right' },
      { header: 'Critical', width: 48, align: 'right' },
      { header: 'Serious', width: 48, align: 'right' },
      { header: 'Moderate', width: 56, align: 'right' },
      { header: 'Minor', width: 42, align: 'right' },
      { header: 'Total', width: L.width - 437, align: 'right' },
    ],
    (function* () {
      for (const p of shown) {
        const failed = p.state === 'failed';
        const titleText = failed
          ? `Not scanned: ${text(p.error?.code ?? 'error', 40)}`
          : text(p.title, 120) || '(no title)';
        const url = text(p.url, LIMITS.url);
        yield {
          cells: [
            {
              parts: [
                { text: titleText, style: failed ? withStyle(STYLES.cellBold, { color: SEVERITY_COLOR.critical }) : STYLES.cell, gap: 1 },
                { text: url, style: withStyle(STYLES.cellMono, { size: 7, color: isHttpUrl(p.url) ? COLORS.link : COLORS.muted }) },
              ],
              link: isHttpUrl(p.url) ? p.url : undefined,
            },
            failed ? { text: 'failed', style: { color: SEVERITY_COLOR.critical } } : { text: p.score == null ? dash : String(Math.round(p.score)), style: { font: 'bold', color: scoreColor(p.score) } },
            countCell(p, p.counts.critical),
            countCell(p, p.counts.serious),
            countCell(p, p.counts.moderate),
            countCell(p, p.counts.minor),
            failed ? dash : { text: num(p.counts.total), style: { font: 'bold' } },
          ],
        } satisfies RowInput;
      }
    })(),
  );
  if (total > shown.length) {
    L.paragraph(L.root, `${num(total - shown.length)} more pages are not shown here: the full list is in the Excel workbook.`, STYLES.small);
  }
}

async function failedPages(ctx: Ctx): Promise<void> {
  const { L, report } = ctx;
  section(ctx, 'failed', { newPage: report.kind === 'crawl', minSpace: 220 });
  const f = report.failedPages;
  const shown = f.slice(0, MAX_FAILED_ROWS);
  L.paragraph(
    L.root,
    `${plural(f.length, 'page')} could not be scanned, so the findings above do not cover ${f.length === 1 ? 'it' : 'them'}.` +
      (f.length > shown.length ? ` The first ${num(shown.length)} are listed; the Excel workbook has them all.` : ''),
    STYLES.body,
    { gapAfter: 8, keepWith: 50 },
  );
  await L.table(
    L.root,
    [
      { header: 'URL', width: 210 },
      { header: 'Reason', width: 80 },
      { header: 'Details', width: L.width - 290 },
    ],
    shown.map((p) => ({
      cells: [
        { text: text(p.url, LIMITS.url), style: { font: 'mono', size: 7 } },
        { text: text(p.code, 40), style: { font: 'bold' } },
        text(p.message, 300),
      ],
    })),
  );
}

// ---- glossary ---------------------------------------------------------------------------------

async function glossary(ctx: Ctx): Promise<void> {
  const { L, report } = ctx;
  section(ctx, 'glossary', { minSpace: 300 });
  const rows: Array<[string, string]> = [
    ['Issue', 'One rule failing on one element of one page. The same problem in a shared template shows up as one issue per page.'],
    ['Critical', 'Blocks some people from using the content or completing a task. Fix first.'],
    ['Serious', 'Makes the content very hard to use for some people.'],
    ['Moderate', 'Causes difficulty or frustration, but people can usually work around it.'],
    ['Minor', 'A nuisance or a small barrier; fix it when convenient.'],
    ['Confirmed', 'The automated check is certain that the element fails the rule.'],
    ['Needs review', 'The check found a likely problem that a person must confirm or dismiss; it weighs less in the score.'],
    ['Fails (criterion)', 'At least one confirmed issue is mapped to the criterion.'],
    ['No automated failure', 'The automated checks for the criterion ran and found nothing. The criterion may still fail in ways only a person can judge.'],
    ['Not checked', 'No automated check exists for the criterion: review it by hand.'],
    ['Open, fixed', 'Issue statuses: open issues were found by the latest crawl; fixed ones were found before but not any more.'],
    ['Dismissed, can\u2019t fix', 'Issue statuses set by a reviewer: dismissed means not a real problem; can\u2019t fix means acknowledged but outside the site owner\u2019s control.'],
    ['Score', text(report.summary.scoreFormula, 600)],
  ];
  await L.table(
    L.root,
    [
      { header: 'Term', width: 130 },
      { header: 'Meaning', width: L.width - 130 },
    ],
    rows.map(([k, v]) => ({ cells: [{ text: k, style: { font: 'bold' } }, v] })),
    { rowHeaders: true },
  );
}
