import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough, Writable } from 'node:stream';
import { unzip as unzipEntries } from '../../support/zip.ts';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_HYPERLINKS_PER_SHEET, renderXlsx } from '../../../src/reports/render-xlsx.ts';
import type { DiffRow, ReportIssueRow as IssueRow, Report } from '../../../src/reports/report-model.ts';
import { startsLikeFormula } from '../../../src/reports/safe-cell.ts';
import { HOSTILE_LINK_TEXT, HOSTILE_TITLE, sampleReport } from '../../helpers/sample-report.ts';

const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/reports/', import.meta.url));

/** Renders into a PassThrough and collects every byte. */
async function render(report: Report, opts: { signal?: AbortSignal } = {}): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await renderXlsx(report, out, opts);
  return Buffer.concat(chunks);
}

async function load(buf: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  return wb;
}

/** The workbook's parts as text, to look at the raw sheet XML. */
function unzip(buf: Buffer): Map<string, string> {
  return new Map([...unzipEntries(buf)].map(([name, bytes]) => [name.replace(/^\//, ''), bytes.toString('utf8')]));
}

async function collect<T>(it: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const b of it) all.push(...b);
  return all;
}

const ISSUE_HEADERS = [
  'Issue ID',
  'Page URL',
  'Page title',
  'Rule',
  'WCAG criterion',
  'Level',
  'Severity',
  'Type',
  'Status',
  'Selector',
  'HTML',
  'Description',
  'Fix suggestion',
  'Help URL',
  'Also flagged by',
  'First seen (UTC)',
  'Last seen (UTC)',
  'State',
  'Viewport',
  'Screenshot',
  'WCAG criteria',
];
const DIFF_HEADERS = ['Issue ID', 'Page URL', 'Rule', 'WCAG criterion', 'Level', 'Severity', 'Type', 'Selector', 'Change', 'Recorded (UTC)', 'WCAG criteria'];
const PAGE_HEADERS = ['Page URL', 'Title', 'State', 'Score', 'Critical', 'Serious', 'Moderate', 'Minor', 'Total', 'Error code', 'Error message', 'Kind'];
const CRITERIA_HEADERS = ['Criterion', 'Title', 'Level', 'Principle', 'Result', 'Rules', 'Issues', 'Pages'];

const headerOf = (ws: ExcelJS.Worksheet) => (ws.getRow(1).values as unknown[]).slice(1);
/** What the sheet shows for a text that went through safeCell. */
const shown = (s: string | null) => (s == null || s === '' ? null : startsLikeFormula(s) ? `'${s}` : s);
const cellText = (v: ExcelJS.CellValue): unknown => (v && typeof v === 'object' && 'hyperlink' in v ? v.text : v);

function everyCell(wb: ExcelJS.Workbook, fn: (cell: ExcelJS.Cell, ws: ExcelJS.Worksheet) => void) {
  for (const ws of wb.worksheets) ws.eachRow({ includeEmpty: false }, (row) => row.eachCell({ includeEmpty: false }, (cell) => fn(cell, ws)));
}

function findRow(ws: ExcelJS.Worksheet, label: string): ExcelJS.Row | undefined {
  let found: ExcelJS.Row | undefined;
  ws.eachRow((row) => {
    if (!found && row.getCell(1).value === label) found = row;
  });
  return found;
}

describe('renderXlsx', () => {
  const scan = sampleReport({ kind: 'scan', issuesPerPage: 12 });
  const crawl = sampleReport({ kind: 'crawl', pages: 12, issuesPerPage: 9, pictures: true });
  let scanBuf: Buffer;
  let crawlBuf: Buffer;
  let scanWb: ExcelJS.Workbook;
  let crawlWb: ExcelJS.Workbook;

  beforeAll(async () => {
    scanBuf = await render(scan);
    crawlBuf = await render(crawl);
    await mkdir(ARTIFACTS, { recursive: true });
    await writeFile(path.join(ARTIFACTS, 'sample-scan.xlsx'), scanBuf);
    await writeFile(path.join(ARTIFACTS, 'sample-crawl.xlsx'), crawlBuf);
    scanWb = await load(scanBuf);
    crawlWb = await load(crawlBuf);
  });

  it('names the sheets, and adds New and Fixed for a crawl only', () => {
    expect(scanWb.worksheets.map((w) => w.name)).toEqual(['Summary', 'Issues', 'Pages', 'Criteria']);
    expect(crawlWb.worksheets.map((w) => w.name)).toEqual(['Summary', 'Issues', 'Pages', 'Criteria', 'New', 'Fixed']);
  });

  it('adds a Documents sheet with the documents alone when the audit met PDFs, and names each row\'s kind', async () => {
    const report = sampleReport({ kind: 'crawl', pages: 8, documents: 2 });
    const wb = await load(await render(report));
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Summary', 'Issues', 'Pages', 'Documents', 'Criteria', 'New', 'Fixed']);
    const documents = wb.getWorksheet('Documents')!;
    expect(documents.actualRowCount).toBe(3);
    const urls = [2, 3].map((r) => (documents.getCell(`A${r}`).value as { text: string }).text).sort();
    expect(urls).toEqual(report.pages.filter((p) => p.kind === 'document').map((p) => p.url).sort());
    for (const r of [2, 3]) expect(documents.getCell(`L${r}`).value).toBe('document');
    const pages = wb.getWorksheet('Pages')!;
    expect(pages.getCell('L2').value).toMatch(/^(page|document)$/);
  });

  it('sets the workbook properties', () => {
    expect(crawlWb.creator).toBe('a11y-audit');
    expect(crawlWb.title).toBe(crawl.title);
    expect(scanWb.title).toBe(scan.title);
  });

  it('writes the header rows', () => {
    for (const wb of [scanWb, crawlWb]) {
      expect(headerOf(wb.getWorksheet('Summary')!)).toEqual(['Item', 'Value']);
      expect(headerOf(wb.getWorksheet('Issues')!)).toEqual(ISSUE_HEADERS);
      expect(headerOf(wb.getWorksheet('Pages')!)).toEqual(PAGE_HEADERS);
      expect(headerOf(wb.getWorksheet('Criteria')!)).toEqual(CRITERIA_HEADERS);
    }
    expect(headerOf(crawlWb.getWorksheet('New')!)).toEqual(DIFF_HEADERS);
    expect(headerOf(crawlWb.getWorksheet('Fixed')!)).toEqual(DIFF_HEADERS);
  });

  it('gives every sheet a bold, frozen header row, an autofilter and fitted column widths', () => {
    for (const wb of [scanWb, crawlWb]) {
      for (const ws of wb.worksheets) {
        const view = ws.views[0] as ExcelJS.WorksheetViewFrozen;
        expect(view.state, ws.name).toBe('frozen');
        expect(view.ySplit, ws.name).toBe(1);
        expect(ws.autoFilter, ws.name).toMatch(/^A1:[A-Z]+\d+$/);
        expect(ws.getRow(1).getCell(1).font?.bold, ws.name).toBe(true);
        for (const c of ws.columns) {
          expect(c.width, ws.name).toBeGreaterThanOrEqual(7);
          expect(c.width, ws.name).toBeLessThanOrEqual(80);
        }
      }
    }
    // The filter covers the whole table.
    expect(crawlWb.getWorksheet('Issues')!.autoFilter).toBe(`A1:U${crawl.summary.issues + 1}`);
    expect(crawlWb.getWorksheet('Pages')!.autoFilter).toBe(`A1:L${crawl.pages.length + 1}`);
  });

  it('writes one Issues row per IssueRow with every field', async () => {
    for (const [report, wb] of [
      [scan, scanWb],
      [crawl, crawlWb],
    ] as const) {
      const rows = await collect(report.issueRows());
      const ws = wb.getWorksheet('Issues')!;
      expect(ws.actualRowCount).toBe(rows.length + 1);
      rows.forEach((r: IssueRow, i) => {
        const v = ws.getRow(i + 2).values as ExcelJS.CellValue[];
        expect(v[1]).toBe(r.id);
        expect(v[2]).toEqual({ text: r.pageUrl, hyperlink: r.pageUrl });
        expect(v[3]).toBe(shown(r.pageTitle));
        expect(v.slice(4, 10)).toEqual([r.ruleId, r.wcagCriterion, r.wcagLevel, r.severity, r.type, r.status]);
        expect(v[10]).toBe(shown(r.selector));
        expect(v[11]).toBe(r.html);
        expect(v[12]).toBe(r.description);
        expect(v[13]).toBe(r.fixSuggestion);
        expect(v[14]).toBe(r.helpUrl);
        expect(v[15] ?? null).toBe(r.alsoFlaggedBy.length ? r.alsoFlaggedBy.join(', ') : null);
        expect(v[16]).toEqual(r.firstSeenAt);
        expect(v[17]).toEqual(r.lastSeenAt);
        // The state that revealed the issue, its viewport, and a link to its picture.
        expect(v[18] ?? null).toBe(r.state ? `after click on \u201c${r.state.label}\u201d (${r.state.target})` : null);
        expect(v[19] ?? null).toBe(r.viewport === 'mobile' ? 'mobile (390 \u00d7 844)' : null);
        expect(v[20] ?? null).toEqual(r.screenshotUrl ? { text: r.screenshotUrl, hyperlink: r.screenshotUrl } : null);
        expect(v[21]).toBe(r.wcagCriteria.join(', '));
      });
      if (report === crawl) {
        expect(rows.some((r) => r.screenshotUrl) && rows.some((r) => r.state) && rows.some((r) => r.viewport)).toBe(true);
      }
      expect(ws.getCell('P2').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    }
  });

  it('makes page URLs hyperlinks', () => {
    const issues = crawlWb.getWorksheet('Issues')!;
    expect(issues.getCell('B2').type).toBe(ExcelJS.ValueType.Hyperlink);
    expect(issues.getCell('B2').hyperlink).toBe('https://www.example.org/');
    const pages = crawlWb.getWorksheet('Pages')!;
    for (let r = 2; r <= crawl.pages.length + 1; r++) {
      expect(pages.getCell(`A${r}`).type).toBe(ExcelJS.ValueType.Hyperlink);
      expect(pages.getCell(`A${r}`).hyperlink).toBe(crawl.pages[r - 2]!.url);
    }
    expect(crawlWb.getWorksheet('New')!.getCell('B2').type).toBe(ExcelJS.ValueType.Hyperlink);
  });

  it('puts a list validation on the whole Status column', () => {
    const ws = crawlWb.getWorksheet('Issues')!;
    const last = crawl.summary.issues + 1;
    for (const addr of ['I2', `I${Math.floor(last / 2)}`, `I${last}`]) {
      const dv = ws.getCell(addr).dataValidation;
      expect(dv?.type, addr).toBe('list');
      expect(dv?.formulae).toEqual(['"open,fixed,dismissed,cant_fix"']);
    }
    expect(ws.getCell('H2').dataValidation).toBeUndefined();
    const xml = unzip(crawlBuf).get('xl/worksheets/sheet2.xml')!;
    expect(xml.match(/<dataValidation /g)?.length).toBe(1);
    expect(xml).toContain(`sqref="I2:I${last}"`);
  });

  it('writes numbers as numbers and dates as dates', () => {
    const pages = crawlWb.getWorksheet('Pages')!;
    const scanned = crawl.pages.findIndex((p) => p.state === 'scanned');
    const row = pages.getRow(scanned + 2);
    for (let c = 4; c <= 9; c++) expect(row.getCell(c).type, `column ${c}`).toBe(ExcelJS.ValueType.Number);
    expect(row.getCell(4).value).toBe(crawl.pages[scanned]!.score);
    expect(row.getCell(9).value).toBe(crawl.pages[scanned]!.counts.total);
    const failed = crawl.pages.findIndex((p) => p.state === 'failed');
    const frow = pages.getRow(failed + 2).values as ExcelJS.CellValue[];
    expect(frow.slice(1, 4)).toEqual([{ text: crawl.pages[failed]!.url, hyperlink: crawl.pages[failed]!.url }, undefined, 'failed']);
    expect(frow.slice(10, 12)).toEqual(['timeout', 'the page did not finish loading within 30 s']);

    const criteria = crawlWb.getWorksheet('Criteria')!;
    expect(criteria.actualRowCount).toBe(crawl.criteria.length + 1);
    const failing = crawl.criteria.findIndex((c) => c.result === 'fails');
    const crow = criteria.getRow(failing + 2);
    expect(crow.getCell(1).value).toBe(crawl.criteria[failing]!.id);
    expect(crow.getCell(5).value).toBe('Fails');
    expect(crow.getCell(6).value).toBe(crawl.criteria[failing]!.rules.join(', '));
    expect(crow.getCell(7).type).toBe(ExcelJS.ValueType.Number);
    expect(crow.getCell(7).value).toBe(crawl.criteria[failing]!.issues);
    expect(crow.getCell(8).value).toBe(crawl.criteria[failing]!.pages);

    const summary = crawlWb.getWorksheet('Summary')!;
    const value = (label: string) => findRow(summary, label)?.getCell(2);
    expect(value('Score (0-100)')?.value).toBe(crawl.summary.score);
    expect(value('Score (0-100)')?.type).toBe(ExcelJS.ValueType.Number);
    expect(value('Critical issues')?.value).toBe(crawl.summary.bySeverity.critical);
    expect(value('Issues that need review')?.value).toBe(crawl.summary.byType.needs_review);
    expect(value('Robust')?.value).toBe(crawl.summary.byPrinciple.Robust);
    expect(value('Page budget')?.value).toBe(1000);
    expect(value('Broken links')?.value).toBe(2);
    expect(value('New issues since the previous crawl')?.value).toBe(14);
    expect(value('Fixed issues since the previous crawl')?.value).toBe(23);
    expect(value('Previous score')?.value).toBe(66);
    expect(value('Started (UTC)')?.value).toEqual(crawl.target.startedAt);
    expect(value('Started (UTC)')?.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(value('Target URL')?.hyperlink).toBe(crawl.target.url);
    expect(value('Score formula')?.value).toBe(crawl.summary.scoreFormula);
    // 754 s as a fraction of a day, shown as [h]:mm:ss (exceljs reads it back as a time of 1899-12-30).
    const duration = value('Duration (h:mm:ss)')!;
    expect(duration.numFmt).toBe('[h]:mm:ss');
    expect(unzip(crawlBuf).get('xl/worksheets/sheet1.xml')).toContain(`<v>${754_000 / 86_400_000}</v>`);
    expect(findRow(scanWb.getWorksheet('Summary')!, 'Page budget')).toBeUndefined();
  });

  it('has the summary text, the top priorities and the automated-findings note on Summary', () => {
    const summary = crawlWb.getWorksheet('Summary')!;
    expect(findRow(summary, 'Summary')?.getCell(2).value).toBe(crawl.summary.text);
    const head = findRow(summary, 'Top priority')!;
    expect((head.values as unknown[]).slice(1)).toEqual(['Top priority', 'Why', 'Rule', 'Severity', 'WCAG criterion', 'Elements', 'Pages']);
    crawl.topPriorities.forEach((p, i) => {
      const v = summary.getRow(head.number + 1 + i).values as unknown[];
      expect(v.slice(1)).toEqual([p.title, p.reason, p.ruleId, p.severity, p.wcagCriterion, p.elements, p.pages]);
    });
    expect(String(findRow(summary, 'Note')?.getCell(2).value)).toMatch(/automated findings.*not a conformance claim/);
  });

  it('writes every DiffRow field on New and Fixed', async () => {
    for (const [name, rows] of [
      ['New', await collect(crawl.diff!.newRows())],
      ['Fixed', await collect(crawl.diff!.fixedRows())],
    ] as const) {
      const ws = crawlWb.getWorksheet(name)!;
      expect(ws.actualRowCount).toBe(rows.length + 1);
      rows.forEach((r: DiffRow, i) => {
        const v = ws.getRow(i + 2).values as ExcelJS.CellValue[];
        expect(v.slice(1)).toEqual([
          r.id,
          { text: r.pageUrl, hyperlink: r.pageUrl },
          r.ruleId,
          r.wcagCriterion,
          r.wcagLevel,
          r.severity,
          r.type,
          shown(r.selector),
          r.change,
          r.at,
          r.wcagCriteria.join(', '),
        ]);
      });
    }
  });

  it('never writes a formula: hostile texts are quoted text, no cell is a formula, the XML has no <f>', () => {
    for (const [buf, wb] of [
      [scanBuf, scanWb],
      [crawlBuf, crawlWb],
    ] as const) {
      const hostile: string[] = [];
      everyCell(wb, (cell, ws) => {
        expect(cell.type, `${ws.name}!${cell.address}`).not.toBe(ExcelJS.ValueType.Formula);
        expect(cell.type, `${ws.name}!${cell.address}`).not.toBe(ExcelJS.ValueType.SharedString);
        expect(cell.formula, `${ws.name}!${cell.address}`).toBeUndefined();
        const text = cellText(cell.value);
        if (typeof text === 'string') {
          expect(startsLikeFormula(text), `${ws.name}!${cell.address}: ${text}`).toBe(false);
          if (text.includes(HOSTILE_TITLE) || text === `'${HOSTILE_LINK_TEXT}`) hostile.push(`${ws.name}!${cell.address}`);
        }
      });
      for (const [name, xml] of unzip(buf)) {
        if (!name.startsWith('xl/worksheets/sheet')) continue;
        expect(xml, name).not.toMatch(/<f[\s>/]/);
        expect(xml, name).not.toMatch(/>[=+\-@]/);
      }
      if (wb === crawlWb) {
        // Page 1's title on Issues and Pages, its hostile selector on Issues and New.
        expect(hostile.length).toBeGreaterThanOrEqual(4);
        const issues = wb.getWorksheet('Issues')!;
        let titleCells = 0;
        let selectorCells = 0;
        issues.eachRow((row) => {
          if (row.getCell(3).value === `'${HOSTILE_TITLE}`) titleCells++;
          if (row.getCell(10).value === `'${HOSTILE_LINK_TEXT}`) {
            selectorCells++;
            expect(row.getCell(10).type).toBe(ExcelJS.ValueType.String);
          }
        });
        expect(titleCells).toBe(9);
        expect(selectorCells).toBe(1);
        const pages = wb.getWorksheet('Pages')!;
        const hostilePage = crawl.pages.findIndex((p) => p.title === HOSTILE_TITLE);
        expect(pages.getCell(`B${hostilePage + 2}`).value).toBe(`'${HOSTILE_TITLE}`);
        expect(wb.getWorksheet('New')!.getCell('H2').value).toBe(`'${HOSTILE_LINK_TEXT}`);
      }
    }
  });

  it('cleans control characters, truncates long texts and links only http(s)', async () => {
    const base = sampleReport({ kind: 'scan', issuesPerPage: 1 });
    const [first] = await collect(base.issueRows());
    const evil: IssueRow[] = [
      { ...first!, id: 'a', pageUrl: 'javascript:alert(1)', pageTitle: '\u0001=cmd|x', selector: '+1', html: 'x'.repeat(40_000) },
      { ...first!, id: 'b', pageUrl: 'https://example.org/a b"<', pageTitle: 'ok\u0000\uD800\uFFFF', selector: '-2', html: '@3' },
    ];
    const report: Report = {
      ...base,
      issueRows: async function* () {
        yield evil;
      },
    };
    const buf = await render(report);
    const ws = (await load(buf)).getWorksheet('Issues')!;
    expect(ws.getCell('B2').value).toBe('javascript:alert(1)');
    expect(ws.getCell('B2').type).toBe(ExcelJS.ValueType.String);
    expect(ws.getCell('C2').value).toBe("'=cmd|x");
    expect(ws.getCell('J2').value).toBe("'+1");
    expect(String(ws.getCell('K2').value).length).toBe(32_767);
    expect(ws.getCell('B3').hyperlink).toBe('https://example.org/a%20b%22%3C');
    expect(ws.getCell('C3').value).toBe('ok');
    expect(ws.getCell('J3').value).toBe("'-2");
    expect(ws.getCell('K3').value).toBe("'@3");
  });

  it('renders an empty report: headers, filters and the validation are still there', async () => {
    const base = sampleReport({ kind: 'scan', issuesPerPage: 0 });
    const wb = await load(await render(base));
    const ws = wb.getWorksheet('Issues')!;
    expect(ws.actualRowCount).toBe(1);
    expect(headerOf(ws)).toEqual(ISSUE_HEADERS);
    expect(ws.autoFilter).toBe('A1:U1');
    expect((wb.getWorksheet('Summary')!.views[0] as ExcelJS.WorksheetViewFrozen).ySplit).toBe(1);
  });

  it('gives every count of the workbook from the same issues as the Issues sheet (the issue list)', async () => {
    for (const [report, wb] of [
      [scan, scanWb],
      [crawl, crawlWb],
    ] as const) {
      const rows = await collect(report.issueRows());
      const count = (f: (r: IssueRow) => boolean) => rows.filter(f).length;
      const item = (label: string) => findRow(wb.getWorksheet('Summary')!, label)?.getCell(2).value;
      const sum = (ws: string, header: string) => {
        const sheet = wb.getWorksheet(ws)!;
        const col = headerOf(sheet).indexOf(header) + 1;
        let n = 0;
        sheet.eachRow((row, i) => {
          if (i > 1 && typeof row.getCell(col).value === 'number') n += row.getCell(col).value as number;
        });
        return n;
      };
      expect(wb.getWorksheet('Issues')!.actualRowCount - 1).toBe(rows.length);
      expect(item('Issues (distinct: one rule on one element of one page)')).toBe(rows.length);
      for (const sev of ['critical', 'serious', 'moderate', 'minor'] as const) {
        expect(item(`${sev[0]!.toUpperCase()}${sev.slice(1)} issues`), sev).toBe(count((r) => r.severity === sev));
      }
      expect(item('Confirmed issues')).toBe(count((r) => r.type === 'confirmed'));
      expect(item('Issues that need review')).toBe(count((r) => r.type === 'needs_review'));
      expect(['Perceivable', 'Operable', 'Understandable', 'Robust'].reduce((n, p) => n + (item(p) as number), 0)).toBe(rows.length);
      expect(item('Pages affected')).toBe(new Set(rows.map((r) => r.pageUrl)).size);
      expect(sum('Pages', 'Total')).toBe(rows.length);
      expect(sum('Criteria', 'Issues')).toBe(rows.length);
      if (report.kind === 'crawl') expect((item('Persisting issues') as number) + (item('New issues since the previous crawl') as number)).toBe(rows.length);
    }
  });

  it('says when the Pages sheet lists only part of the pages', async () => {
    const base = sampleReport({ kind: 'crawl', pages: 6, issuesPerPage: 1 });
    const wb = await load(await render({ ...base, pagesTotal: 5000 }));
    const summary = wb.getWorksheet('Summary')!;
    expect(findRow(summary, 'Pages listed on the Pages sheet')?.getCell(2).value).toBe('6 of 5000 (worst scores first)');
    const pages = wb.getWorksheet('Pages')!;
    expect(pages.autoFilter).toBe('A1:L7');
    expect(pages.getCell('A9').value).toBe('This sheet lists 6 of the 5000 pages, worst scores first.');
  });
});

describe('renderXlsx: aborting', () => {
  /** A report whose issue iterator counts the batches it gave and records when its `finally` ran. */
  function endless(opts: { onBatch?: (n: number) => void; hangAfter?: number } = {}) {
    const state = { batches: 0, finallyRan: false, hanging: false };
    const base = sampleReport({ kind: 'crawl', pages: 4, issuesPerPage: 2 });
    const report: Report = {
      ...base,
      issueRows: async function* () {
        const [row] = await collect(base.issueRows());
        try {
          for (;;) {
            if (opts.hangAfter !== undefined && state.batches >= opts.hangAfter) {
              state.hanging = true;
              await new Promise(() => {});
            }
            state.batches++;
            opts.onBatch?.(state.batches);
            yield Array.from({ length: 500 }, (_, i) => ({ ...row!, id: `${state.batches}-${i}` }));
          }
        } finally {
          state.finallyRan = true;
        }
      },
    };
    return { report, state };
  }

  it('rejects with an AbortError and closes the issue iterator when the signal aborts', async () => {
    const ac = new AbortController();
    const { report, state } = endless({ onBatch: (n) => n === 3 && ac.abort() });
    const err = await render(report, { signal: ac.signal }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(state.finallyRan).toBe(true);
    expect(state.batches).toBeLessThanOrEqual(4);
  });

  it('rejects at once when the signal is already aborted, without reading any rows', async () => {
    const { report, state } = endless();
    await expect(render(report, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(state.batches).toBe(0);
  });

  it('stops when the output is destroyed (the client went away)', async () => {
    const out = new PassThrough();
    out.resume();
    const { report, state } = endless({ onBatch: (n) => n === 2 && out.destroy() });
    await expect(renderXlsx(report, out)).rejects.toMatchObject({ name: 'AbortError' });
    expect(state.finallyRan).toBe(true);
    expect(state.batches).toBeLessThanOrEqual(3);
  });

  it('stops promptly while the iterator is waiting for a batch, and asks it to close', async () => {
    const ac = new AbortController();
    const { report, state } = endless({ hangAfter: 1 });
    const p = render(report, { signal: ac.signal });
    while (!state.hanging) await new Promise((r) => setTimeout(r, 5));
    const t0 = performance.now();
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it('stops while waiting for a reader that never reads', async () => {
    const ac = new AbortController();
    const out = new PassThrough({ highWaterMark: 1024 }); // nobody reads it: the writer must pause, not buffer
    const { report, state } = endless();
    const p = renderXlsx(report, out, { signal: ac.signal });
    await new Promise((r) => setTimeout(r, 300));
    const pulled = state.batches;
    expect(pulled).toBeLessThan(50);
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(state.finallyRan).toBe(true);
  });

  it('passes on an error of the iterator', async () => {
    const base = sampleReport({ kind: 'scan', issuesPerPage: 2 });
    const report: Report = {
      ...base,
      issueRows: async function* () {
        yield await collect(base.issueRows());
        throw new Error('cursor broke');
      },
    };
    await expect(render(report)).rejects.toThrow('cursor broke');
  });
});

describe('renderXlsx: size', () => {
  it('caps hyperlinks per sheet, then writes plain URLs', async () => {
    // 2,701 pages x 25 issues (the last page failed) = 67,500 issue rows.
    const report = sampleReport({ kind: 'crawl', pages: 2701, issuesPerPage: 25 });
    const chunks: Buffer[] = [];
    const out = new PassThrough();
    out.on('data', (c: Buffer) => chunks.push(c));
    await renderXlsx(report, out);
    const files = unzip(Buffer.concat(chunks));
    const xml = files.get('xl/worksheets/sheet2.xml')!;
    expect(xml.match(/<hyperlink /g)?.length).toBe(MAX_HYPERLINKS_PER_SHEET);
    expect(files.get('xl/worksheets/_rels/sheet2.xml.rels')!.match(/<Relationship /g)?.length).toBe(MAX_HYPERLINKS_PER_SHEET);
    expect(xml).toContain(`<hyperlink ref="B${MAX_HYPERLINKS_PER_SHEET + 1}"`);
    expect(xml).not.toContain(`<hyperlink ref="B${MAX_HYPERLINKS_PER_SHEET + 2}"`);
    expect(xml).toContain(`<row r="${67_500 + 1}"`);
    expect(xml).not.toMatch(/<f[\s>/]/);
  });

  it('streams 50,000 issue rows, letting the event loop run while it writes', async () => {
    const report = sampleReport({ kind: 'crawl', pages: 2001, issuesPerPage: 25 });
    let bytes = 0;
    let writes = 0;
    let ticksWhileWriting = 0;
    const out = new Writable({
      write(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        writes++;
        cb();
      },
    });
    // A timer that can only fire if the renderer yields between rows (speed is the bench's business).
    const timer = setInterval(() => {
      if (writes > 0) ticksWhileWriting++;
    }, 1);
    await renderXlsx(report, out);
    clearInterval(timer);
    expect(bytes).toBeGreaterThan(1_000_000);
    expect(ticksWhileWriting).toBeGreaterThan(0);
  });
});
