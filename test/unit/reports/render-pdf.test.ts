/**
 * The PDF renderer against in-memory reports: the files land in test-artifacts/reports (with PNGs
 * of their first pages, to look at) and are checked with poppler-utils and pdfjs-dist.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IssueRow, Report } from '../../../src/reports/report-model.ts';
import { renderPdf } from '../../../src/reports/render-pdf.ts';
import { HOSTILE_LINK_TEXT, HOSTILE_TITLE, sampleReport } from '../../helpers/sample-report.ts';
import { pdfFonts, pdfImages, pdfInfo } from '../../helpers/pdf-tools.ts';
import { MAX_DETAILED_GROUPS } from '../../../src/reports/pdf/sections/issues.ts';

const DIR = path.resolve(import.meta.dirname, '../../../test-artifacts/reports');

async function renderToFile(report: Report, name: string): Promise<string> {
  const file = path.join(DIR, name);
  await renderPdf(report, createWriteStream(file));
  return file;
}

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

interface Node {
  role?: string;
  alt?: string;
  children?: Node[];
  type?: string;
}

/** Roles in document order (page by page, depth first), with the alt texts of Figures. */
async function structure(file: string) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({ data: new Uint8Array(readFileSync(file)), verbosity: 0 });
  const doc = await task.promise;
  const markInfo = (await doc.getMarkInfo()) as Map<string, boolean> | Record<string, boolean> | null;
  const marked = markInfo instanceof Map ? markInfo.get('Marked') : markInfo?.Marked;
  const roles: string[] = [];
  const figures: string[] = [];
  let tableWithTh = false;
  const walk = (n: Node, inTable: boolean) => {
    if (n.role) roles.push(n.role);
    if (n.role === 'Figure') figures.push(n.alt ?? '');
    if (n.role === 'TH' && inTable) tableWithTh = true;
    for (const c of n.children ?? []) walk(c, inTable || n.role === 'Table');
  };
  // Every painting operator must sit inside marked content (a structure element's or an
  // artifact's); every annotation needs a /Contents text (PDF/UA).
  const { OPS } = pdfjs;
  const painting = new Set<number>([OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText, OPS.fill, OPS.eoFill, OPS.stroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeStroke, OPS.closeFillStroke, OPS.constructPath]);
  // Text must stay inside the page's side margins (56 pt on A4): nothing overflows a cell or box.
  let minLeft = Infinity;
  let maxRight = -Infinity;
  let untagged = 0;
  let annotations = 0;
  let annotationsWithoutContents = 0;
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const tree = (await page.getStructTree()) as Node | null;
    if (tree) walk(tree, false);
    for (const item of (await page.getTextContent()).items) {
      if (!('str' in item) || !item.str.trim()) continue;
      minLeft = Math.min(minLeft, item.transform[4]);
      maxRight = Math.max(maxRight, item.transform[4] + item.width);
    }
    const ops = await page.getOperatorList();
    let depth = 0;
    for (const fn of ops.fnArray) {
      if (fn === OPS.beginMarkedContent || fn === OPS.beginMarkedContentProps) depth++;
      else if (fn === OPS.endMarkedContent) depth--;
      else if (depth <= 0 && painting.has(fn)) untagged++;
    }
    for (const a of (await page.getAnnotations()) as Array<{ contentsObj?: { str?: string } }>) {
      annotations++;
      if (!a.contentsObj?.str) annotationsWithoutContents++;
    }
  }
  const outline = ((await doc.getOutline()) ?? []).map((o: { title: string }) => o.title);
  const meta = await doc.getMetadata();
  await task.destroy();
  const xmpTitle = (meta.metadata as { get(name: string): unknown } | null)?.get('dc:title');
  return { xmpTitle, marked, roles, figures, tableWithTh, outline, minLeft, maxRight, untagged, annotations, annotationsWithoutContents, info: meta.info as Record<string, unknown> };
}

/** Headings start with one H1, and never skip a level downwards (no H3 before the first H2). */
function checkHeadings(roles: string[]) {
  const headings = roles.filter((r) => /^H[1-6]$/.test(r)).map((r) => Number(r.slice(1)));
  expect(headings[0]).toBe(1);
  expect(headings.filter((h) => h === 1)).toHaveLength(1);
  let prev = 0;
  for (const h of headings) {
    expect(h, `heading H${h} after H${prev}`).toBeLessThanOrEqual(prev + 1);
    prev = h;
  }
  expect(headings).toContain(2);
  expect(headings).toContain(3);
  return headings;
}

