import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCrawlFlow } from '../../src/activities/site-flows-source.ts';
import { axeEngine } from '../../src/audit/engines/axe/axe.engine.ts';
import type { ScanEngine } from '../../src/audit/engines/index.ts';
import { runFlow } from '../../src/audit/session/flow-runner.ts';
import { openTab } from '../../src/audit/session/page-session.ts';
import { crawlWorkflowId } from '../../src/shared/search-attributes.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';
import { historyText } from '../helpers/temporal-history.ts';

const ENDED = ['completed', 'completed_partial', 'cancelled', 'failed'];
/** Typed into the form by a flow: it must never come back from the API, the database's plain columns or Temporal. */
const TYPED = `Ada-${randomBytes(6).toString('hex')}`;
const PICKED = `topic-${randomBytes(4).toString('hex')}`;
const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

const doc = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

async function readBody(req: IncomingMessage): Promise<string> {
  let s = '';
  for await (const chunk of req) s += chunk;
  return s;
}

/**
 * axe, except that the first time it meets the end of the "interrupted" flow it throws, as a scan
 * does whose worker lost its browser after the flow's steps ran: the activity is retried.
 */
let interrupted = 0;
const interruptingAxe: ScanEngine = {
  ...axeEngine,
  async run(session) {
    if (interrupted === 0 && (await session.page.$('#interrupted-end'))) {
      interrupted++;
      throw new Error('simulated: the scan stopped after the flow ran (a lost worker or browser)');
    }
    return axeEngine.run(session);
  },
};

