import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngSize } from '../../src/shared/png-size.ts';
import { pdfImages, pdfText } from '../helpers/pdf-tools.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';

// A picture of each problem, end to end: a single-page scan's issues, a crawl's issue groups (one
// picture per group, taken on the first page that has it), the site issue route, the PDF (a tagged
// Figure with alternative text) and the workbook (a link per pictured issue); SCREENSHOTS=off takes none.

const ENDED = ['completed', 'completed_partial', 'failed', 'cancelled'];
const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
const UNKNOWN = '0b7e3f5a-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

// Every page has the template's nameless menu button: one issue group across the pages.
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>` +
  `<header><nav><button class="menu-toggle" style="width:44px;height:44px"><svg width="20" height="20" aria-hidden="true"><rect width="20" height="20"/></svg></button>` +
  `<a href="/">Home</a> <a href="/about">About</a> <a href="/news">News</a></nav></header><main><h1>${title}</h1>${body}</main></body></html>`;

async function image(env: TestEnv, path: string) {
  const res = await env.request(path);
  const body = Buffer.from(await res.arrayBuffer());
  return { res, body };
}

function expectPng(res: Response, body: Buffer) {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/png');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
  expect(Number(res.headers.get('content-length'))).toBe(body.length);
  expect([...body.subarray(0, 8)]).toEqual(SIGNATURE);
  expect(pngSize(body)).not.toBeNull();
  expect(body.length).toBeLessThanOrEqual(40 * 1024);
}

async function expectNotFound(env: TestEnv, path: string) {
  const res = await env.request(path);
  expect(res.status, path).toBe(404);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(await res.json()).toMatchObject({ status: 404, code: 'not_found' });
}

/** Figure alternative texts of a PDF, read with pdf.js. */
async function figureAlts(pdf: Uint8Array): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({ data: new Uint8Array(pdf), verbosity: 0 });
  const doc = await task.promise;
  const alts: string[] = [];
  type Node = { role?: string; alt?: string; children?: Node[] };
  const walk = (n: Node) => {
    if (n.role === 'Figure') alts.push(n.alt ?? '');
    for (const c of n.children ?? []) walk(c);
  };
  for (let i = 1; i <= doc.numPages; i++) {
    const tree = (await (await doc.getPage(i)).getStructTree()) as Node | null;
    if (tree) walk(tree);
  }
  await task.destroy();
  return alts;
}

async function scan(env: TestEnv, url: string) {
  const res = await env.request('/api/scans', { method: 'POST', json: { url } });
  expect(res.status).toBe(202);
  const { id } = await res.json();
  return pollUntil(async () => (await env.request(`/api/scans/${id}`)).json(), (s) => ENDED.includes(s.status), { timeoutMs: 90_000 });
}

describe('screenshots of issues', () => {
  let env: TestEnv;
  let site: StaticServer;

  beforeAll(async () => {
    site = await startStaticServer({
      '/': html(page('Home', `<p>Welcome.</p><img src="${GIF}" id="hero" width="120" height="60">`)),
      '/about': html(page('About', '<p>About us.</p>')),
      '/news': html(page('News', '<p>No news.</p>')),
    });
    env = await createTestEnv({ env: { PAGE_LOAD_TIMEOUT_MS: '5000', SCAN_RATE_LIMIT: '1000' }, discoveryOptions: { fetchTimeoutMs: 2000 } });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  it('serves a single-page scan issue\u2019s picture, and 404 for an unknown issue or another scan\u2019s', async () => {
    const first = await scan(env, `${site.origin}/`);
    expect(first.status).toBe('completed');
    const button = first.issues.find((i: any) => i.axeRuleId === 'button-name');
    expect(button).toBeTruthy();
    const { res, body } = await image(env, `/api/scans/${first.id}/issues/${button.id}/screenshot`);
    expectPng(res, body);
    const img = first.issues.find((i: any) => i.axeRuleId === 'image-alt');
    expectPng(...Object.values(await image(env, `/api/scans/${first.id}/issues/${img.id}/screenshot`)) as [Response, Buffer]);

    await expectNotFound(env, `/api/scans/${first.id}/issues/${UNKNOWN}/screenshot`);
    await expectNotFound(env, `/api/scans/${UNKNOWN}/issues/${button.id}/screenshot`);
    const second = await scan(env, `${site.origin}/about`);
    const other = second.issues.find((i: any) => i.axeRuleId === 'button-name');
    await expectNotFound(env, `/api/scans/${first.id}/issues/${other.id}/screenshot`);
    expectPng(...Object.values(await image(env, `/api/scans/${second.id}/issues/${other.id}/screenshot`)) as [Response, Buffer]);
    const bad = await env.request(`/api/scans/${first.id}/issues/not-a-uuid/screenshot`);
    expect(bad.status).toBe(400);
  }, 240_000);

  describe('a crawl', () => {
    let siteId: string;
    let crawl: any;
    beforeAll(async () => {
      const res = await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } });
      siteId = (await res.json()).id;
      const started = await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST' });
      expect(started.status).toBe(202);
      const { crawlId } = await started.json();
      crawl = await pollUntil(async () => (await env.request(`/api/sites/${siteId}/crawls/${crawlId}`)).json(), (c) => ENDED.includes(c.status), { timeoutMs: 180_000 });
      expect(crawl.status).toBe('completed');
      expect(crawl.scannedPages).toBe(3);
    }, 240_000);

    it('pictures each issue group once, names the example\u2019s issue and serves its picture on the site issue route', async () => {
      const res = await env.request(`/api/sites/${siteId}/issue-groups?limit=100`);
      expect(res.status).toBe(200);
      const { data: items } = await res.json();
      for (const g of items) {
        expect(g.example).toHaveProperty('issueId');
        expect(g.example).toHaveProperty('screenshot');
        expect(typeof g.example.issueId).toBe('string');
      }
      const menu = items.find((g: any) => g.ruleId === 'button-name');
      expect(menu.pages).toBe(3);
      expect(menu.example.screenshot).toBe(`/api/sites/${siteId}/issues/${menu.example.issueId}/screenshot`);
      const { res: r, body } = await image(env, menu.example.screenshot);
      expectPng(r, body);

      // One picture per group in the crawl, however many pages have it.
      const rows = await env.db
        .selectFrom('finding_screenshots as s')
        .innerJoin('findings as f', 'f.id', 's.finding_id')
        .select(['f.group_key'])
        .where('s.crawl_id', '=', crawl.id)
        .execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((x) => x.group_key)).size).toBe(rows.length);
      expect(rows.length).toBeLessThanOrEqual(items.length);

      // The menu button's issues on the other pages have no picture of their own: the route serves
      // the one taken of the same issue only when it is the same issue (same page), else 404.
      const issues = await (await env.request(`/api/sites/${siteId}/issues?ruleId=button-name&limit=10`)).json();
      expect(issues.data).toHaveLength(3);
      const served = await Promise.all(issues.data.map(async (i: any) => (await env.request(`/api/sites/${siteId}/issues/${i.id}/screenshot`)).status));
      expect(served.filter((s) => s === 200)).toHaveLength(1);
      await expectNotFound(env, `/api/sites/${siteId}/issues/${UNKNOWN}/screenshot`);
      const other = await env.request('/api/sites', { method: 'POST', json: { url: 'http://other.example/' } });
      await expectNotFound(env, `/api/sites/${(await other.json()).id}/issues/${menu.example.issueId}/screenshot`);
    });

    it('puts the pictures in the PDF as Figures with alternative text, and links them from the workbook', async () => {
      const pdfRes = await env.request(`/api/sites/${siteId}/crawls/${crawl.id}/export`);
      expect(pdfRes.status).toBe(200);
      const pdf = new Uint8Array(await pdfRes.arrayBuffer());
      const images = await pdfImages(pdf);
      expect(images.filter((i) => i.type === 'image').length).toBeGreaterThan(0);
      const alts = (await figureAlts(pdf)).filter((a) => a.startsWith('Screenshot of example element 1'));
      expect(alts.length).toBe(images.filter((i) => i.type === 'image').length);
      expect(alts.some((a) => a.includes('button'))).toBe(true);
      expect(await pdfText(pdf)).toContain('outlined in magenta');

      const xRes = await env.request(`/api/sites/${siteId}/crawls/${crawl.id}/export?format=excel`);
      expect(xRes.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await xRes.arrayBuffer()) as unknown as ExcelJS.Buffer);
      const ws = wb.getWorksheet('Issues')!;
      const header = (ws.getRow(1).values as unknown[]).map(String);
      for (const h of ['State', 'Viewport', 'Screenshot']) expect(header).toContain(h);
      const col = header.indexOf('Screenshot');
      const links: string[] = [];
      ws.eachRow((row, n) => {
        const v = row.getCell(col).value as { hyperlink?: string } | null;
        if (n > 1 && v && typeof v === 'object' && v.hyperlink) links.push(v.hyperlink);
      });
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) expect(link).toMatch(new RegExp(`^${env.api.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/api/sites/${siteId}/issues/[0-9a-f-]{36}/screenshot$`));
      const { res, body } = await image(env, new URL(links[0]!).pathname);
      expectPng(res, body);
    });
  });
});

describe('SCREENSHOTS=off', () => {
  let env: TestEnv;
  let site: StaticServer;
  beforeAll(async () => {
    site = await startStaticServer({ '/': html(page('Home', `<img src="${GIF}" width="120" height="60">`)) });
    env = await createTestEnv({ env: { PAGE_LOAD_TIMEOUT_MS: '5000', SCREENSHOTS: 'off' } });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  it('takes no picture: the screenshot route answers 404', async () => {
    const s = await scan(env, `${site.origin}/`);
    expect(s.status).toBe('completed');
    expect(s.issues.length).toBeGreaterThan(0);
    for (const i of s.issues) await expectNotFound(env, `/api/scans/${s.id}/issues/${i.id}/screenshot`);
    const rows = await env.db.selectFrom('finding_screenshots').select('finding_id').execute();
    expect(rows).toHaveLength(0);
  }, 120_000);
});
