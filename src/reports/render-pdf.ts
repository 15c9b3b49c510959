/**
 * The PDF report: a tagged, PDF/UA-minded document built with pdfkit from a `Report`.
 *
 * Order: cover (H1), contents (crawl), About this audit, Executive summary, Findings at a glance
 * (vector charts as Figures with alt text), Results by WCAG criterion, Conformance report (ACR), Issues by WCAG criterion and
 * rule, Changes since the previous crawl (crawl), Pages (crawl), Documents (PDF; when the audit met
 * one), Pages not scanned, Glossary.
 * Page furniture (running header, footer, page numbers) is drawn at the end over the buffered pages
 * as Pagination artifacts, and the contents' page numbers are filled in then.
 *
 * Each section is laid out by its own module under pdf/sections/; this module creates the document,
 * plans the sections and runs them in order.
 *
 * It never reads `report.issueRows()` nor the diff's row lists: the PDF is aggregated (one entry per
 * rule group, at most 500 page rows); the workbook holds every issue. It yields to the event loop
 * every few rows and stops with an AbortError when `opts.signal` aborts or `out` is closed.
 */
import type { Writable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { escapeXmpInfo, registerFonts } from './pdf/document.ts';
import { clean, text } from './pdf/format.ts';
import { Layout } from './pdf/layout.ts';
import { about } from './pdf/sections/about.ts';
import { findingsAtAGlance } from './pdf/sections/at-a-glance.ts';
import { changes } from './pdf/sections/changes.ts';
import { contents, fillContents } from './pdf/sections/contents.ts';
import { cover } from './pdf/sections/cover.ts';
import { criteria } from './pdf/sections/criteria.ts';
import { conformanceReport } from './pdf/sections/conformance.ts';
import { executiveSummary } from './pdf/sections/executive-summary.ts';
import { failedPages } from './pdf/sections/failed-pages.ts';
import { furniture } from './pdf/sections/furniture.ts';
import { glossary } from './pdf/sections/glossary.ts';
import { issueGroups } from './pdf/sections/issues.ts';
import { documentsTable, pagesTable } from './pdf/sections/pages.ts';
import type { Ctx, Section } from './pdf/sections/section.ts';
import type { Report } from './report-model.ts';

export { MAX_DETAILED_GROUPS } from './pdf/sections/issues.ts';
export { MAX_PAGE_ROWS } from './pdf/sections/pages.ts';

export interface RenderPdfOptions {
  signal?: AbortSignal;
}

const MARGINS = { top: 68, bottom: 62, left: 56, right: 56 };

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
  findingsAtAGlance(ctx);
  await L.checkpoint();
  await criteria(ctx);
  await L.checkpoint();
  await conformanceReport(ctx);
  await L.checkpoint();
  await issueGroups(ctx);
  if (report.kind === 'crawl') {
    await L.checkpoint();
    await changes(ctx);
    await L.checkpoint();
    await pagesTable(ctx);
  }
  if (report.pages.some((p) => p.kind === 'document')) {
    await L.checkpoint();
    await documentsTable(ctx);
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
    { id: 'conformance', title: 'Conformance report (ACR)' },
    { id: 'issues', title: 'Issues by WCAG criterion and rule' },
  ];
  if (report.kind === 'crawl') {
    s.push({ id: 'changes', title: 'Changes since the previous crawl' });
    s.push({ id: 'pages', title: 'Pages' });
  }
  if (report.pages.some((p) => p.kind === 'document')) s.push({ id: 'documents', title: 'Documents (PDF)' });
  if (report.failedPages.length) s.push({ id: 'failed', title: 'Pages not scanned' });
  s.push({ id: 'glossary', title: 'Glossary' });
  return s;
}