describe('scripted flows per site', () => {
  let env: TestEnv;
  let site: StaticServer;
  let elsewhere: StaticServer;
  let siteId: string;
  const posted: string[] = [];

  /**
   * A contact form that, sent without an email address, answers (a real POST, so the flow
   * navigates) with an error whose icon has no text alternative: a barrier only a person who sent
   * the form meets. The form as loaded is clean.
   */
  function contactForm(error: string) {
    return doc(
      'Contact',
      `${error}<form method="post" action="/contact">
         <label for="name">Name</label> <input id="name" name="name">
         <label for="email">Email</label> <input id="email" name="email" type="email">
         <label for="topic">Topic</label> <select id="topic" name="topic"><option value="">Pick one</option><option value="${PICKED}">Billing</option></select>
         <button type="submit" id="send">Send</button>
       </form>
       <p><a href="${elsewhere.origin}/" id="away">Our partner</a></p>`,
    );
  }

  beforeAll(async () => {
    elsewhere = await startStaticServer({}, { host: '127.0.0.3' });
    elsewhere.route('/', html(doc('Partner', '<p>Another site.</p>')));
    site = await startStaticServer();
    site.route('/', html(doc('Home', '<p><a href="/contact">Contact us</a>.</p>')));
    site.route('/contact', async (req: IncomingMessage, res: ServerResponse) => {
      if (req.method === 'POST') {
        const form = new URLSearchParams(await readBody(req));
        posted.push(form.toString());
        if (!form.get('email')) {
          // The answer greets the sender by the name the flow typed, in faint text (a barrier whose
          // HTML holds that name), and fills the form in again with it.
          const name = (form.get('name') ?? '').replace(/[<>&"]/g, '');
          const greeting = `<p id="greeting" style="color:#bbb;background:#fff">Thanks ${name}, <input id="again" aria-label="Your name" value="${name}"> we need one more thing.</p>`;
          html(contactForm(`<div role="alert" id="form-error"><img src="${GIF}" id="error-icon" width="16" height="16"> Please give your email address.</div>${greeting}`))(req, res);
          return;
        }
      }
      html(contactForm(''))(req, res);
    });
    site.route('/interrupted', async (req: IncomingMessage, res: ServerResponse) => {
      if (req.method === 'POST') {
        posted.push(`interrupted ${await readBody(req)}`);
        html(doc('Sent', '<p id="interrupted-end">Thanks</p>'))(req, res);
        return;
      }
      html(doc('Order', '<form method="post" action="/interrupted"><input type="hidden" name="order" value="1"><button id="order">Order</button></form>'))(req, res);
    });
    env = await createTestEnv({ scanEngines: [interruptingAxe], discoveryOptions: { fetchTimeoutMs: 3000 } });
    const res = await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } });
    siteId = (await res.json()).id;
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
    await elsewhere?.close();
  });

  const put = (id: string, body: unknown) => env.request(`/api/sites/${id}/flows`, { method: 'PUT', json: body });
  const sentEmpty = () => ({
    name: 'contact form sent empty',
    steps: [
      { action: 'goto', url: `${site.origin}/contact` },
      { action: 'fill', label: 'Name', value: TYPED },
      { action: 'select', selector: '#topic', value: PICKED },
      { action: 'click', text: 'Send' },
      { action: 'waitFor', selector: '#form-error' },
    ],
  });
  const broken = () => ({
    name: 'Broken flow',
    stepTimeoutMs: 1000,
    steps: [{ action: 'goto', url: `${site.origin}/contact` }, { action: 'press', key: 'Tab' }, { action: 'click', selector: '#no-such-button' }],
  });
  const leaves = () => ({ name: 'leaves the site', steps: [{ action: 'goto', url: `${site.origin}/contact` }, { action: 'click', selector: '#away' }] });

  async function crawl(id: string, body: Record<string, unknown> = {}) {
    const res = await env.request(`/api/sites/${id}/crawl`, { method: 'POST', json: body });
    expect(res.status).toBe(202);
    const { crawlId } = await res.json();
    return pollUntil(
      async () => (await env.request(`/api/sites/${id}/crawls/${crawlId}`)).json(),
      (c: any) => ENDED.includes(c.status),
      { timeoutMs: 150_000, everyMs: 250 },
    );
  }
  const pagesOf = async (id: string) => (await (await env.request(`/api/sites/${id}/pages?limit=100`)).json()).data as any[];
  const scanOf = async (id: string, pageId: string, crawlId: string) =>
    ((await (await env.request(`/api/sites/${id}/pages/${pageId}`)).json()).scans as any[]).find((s) => s.crawlId === crawlId);

  it('refuses bad flows with problem answers, and writes nothing', async () => {
    const cases: Array<[string, unknown, string?]> = [
      ['unknown action', { flows: [{ name: 'a', steps: [{ action: 'hover', selector: '#x' }] }] }],
      ['off-site goto', { flows: [{ name: 'a', steps: [{ action: 'goto', url: 'http://evil.example/contact' }] }] }, 'flows.0.steps.0.url'],
      ['duplicate names', { flows: [{ ...leaves() }, { ...leaves(), name: 'Leaves The Site' }] }, 'flows.1.name'],
      ['too many flows', { flows: Array.from({ length: 21 }, (_, i) => ({ name: `flow ${i}`, steps: [{ action: 'press', key: 'Tab' }] })) }],
      ['too many steps', { flows: [{ name: 'long', steps: Array.from({ length: 31 }, () => ({ action: 'press', key: 'Tab' })) }] }],
      ['a blank name', { flows: [{ name: '   ', steps: [{ action: 'press', key: 'Tab' }] }] }],
      ['a bad key', { flows: [{ name: 'k', steps: [{ action: 'press', key: 'Enter; rm -rf' }] }] }],
      ['a fill without a target', { flows: [{ name: 'f', steps: [{ action: 'fill', value: 'x' }] }] }],
      ['no flows', { flows: [] }],
    ];
    for (const [what, body, path] of cases) {
      const res = await put(siteId, body);
      expect(res.status, what).toBe(400);
      expect(res.headers.get('content-type'), what).toContain('application/problem+json');
      const problem = await res.json();
      expect(problem.code, what).toBe('validation_error');
      if (path) expect(problem.errors.map((e: any) => e.path), what).toContain(path);
    }
    expect((await put('0b7e3f5a-1c2d-4e5f-8a9b-0c1d2e3f4a5b', { flows: [leaves()] })).status).toBe(404);
    expect((await env.request(`/api/sites/${siteId}/flows`)).status).toBe(404);
  });

  it('answers 503 secrets_key_missing without a SECRETS_KEY, and writes nothing', async () => {
    const keyless = await env.startApi({ config: { ...env.config, secretsKey: undefined } });
    try {
      const res = await fetch(`${keyless.api}/api/sites/${siteId}/flows`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ flows: [sentEmpty()] }) });
      expect(res.status).toBe(503);
      expect((await res.json()).code).toBe('secrets_key_missing');
    } finally {
      await keyless.close();
    }
    expect((await env.request(`/api/sites/${siteId}/flows`)).status).toBe(404);
  });

  it('stores the flows sealed and shows them without a value typed or picked', async () => {
    const created = await put(siteId, { flows: [sentEmpty(), broken(), leaves()] });
    expect(created.status).toBe(201);
    const text = await created.text();
    expect(text).not.toContain(TYPED);
    expect(text).not.toContain(PICKED);
    const got = await (await env.request(`/api/sites/${siteId}/flows`)).json();
    expect(JSON.stringify(got)).not.toContain(TYPED);
    expect(JSON.stringify(got)).not.toContain(PICKED);
    expect(got).toMatchObject({
      siteId,
      flows: [
        {
          name: 'contact form sent empty',
          pageUrl: `${site.origin}/contact#flow:contact%20form%20sent%20empty`,
          stepTimeoutMs: 10_000,
          steps: [
            { action: 'goto', url: `${site.origin}/contact` },
            { action: 'fill', label: 'Name', hasValue: true },
            { action: 'select', selector: '#topic', hasValue: true },
            { action: 'click', text: 'Send' },
            { action: 'waitFor', selector: '#form-error' },
          ],
        },
        { name: 'Broken flow', stepTimeoutMs: 1000, steps: [{ action: 'goto' }, { action: 'press', key: 'Tab' }, { action: 'click', selector: '#no-such-button' }] },
        { name: 'leaves the site' },
      ],
    });
    expect(got.flows[0].steps[1]).not.toHaveProperty('value');
    expect((await put(siteId, { flows: [sentEmpty(), broken(), leaves()] })).status).toBe(200);
    const row = await env.db.selectFrom('site_flows').selectAll().where('site_id', '=', siteId).executeTakeFirstOrThrow();
    const stored = Buffer.concat([row.ciphertext, row.iv, row.tag, Buffer.from(JSON.stringify(row.summary)), Buffer.from(row.key_id)]);
    expect(stored.includes(Buffer.from(TYPED))).toBe(false);
    expect(stored.includes(Buffer.from(PICKED))).toBe(false);
  });

  it("audits each flow's end state as a page of the crawl; a failing step is that page's error", async () => {
    const c = await crawl(siteId);
    expect(c.status).toBe('completed_partial');
    const pages = await pagesOf(siteId);
    const byPath = new Map(pages.map((p) => [p.path, p]));
    const flowPage = byPath.get('/contact#flow:contact%20form%20sent%20empty');
    const brokenPage = byPath.get('/contact#flow:Broken%20flow');
    const leavingPage = byPath.get('/contact#flow:leaves%20the%20site');
    expect(pages.map((p) => p.path).sort()).toEqual(['/', '/contact', '/contact#flow:Broken%20flow', '/contact#flow:contact%20form%20sent%20empty', '/contact#flow:leaves%20the%20site']);
    for (const p of [flowPage, brokenPage, leavingPage]) expect(p.discoveredVia).toBe('flow');
    expect(byPath.get('/contact').discoveredVia).toBe('link');
    expect(c).toMatchObject({ totalPages: 5, scannedPages: 3, failedPages: 2 });
    // The form was really sent, with what the flow typed and picked, and without an email.
    expect(posted.some((p) => p.includes(`name=${TYPED}`) && p.includes(`topic=${PICKED}`) && p.includes('email=&'))).toBe(true);

    // The error's icon is a barrier of the flow's page only: the form as loaded does not have it.
    const issues = (await (await env.request(`/api/sites/${siteId}/issues?limit=100`)).json()).data as any[];
    const onFlow = issues.filter((i) => i.pageId === flowPage.id);
    expect(onFlow.map((i) => `${i.axeRuleId} ${i.elementSelector}`)).toContain('image-alt #error-icon');
    // The faint greeting is reported, without the name the flow typed in its HTML (nor the field's value).
    const greeting = onFlow.find((i) => i.elementSelector === '#greeting');
    expect(greeting?.elementHtml).toMatch(/^<p id="greeting"[^>]*>Thanks \[typed value\], <input id="again" aria-label="Your name">/);
    const stored = await env.db.selectFrom('findings').select(['element_html', 'failure_summary', 'element_selector', 'description']).execute();
    expect(JSON.stringify(stored)).not.toContain(TYPED);
    expect(issues.filter((i) => i.pageId === byPath.get('/contact').id).some((i) => i.elementSelector === '#error-icon')).toBe(false);
    expect(flowPage.title).toBe('Contact');

    const brokenScan = await scanOf(siteId, brokenPage.id, c.id);
    expect(brokenScan.status).toBe('failed');
    expect(brokenScan.error).toEqual({ code: 'flow_failed', message: 'flow "Broken flow": step 3 (click #no-such-button) did not succeed within 1000 ms' });
    const leavingScan = await scanOf(siteId, leavingPage.id, c.id);
    expect(leavingScan.error).toMatchObject({ code: 'flow_failed', message: expect.stringMatching(/^flow "leaves the site": step 2 \(click #away\) left the site: the page is on 127\.0\.0\.3/) });

    // Not a byte of what the flows type or pick in the API's answers or in Temporal.
    const history = historyText(await env.temporal.workflow.getHandle(crawlWorkflowId(c.id)).fetchHistory());
    expect(history).toContain('registerFlowPages');
    expect(history).not.toContain(TYPED);
    expect(history).not.toContain(PICKED);
    const answers = JSON.stringify([pages, issues, brokenScan, leavingScan, await scanOf(siteId, flowPage.id, c.id)]);
    expect(answers).not.toContain(TYPED);
    expect(answers).not.toContain(PICKED);
  });

  it('keeps room for the home page under maxPages, and finds no flow once they are deleted', async () => {
    const c = await crawl(siteId, { maxPages: 2 });
    expect(c.totalPages).toBe(2);
    const scanned: string[] = [];
    for (const p of await pagesOf(siteId)) if (await scanOf(siteId, p.id, c.id)) scanned.push(p.path);
    expect(scanned.sort()).toEqual(['/', '/contact#flow:contact%20form%20sent%20empty']);

    expect((await env.request(`/api/sites/${siteId}/flows`, { method: 'DELETE' })).status).toBe(204);
    expect((await env.request(`/api/sites/${siteId}/flows`)).status).toBe(404);
    expect((await env.request(`/api/sites/${siteId}/flows`, { method: 'DELETE' })).status).toBe(404);
    // A flow removed after its crawl registered the page: the page's error, not a crashed scan.
    const load = await loadCrawlFlow(env.db, env.config.secretsKey, c.id, 'contact form sent empty', 10_000);
    expect(load).toMatchObject({ kind: 'error', error: { code: 'flow_failed', message: expect.stringContaining('no flow named "contact form sent empty"') } });
  });

  it('runs a flow in a tab: navigations between steps go through, the end state is then held still, a goto that answers 404 fails', async () => {
    site.route('/wizard', html(doc('Wizard', `<button id="next" onclick="location.href='/wizard-2'">Next</button>`)));
    // Step 2 would move on by itself a moment later: the checks must see step 2, not step 3.
    site.route('/wizard-2', html(doc('Step 2', `<p id="two">Step two</p><script>setTimeout(function () { location.href = '/wizard-3'; }, 1200)</script>`)));
    site.route('/wizard-3', html(doc('Step 3', '<p>Step three</p>')));
    const host = new URL(site.origin).hostname;
    const tab = await openTab({ browser: await env.browser.get(), policy: env.deps.policy, pageLoadTimeoutMs: 10_000 });
    try {
      const loaded = await tab.load(`${site.origin}/wizard`);
      if (loaded.kind !== 'loaded') throw new Error(loaded.error.message);
      const steps = [{ action: 'goto' as const, url: `${site.origin}/wizard` }, { action: 'click' as const, selector: '#next' }, { action: 'waitFor' as const, selector: '#two' }];
      const ran = await runFlow(loaded.page, { name: 'wizard', steps }, { host, pageLoadTimeoutMs: 10_000 });
      expect(ran).toEqual({ kind: 'done', end: { finalUrl: `${site.origin}/wizard-2`, httpStatus: 200, pageTitle: 'Step 2' } });
      await new Promise((r) => setTimeout(r, 2000));
      expect(loaded.page.url()).toBe(`${site.origin}/wizard-2`);

      const again = await tab.load(`${site.origin}/wizard`);
      if (again.kind !== 'loaded') throw new Error(again.error.message);
      const gone = await runFlow(again.page, { name: 'gone', steps: [steps[0]!, { action: 'goto', url: `${site.origin}/gone` }] }, { host, pageLoadTimeoutMs: 10_000 });
      expect(gone).toMatchObject({ kind: 'page-error', httpStatus: 404, error: { code: 'flow_failed', message: `flow "gone": step 2 (goto ${site.origin}/gone) answered HTTP 404` } });
    } finally {
      await tab.close();
    }
  });

  it('lists the routes in the OpenAPI document, with flow_failed among page error codes', async () => {
    const openapi = await (await env.request('/openapi.json')).json();
    expect(Object.keys(openapi.paths['/api/sites/{id}/flows']).sort()).toEqual(['delete', 'get', 'put']);
    expect(JSON.stringify(openapi.components.schemas)).toContain('flow_failed');
    expect(openapi.components.schemas.PutSiteFlowsRequest).toBeDefined();
    expect(openapi.components.schemas.SiteFlows).toBeDefined();
  });

  it("runs a flow once per crawl page: its end state is checked at every viewport without sending its form again", async () => {
    expect([200, 201]).toContain((await put(siteId, { flows: [sentEmpty()] })).status);
    const before = posted.length;
    const c = await crawl(siteId, { viewports: ['desktop', 'mobile'] });
    expect(c.status).toBe('completed');
    // One POST: the flow's, once, though its end state was checked at two viewports.
    expect(posted.slice(before).filter((p) => p.includes(`name=${TYPED}`))).toHaveLength(1);
    const pages = await pagesOf(siteId);
    const flowPage = pages.find((p) => p.path === '/contact#flow:contact%20form%20sent%20empty');
    const issues = (await (await env.request(`/api/sites/${siteId}/issues?limit=100`)).json()).data as any[];
    const icon = issues.filter((i) => i.pageId === flowPage.id && i.elementSelector === '#error-icon' && i.lastSeenAt >= c.createdAt);
    expect(icon.map((i) => i.viewport).sort()).toEqual(['desktop', 'mobile']);
  });

  it('does not run a flow again when the scan that ran it is retried: the page ends as an error instead', async () => {
    const orderFlow = { name: 'interrupted order', steps: [{ action: 'goto', url: `${site.origin}/interrupted` }, { action: 'click', selector: '#order' }, { action: 'waitFor', selector: '#interrupted-end' }] };
    expect([200, 201]).toContain((await put(siteId, { flows: [orderFlow] })).status);
    const before = posted.length;
    const c = await crawl(siteId);
    expect(interrupted).toBe(1);
    // Sent once, by the attempt that was interrupted; the retry did not send it again.
    expect(posted.slice(before).filter((p) => p.startsWith('interrupted '))).toEqual(['interrupted order=1']);
    const page = (await pagesOf(siteId)).find((p) => p.path === '/interrupted#flow:interrupted%20order');
    const scan = await scanOf(siteId, page.id, c.id);
    expect(scan.status).toBe('failed');
    expect(scan.error).toMatchObject({ code: 'flow_failed', message: expect.stringMatching(/flow's steps ran, then the scan was interrupted .*not run again/) });
    expect(c.status).toBe('completed_partial');
  });
});
