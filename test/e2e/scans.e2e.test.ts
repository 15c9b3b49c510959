import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../temporal-dev/dev-server.ts';
import { html, pdf, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { fixtureFile } from '../helpers/fixture-pages.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';
import { pdfkitFile } from '../helpers/pdf-files.ts';

const ENDED = ['completed', 'completed_partial', 'failed', 'cancelled'];

describe('single-page scans end to end (Temporal, PostgreSQL, Chromium)', () => {
  let env: TestEnv;
  let site: StaticServer;
  let closedPort: number;

  beforeAll(async () => {
    site = await startStaticServer({
      '/barriers': fixtureFile('pages/barriers.html'),
      '/clean': fixtureFile('pages/clean.html'),
      '/slow-image.gif': async (_req, res) => {
        await new Promise((r) => setTimeout(r, 1500));
        res.writeHead(200, { 'content-type': 'image/gif' });
        res.end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
      },
      '/slow': html('<!doctype html><html lang="en"><title>Slow</title><main><h1>Slow</h1><img src="/slow-image.gif" alt="A dot"></main></html>'),
      '/archive.zip': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/zip' });
        res.end(Buffer.from('PK\x03\x04 not a page', 'latin1'));
      },
      '/broken.pdf': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end('%PDF-1.4\n%%EOF\n');
      },
      '/fake.pdf': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end('<!doctype html><title>Not a PDF</title>');
      },
      '/gone': html('<!doctype html><title>Gone</title><p>Gone</p>', 410),
      '/never': () => new Promise(() => {}),
    });
    const minutes = await pdfkitFile({ tagged: true, displayTitle: true, info: { Title: 'Minutes of the March meeting' } }, (d) => {
      const doc = d.struct('Document');
      d.addStructure(doc);
      doc.add(d.struct('H1', {}, () => d.text('Minutes of the March meeting')));
      doc.add(d.struct('Figure', {}, () => d.rect(72, 160, 80, 80).fill('#336699')));
      doc.end();
    });
    const locked = await pdfkitFile({ userPassword: 'secret', ownerPassword: 'owner' }, (d) => d.text('Hidden'));
    site.route('/minutes.pdf', pdf(minutes));
    site.route('/locked.pdf', pdf(locked));
    closedPort = await freePort();
    env = await createTestEnv({ env: { PAGE_LOAD_TIMEOUT_MS: '3000', SCAN_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  async function startScan(url: string): Promise<string> {
    const res = await env.request('/api/scans', { method: 'POST', json: { url } });
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toMatchObject({ url, status: 'queued', progress: 0 });
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'id', 'progress', 'status', 'url']);
    expect(res.headers.get('location')).toBe(`/api/scans/${body.id}`);
    return body.id;
  }

  async function scanOf(id: string) {
    const res = await env.request(`/api/scans/${id}`);
    expect(res.status).toBe(200);
    return res.json();
  }

  const waitEnded = (id: string) => pollUntil(() => scanOf(id), (s) => ENDED.includes(s.status), { timeoutMs: 60_000 });

  it('finds exactly the known barriers with criteria, levels and severities', async () => {
    const id = await startScan(`${site.origin}/barriers`);
    const scan = await waitEnded(id);
    expect(scan.status).toBe('completed');
    expect(scan.progress).toBe(100);
    expect(scan.pageTitle).toBe('Known barriers');
    const got = scan.issues
      .map((i: any) => `${i.elementSelector} ${i.axeRuleId} ${i.wcagCriterion} ${i.wcagLevel} ${i.severity} ${i.type}`)
      .sort();
    expect(got).toEqual(
      [
        '#low-contrast color-contrast 1.4.3 AA serious confirmed',
        '#no-alt image-alt 1.1.1 A critical confirmed',
        '#tiny-a target-size 2.5.8 AA serious confirmed',
        '#tiny-b target-size 2.5.8 AA serious confirmed',
        '#unlabeled label 4.1.2 A critical confirmed',
        '#unnamed button-name 4.1.2 A critical confirmed',
      ].sort(),
    );
    for (const issue of scan.issues) {
      expect(issue.status).toBe('open');
      expect(issue.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(issue.description.length).toBeGreaterThan(40);
      expect(issue.fixSuggestion.length).toBeGreaterThan(20);
      expect(issue.elementHtml).toContain('<');
    }
    // The mobile-viewport target check saw the same buttons: one issue each, the other rule noted.
    expect(scan.issues.find((i: any) => i.elementSelector === '#tiny-a').alsoFlaggedBy).toEqual(['target-size-mobile']);
    // Issues come worst first.
    const ranks = scan.issues.map((i: any) => ['critical', 'serious', 'moderate', 'minor'].indexOf(i.severity));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));

    expect(scan.summary.overallScore).toBeGreaterThanOrEqual(0);
    expect(scan.summary.overallScore).toBeLessThan(100);
    expect(scan.summary.overallScore).toBe(scan.overallScore);
    expect(scan.summary.summary).toContain('Known barriers');
    expect(scan.summary.topPriorities.length).toBeGreaterThan(0);
    expect(scan.summary.topPriorities[0]).toEqual({
      title: expect.any(String),
      severity: 'critical',
      wcagCriterion: expect.stringMatching(/^\d\.\d\.\d+$/),
      issueCount: expect.any(Number),
      reason: expect.any(String),
    });
    expect(scan.summary.positiveFindings.length).toBeGreaterThan(0);
    for (const p of scan.summary.positiveFindings) {
      expect(p).toEqual({ title: expect.any(String), detail: expect.any(String), wcagCriterion: expect.any(String) });
      expect(scan.issues.some((i: any) => i.wcagCriterion === p.wcagCriterion)).toBe(false);
    }
  });

  it('flags vague link text as the service\'s own check', async () => {
    site.route(
      '/links',
      html(`<!doctype html><html lang="en"><title>Links</title><main><h1>News</h1>
        <div><a id="vague" href="/a">Click here</a></div>
        <p>Our 2025 annual report is out. <a id="in-context" href="/b">Read more</a></p>
        <div><a id="good" href="/c">Annual report 2025</a></div></main></html>`),
    );
    const scan = await waitEnded(await startScan(`${site.origin}/links`));
    expect(scan.status).toBe('completed');
    const links = scan.issues.filter((i: any) => i.axeRuleId === 'link-text-generic');
    expect(links.map((i: any) => [i.elementSelector, i.type, i.wcagCriterion, i.wcagLevel]).sort()).toEqual([
      ['#in-context', 'needs_review', '2.4.4', 'A'],
      ['#vague', 'confirmed', '2.4.4', 'A'],
    ]);
  });

  it('reports progress that only rises, through the named stages, to 100', async () => {
    const id = await startScan(`${site.origin}/slow`);
    const seen: Array<{ status: string; progress: number; currentStage: string | null }> = [];
    await pollUntil(
      async () => {
        const s = await scanOf(id);
        seen.push({ status: s.status, progress: s.progress, currentStage: s.currentStage });
        return s;
      },
      (s) => ENDED.includes(s.status),
      { everyMs: 40 },
    );
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(100);
    expect(seen.at(-1)!.status).toBe('completed');
    const order = ['Loading', 'AxeChecks', 'CustomChecks', 'AiEnrichment', 'Finalizing'];
    const stages = [...new Set(seen.map((s) => s.currentStage).filter(Boolean))] as string[];
    expect(stages.length).toBeGreaterThan(0);
    expect(stages).toContain('Loading');
    for (const s of stages) expect(order).toContain(s);
    expect(stages.map((s) => order.indexOf(s))).toEqual([...stages.map((s) => order.indexOf(s))].sort((a, b) => a - b));
    for (const s of seen) if (s.status === 'running') expect(s.currentStage).not.toBeNull();
    for (const s of seen) if (s.status !== 'running') expect(s.currentStage).toBeNull();
  });

  it('scores a clean page 100 with no issues', async () => {
    const scan = await waitEnded(await startScan(`${site.origin}/clean`));
    expect(scan.status).toBe('completed');
    expect(scan.issues).toEqual([]);
    expect(scan.summary.overallScore).toBe(100);
    expect(scan.summary.topPriorities).toEqual([]);
  });

  it.each([
    ['connection refused', () => `http://127.0.0.1:${closedPort}/`, 'connection_refused'],
    ['unknown host', () => 'http://no-such-host.invalid/', 'dns_error'],
    ['HTTP error', () => `${site.origin}/gone`, 'http_error'],
    ['missing page', () => `${site.origin}/missing`, 'http_error'],
    ['not HTML', () => `${site.origin}/archive.zip`, 'not_html'],
    ['a PDF that is not readable', () => `${site.origin}/broken.pdf`, 'document_unreadable'],
    ['a "PDF" that is HTML bytes', () => `${site.origin}/fake.pdf`, 'document_unreadable'],
    ['a PDF that needs a password', () => `${site.origin}/locked.pdf`, 'document_encrypted'],
    ['never answers', () => `${site.origin}/never`, 'timeout'],
  ])('ends failed with an error code when the page cannot be loaded: %s', async (_name, url, code) => {
    const started = Date.now();
    const scan = await waitEnded(await startScan(url()));
    expect(scan.status).toBe('failed');
    expect(scan.error.code).toBe(code);
    expect(scan.error.message.length).toBeGreaterThan(0);
    expect(scan.issues).toBeNull();
    expect(scan.summary).toBeNull();
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('audits a PDF URL as a document: its issues located by page and structure, its title as the page title', async () => {
    const scan = await waitEnded(await startScan(`${site.origin}/minutes.pdf`));
    expect(scan.status).toBe('completed');
    expect(scan.pageTitle).toBe('Minutes of the March meeting');
    expect(scan.document).toEqual({ mediaType: 'application/pdf', pages: 1, bytes: expect.any(Number) });
    expect(scan.issues.map((i: any) => `${i.axeRuleId} ${i.elementSelector} ${i.wcagCriterion} ${i.type}`).sort()).toEqual(
      ['pdf-figure-alt-missing page 1: Document[1]/Figure[1] 1.1.1 confirmed', 'pdf-lang-missing pdf:document 3.1.1 confirmed'].sort(),
    );
    for (const issue of scan.issues) {
      expect(issue.description.length).toBeGreaterThan(20);
      expect(issue.fixSuggestion.length).toBeGreaterThan(20);
    }
    expect(scan.summary.overallScore).toBeLessThan(100);
    // The figure's page as a picture (the document is rendered; no browser took it).
    const figure = scan.issues.find((i: any) => i.axeRuleId === 'pdf-figure-alt-missing');
    const picture = await env.request(`/api/scans/${scan.id}/issues/${figure.id}/screenshot`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await picture.arrayBuffer()).subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('cancels a running scan and refuses to cancel it again', async () => {
    site.route('/hang-image.gif', () => new Promise(() => {}));
    site.route('/hanging', html('<!doctype html><html lang="en"><title>Hang</title><img src="/hang-image.gif" alt="x"></html>'));
    const id = await startScan(`${site.origin}/hanging`);
    await pollUntil(() => scanOf(id), (s) => s.status === 'running');
    const res = await env.request(`/api/scans/${id}/cancel`, { method: 'POST' });
    expect(res.status).toBe(202);
    expect((await res.json()).id).toBe(id);
    const scan = await waitEnded(id);
    expect(scan.status).toBe('cancelled');
    expect(scan.issues).toBeNull();
    const again = await env.request(`/api/scans/${id}/cancel`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toContain('application/problem+json');
    expect((await again.json()).code).toBe('already_finished');
    // The row says cancelled first; the workflow closes as Cancelled right after.
    const wf = await pollUntil(() => env.temporal.workflow.getHandle(`scan-${id}`).describe(), (d) => d.status.name !== 'RUNNING');
    expect(wf.status.name).toBe('CANCELLED');
  });

  it('lists scans newest first with the pagination envelope', async () => {
    const res = await env.request('/api/scans?limit=2&offset=1');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.pagination).toMatchObject({ limit: 2, offset: 1, count: 2 });
    expect(body.pagination.total).toBeGreaterThanOrEqual(10);
    expect(body.links).toEqual({ self: '/api/scans?limit=2&offset=1', next: '/api/scans?limit=2&offset=3', prev: '/api/scans?limit=2&offset=0' });
    const all = await (await env.request('/api/scans?limit=100')).json();
    const created = all.data.map((s: any) => s.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(all.data[0]).not.toHaveProperty('issues');
    const defaults = await (await env.request('/api/scans')).json();
    expect(defaults.pagination.limit).toBe(20);
  });
});