function png(file: string, prefix: string) {
  const re = new RegExp(`^${prefix}-\\d+\\.png$`);
  for (const f of readdirSync(DIR)) if (re.test(f)) rmSync(path.join(DIR, f), { force: true });
  run('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '6', file, path.join(DIR, prefix)]);
}

/** A sink that counts bytes, optionally slowly, like a socket. */
function sink(): Writable & { bytes: number } {
  const w = new Writable({
    write(chunk: Buffer, _enc, cb) {
      w.bytes += chunk.length;
      cb();
    },
  }) as Writable & { bytes: number };
  w.bytes = 0;
  return w;
}

beforeAll(() => {
  mkdirSync(DIR, { recursive: true });
});

describe('renderPdf', () => {
  it('renders a scan report as a tagged PDF with embedded fonts', async () => {
    const report = sampleReport({ kind: 'scan' });
    const file = await renderToFile(report, 'scan.pdf');
    png(file, 'scan');

    const info = await pdfInfo(readFileSync(file));
    expect(info.Tagged).toBe('yes');
    expect(info.Title).toBe(report.title);
    expect(info['PDF version']).toBe('1.7');
    const pages = Number(info.Pages);
    expect(pages).toBeGreaterThanOrEqual(5);
    expect(pages).toBeLessThan(25);

    const fonts = await pdfFonts(readFileSync(file));
    expect(fonts.length).toBeGreaterThan(0);
    for (const f of fonts) expect(f.embedded, `${f.name} embedded`).toBe(true);
    expect(fonts.every((f) => f.name.includes('DejaVu'))).toBe(true);

    const txt = run('pdftotext', [file, '-']);
    for (const s of ['Accessibility report', 'About this audit', 'Executive summary', 'Results by WCAG criterion', 'Issues by WCAG criterion and rule', 'Glossary']) {
      expect(txt).toContain(s);
    }
    expect(txt).toContain('not a conformance claim');
    expect(txt).toContain(String(report.summary.score));
    for (const g of report.groups) expect(txt).toContain(g.title.slice(0, 30));
    // A scan has no contents page and no per-crawl sections.
    expect(txt).not.toContain('Changes since the previous crawl');

    const s = await structure(file);
    expect(s.marked).toBe(true);
    expect(s.untagged).toBe(0);
    expect(s.minLeft).toBeGreaterThanOrEqual(55.5);
    expect(s.maxRight).toBeLessThanOrEqual(595.28 - 55.5);
    expect(s.annotations).toBeGreaterThan(0);
    expect(s.annotationsWithoutContents).toBe(0);
    checkHeadings(s.roles);
    expect(s.tableWithTh).toBe(true);
    expect(s.roles).toContain('L');
    expect(s.roles).toContain('LI');
    expect(s.roles).toContain('Lbl');
    expect(s.roles).toContain('LBody');
    expect(s.roles).toContain('Link');
    expect(s.figures.length).toBeGreaterThanOrEqual(2);
    for (const alt of s.figures) expect(alt).toMatch(/\d/);
    expect(s.outline).toContain('Executive summary');
    expect(s.info.Language).toBe('en');
  });

  it('shows each group\u2019s picture as a Figure with alternative text, and the state and viewport of its examples', async () => {
    const report = sampleReport({ kind: 'crawl', pictures: true });
    const file = await renderToFile(report, 'crawl-pictures.pdf');
    png(file, 'crawl-pictures');
    const images = await pdfImages(readFileSync(file));
    // One image per group shown in full (the sample has fewer groups than the cap), each the 240x120 PNG.
    const pictured = report.groups.slice(0, MAX_DETAILED_GROUPS).filter((g) => g.picture).length;
    expect(pictured).toBeGreaterThan(1);
    expect(images.filter((i) => i.type === 'image' && i.width === 240 && i.height === 120)).toHaveLength(pictured);
    const s = await structure(file);
    expect(s.untagged).toBe(0);
    const alts = s.figures.filter((a) => a.startsWith('Screenshot of example element 1'));
    expect(alts).toHaveLength(pictured);
    const txt = run('pdftotext', [file, '-']);
    expect(txt).toContain('found after click on \u201cMenu\u201d (#menu-button)');
    expect(txt).toContain('found at mobile (390 \u00d7 844)');
    expect(txt).toContain('outlined in magenta');
    // Without pictures, no image at all.
    const plain = await renderToFile(sampleReport({ kind: 'crawl' }), 'crawl-no-pictures.pdf');
    expect(await pdfImages(readFileSync(plain))).toHaveLength(0);
  });

  it('renders a crawl report with contents, charts, changes and pages', async () => {
    const report = sampleReport({ kind: 'crawl' });
    const aiGroup = report.groups.find((g) => g.enrichedBy === null)!;
    aiGroup.enrichedBy = 'gpt-4.1-mini';
    const file = await renderToFile(report, 'crawl.pdf');
    png(file, 'crawl');

    const info = await pdfInfo(readFileSync(file));
    expect(info.Tagged).toBe('yes');
    expect(info.Title).toBe(report.title);
    const pages = Number(info.Pages);
    expect(pages).toBeGreaterThanOrEqual(8);
    expect(pages).toBeLessThan(40);
    for (const f of await pdfFonts(readFileSync(file))) expect(f.embedded, `${f.name} embedded`).toBe(true);

    const txt = run('pdftotext', [file, '-']);
    for (const s of [
      'Contents',
      'About this audit',
      'Executive summary',
      'Findings at a glance',
      'Results by WCAG criterion',
      'Conformance report (ACR)',
      'Issues by WCAG criterion and rule',
      'Changes since the previous crawl',
      'Pages not scanned',
      'Glossary',
      'Top priorities',
      'Score per page',
      'Score over time',
    ]) {
      expect(txt, s).toContain(s);
    }
    expect(txt).toContain('=HYPERLINK(');
    expect(txt).toContain(HOSTILE_TITLE.slice(0, 30));
    // The hostile selector of an example element is printed literally.
    expect(txt).toContain(HOSTILE_LINK_TEXT.slice(0, 12));
    expect(txt).toContain(String(report.summary.score));
    expect(txt).toContain('timeout');
    for (const g of report.groups) expect(txt).toContain(g.title.slice(0, 30));
    // AI-written texts are marked as such, built-in ('offline') and engine texts are not.
    expect(txt.match(/written by AI/g)).toHaveLength(1);
    expect(txt).toContain('gpt-4.1-mini');
    // Page numbers of the contents are filled in ("Pages ... 15").
    expect(txt).toMatch(/Glossary\s*\.*\s*\d+/);

    const s = await structure(file);
    expect(s.marked).toBe(true);
    expect(s.untagged).toBe(0);
    expect(s.minLeft).toBeGreaterThanOrEqual(55.5);
    expect(s.maxRight).toBeLessThanOrEqual(595.28 - 55.5);
    expect(s.annotations).toBeGreaterThan(0);
    expect(s.annotationsWithoutContents).toBe(0);
    checkHeadings(s.roles);
    expect(s.tableWithTh).toBe(true);
    expect(s.roles).toContain('TOC');
    expect(s.roles).toContain('TOCI');
    expect(s.roles).toContain('L');
    expect(s.roles).toContain('LI');
    expect(s.figures.length).toBeGreaterThanOrEqual(4);
    for (const alt of s.figures) expect(alt).toMatch(/\d/);
    expect(s.figures.some((a) => a.includes(String(report.summary.bySeverity.serious)))).toBe(true);
    expect(s.outline).toEqual([
      'About this audit',
      'Executive summary',
      'Findings at a glance',
      'Results by WCAG criterion',
      'Conformance report (ACR)',
      'Issues by WCAG criterion and rule',
      'Changes since the previous crawl',
      'Pages',
      'Pages not scanned',
      'Glossary',
    ]);
  });

  it('has a Documents section listing the PDFs audited, bookmarked, when the audit met any', async () => {
    const report = sampleReport({ kind: 'crawl', pages: 8, documents: 2 });
    const file = await renderToFile(report, 'crawl-documents.pdf');
    const s = await structure(file);
    expect(s.outline).toContain('Documents (PDF)');
    expect(s.outline.indexOf('Documents (PDF)')).toBe(s.outline.indexOf('Pages') + 1);
    const txt = run('pdftotext', [file, '-']).replace(/[ \t]*\n\s*/g, '\n');
    expect(txt).toContain('2 documents (PDF) were audited from the file itself');
    for (const p of report.pages.filter((x) => x.kind === 'document')) expect(txt.replace(/\n/g, '')).toContain(p.url);
  });

  it('states each criterion as a conformance report may, and shows nothing as working well on partial checks', async () => {
    const report = sampleReport({ kind: 'crawl' });
    const txt = run('pdftotext', [await renderToFile(report, 'crawl-acr.pdf'), '-']).replace(/[ \t]*\n\s*/g, '\n');
    expect(txt).toContain('Conformance report (ACR)');
    expect(txt).toMatch(/Does Not Support|Partially Supports/);
    expect(txt).toContain('Not Evaluated');
    expect(txt).toContain('Needs a person');
    expect(report.conformance.map((r) => r.conformance)).not.toContain('supports');
    // The sample's positive findings (4.1.2, 2.4.2) come from checks that decide only part of their criteria.
    expect(txt).toContain('No automated failure');
    expect(txt).not.toContain('What works well');
  });

  it('prints every count from the same issues the issue list (and the workbook) holds', async () => {
    const report = sampleReport({ kind: 'crawl' });
    const rows: IssueRow[] = [];
    for await (const batch of report.issueRows()) rows.push(...batch);
    const total = rows.length;
    // Blank lines and trailing spaces dropped: one line per text run.
    const txt = run('pdftotext', [await renderToFile(report, 'crawl-counts.pdf'), '-']).replace(/[ \t]*\n\s*/g, '\n');
    const n = (s: string | undefined) => Number(s!.replace(/,/g, ''));
    const match = (re: RegExp) => {
      const m = re.exec(txt);
      expect(m, String(re)).not.toBeNull();
      return m!;
    };
    // The cover's figures and the executive summary's tiles.
    expect(n(match(/Overall score\nIssues found\nPages affected\n[^\n]+\n([\d,]+)\n/)[1])).toBe(total);
    expect(n(match(/Score\nIssues\nPages affected\n(?:Since previous crawl|Critical issues)\n[^\n]+\n([\d,]+)\n/)[1])).toBe(total);
    // The severity table's total, the type split, the change since the previous crawl.
    expect(n(match(/\nTotal\n([\d,]+)\n100%/)[1])).toBe(total);
    const byType = match(/By type: ([\d,]+) confirmed \([^)]*\) and ([\d,]+) needing review/);
    expect(n(byType[1])).toBe(rows.filter((r) => r.type === 'confirmed').length);
    expect(n(byType[2])).toBe(rows.filter((r) => r.type === 'needs_review').length);
    const change = match(/Since the previous crawl: ([\d,]+) new issues?, [\d,]+ fixed issues?, ([\d,]+) persisting/);
    expect(n(change[1]) + n(change[2])).toBe(total);
    // The charts' captions.
    const sev = match(/Issues by severity: Critical ([\d,]+) \([^)]*\) · Serious ([\d,]+) \([^)]*\) · Moderate ([\d,]+) \([^)]*\) · Minor ([\d,]+) \([^)]*\)\. Total ([\d,]+)\./);
    (['critical', 'serious', 'moderate', 'minor'] as const).forEach((s, i) => expect(n(sev[i + 1]), s).toBe(rows.filter((r) => r.severity === s).length));
    expect(n(sev[5])).toBe(total);
    const principles = match(/Issues by WCAG principle: Perceivable ([\d,]+) · Operable ([\d,]+) · Understandable ([\d,]+) · Robust ([\d,]+)\./);
    expect([1, 2, 3, 4].reduce((k, i) => k + n(principles[i]), 0)).toBe(total);
    // The issue groups: their elements add up to every issue, each on as many pages as its issues are.
    const groups = [...txt.matchAll(/^([\d,]+) elements? on ([\d,]+) pages?$/gm)];
    expect(groups).toHaveLength(report.groups.length);
    expect(groups.reduce((k, m) => k + n(m[1]), 0)).toBe(total);
    for (const g of report.groups) {
      const mine = rows.filter((r) => r.ruleId === g.ruleId && r.wcagCriterion === g.wcagCriterion);
      expect(g.elements, g.ruleId).toBe(mine.length);
      expect(g.pages, g.ruleId).toBe(new Set(mine.map((r) => r.pageUrl)).size);
    }
    // This crawl's point of the trend is this crawl's score.
    const trend = match(/Score per crawl, oldest first: (.+?)\.\n/s)[1]!.split(' · ');
    expect(trend.at(-1)).toMatch(new RegExp(`: ${report.summary.score}$`));
  });

  it('keeps a 2,000-page, 50,000-issue crawl short and fast, without blocking the event loop', async () => {
    const report = sampleReport({ kind: 'crawl', pages: 2000, issuesPerPage: 25 });
    report.issueRows = () => {
      throw new Error('the PDF must not read every issue');
    };
    const newRows = () => {
      throw new Error('the PDF must not read the diff rows');
    };
    report.diff!.newRows = newRows;
    report.diff!.fixedRows = newRows;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const t0 = performance.now();
    const file = await renderToFile(report, 'crawl-2000.pdf');
    const ms = performance.now() - t0;
    delay.disable();
    png(file, 'crawl-2000');
    const pages = Number((await pdfInfo(readFileSync(file))).Pages);
    expect(pages).toBeLessThan(80);
    // Speed and event-loop stalls are printed, not asserted: `bench:reports` measures them.
    const txt = run('pdftotext', [file, '-']);
    expect(txt).toContain('500 pages with the lowest scores');
    expect(txt).toContain('Excel workbook');
    expect(txt).toContain('Pages by score');
    console.info(`2,000-page crawl: ${pages} pages in ${Math.round(ms)} ms, longest event-loop stall ${Math.round(delay.max / 1e6)} ms`);
  });

  it('prints hostile and oversized page texts as plain, truncated text inside the margins', async () => {
    const report = sampleReport({ kind: 'crawl', pages: 30 });
    report.title = 'Accessibility report: <b>"a" & \'b\'</b>';
    const longUrl = `https://www.example.org/${'a'.repeat(400)}?q=${'b'.repeat(300)}`;
    const nasty = `Title \u202Eevil\u202C \u0000null \uD800 lone \u0007bell ${'x'.repeat(400)}`;
    report.pages[0]!.url = longUrl;
    report.pages[0]!.title = nasty;
    report.target.url = longUrl;
    const g = report.groups[0]!;
    g.title = nasty;
    g.examples[0]!.selector = 'div'.repeat(200);
    g.examples[0]!.html = `<div onclick="alert(1)">\n${'\u0436'.repeat(3000)}</div>`;
    g.examples[0]!.pageUrl = longUrl;
    g.examplePages[0] = longUrl;
    g.helpUrl = 'javascript:alert(1)';
    report.failedPages.push({ url: longUrl, code: 'http_error', message: 'm'.repeat(2000) });
    for (let i = 0; i < 60; i++) report.groups.push({ ...report.groups[2]!, ruleId: `generated-${i}`, title: `Generated group ${i}` });
    const file = await renderToFile(report, 'hostile.pdf');
    const s = await structure(file);
    // The title is escaped in the XMP metadata, so the XML parses back to the same text.
    expect(s.xmpTitle).toBe(report.title);
    expect(s.info.Title).toBe(report.title);
    expect(s.untagged).toBe(0);
    expect(s.minLeft).toBeGreaterThanOrEqual(55.5);
    expect(s.maxRight).toBeLessThanOrEqual(595.28 - 55.5);
    checkHeadings(s.roles);
    const txt = run('pdftotext', [file, '-']);
    expect(txt).not.toContain('\u202E');
    // The HTML snippet is cut to 300 characters.
    const snippetChars = (txt.match(/\u0436/g) ?? []).length;
    expect(snippetChars).toBeGreaterThan(200);
    expect(snippetChars).toBeLessThan(300);
    expect(txt).toContain('Other issue groups');
    expect(txt).not.toContain('javascript:alert');
    expect(Number((await pdfInfo(readFileSync(file))).Pages)).toBeLessThan(80);
  });

  it('rejects at once with an already aborted signal', async () => {
    const out = sink();
    const ac = new AbortController();
    ac.abort();
    await expect(renderPdf(sampleReport({ kind: 'scan' }), out, { signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(out.bytes).toBe(0);
  });

  it('stops promptly when the signal aborts mid-render', async () => {
    const out = sink();
    const ac = new AbortController();
    const report = sampleReport({ kind: 'crawl', pages: 2000, issuesPerPage: 25 });
    const p = renderPdf(report, out, { signal: ac.signal });
    await new Promise((r) => setTimeout(r, 30));
    const t0 = performance.now();
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - t0).toBeLessThan(500);
    expect(out.destroyed).toBe(true);
    const bytes = out.bytes;
    await new Promise((r) => setTimeout(r, 100));
    expect(out.bytes).toBe(bytes);
  });

  it('stops with an AbortError when the output is destroyed (client went away)', async () => {
    const out = sink();
    const p = renderPdf(sampleReport({ kind: 'crawl', pages: 2000, issuesPerPage: 25 }), out);
    await new Promise((r) => setTimeout(r, 30));
    out.destroy();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('writes the PNG previews of the first pages', () => {
    for (const prefix of ['scan', 'crawl']) {
      const first = ['1', '01', '001'].map((n) => path.join(DIR, `${prefix}-${n}.png`));
      expect(first.some((f) => existsSync(f))).toBe(true);
    }
  });
});
