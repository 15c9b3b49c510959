import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';

const ENDED = ['completed', 'completed_partial', 'cancelled', 'failed'];
const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

/**
 * A shop's home page whose barriers depend on the window: a menu button with no name shown only on
 * narrow screens, a search button with no name shown only on wide ones, and a logo without alt
 * text at every width.
 */
const SHOP = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Shop</title>
<style>
  #menu { display: none; }
  @media (max-width: 600px) { #menu { display: block; } #search { display: none; } }
  button { width: 48px; height: 48px; }
</style></head>
<body><header><img src="${GIF}" id="logo" width="40" height="40">
<button id="menu" type="button"><span class="bars"></span></button>
<button id="search" type="button"><span class="glass"></span></button></header>
<main><h1>Shop</h1><p>Everything for the garden.</p></main></body></html>`;

/** A page whose script never yields after load on narrow screens only: it cannot be checked at mobile. */
const STUCK_WHEN_NARROW = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Busy on phones</title></head>
<body><main><h1>Busy on phones</h1><img src="${GIF}" id="photo" width="40" height="40"></main>
<script>addEventListener('load', () => { if (innerWidth < 600) setTimeout(() => { for (;;) {} }, 50); });</script></body></html>`;

describe('crawl viewports end to end', () => {
  let env: TestEnv;
  let site: StaticServer;
  let busy: StaticServer;
  let siteId: string;

  beforeAll(async () => {
    site = await startStaticServer();
    site.route('/', html(SHOP));
    busy = await startStaticServer({ '/': html(STUCK_WHEN_NARROW) }, { host: '127.0.0.2' });
    // The page that never yields at mobile is stopped at the scan deadline: the shortest there is.
    env = await createTestEnv({ discoveryOptions: { fetchTimeoutMs: 1500 }, env: { SCAN_DEADLINE_MS: '30000' } });
    const res = await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } });
    expect(res.status).toBe(201);
    siteId = (await res.json()).id;
  }, 120_000);
  afterAll(async () => {
    await env?.close();
    await site?.close();
    await busy?.close();
  });

  const get = async (path: string) => {
    const res = await env.request(path);
    expect(res.status, path).toBe(200);
    return res.json();
  };

  async function crawl(body: unknown, id = siteId) {
    const res = await env.request(`/api/sites/${id}/crawl`, { method: 'POST', json: body });
    expect(res.status).toBe(202);
    const { crawlId } = await res.json();
    return pollUntil(
      () => get(`/api/sites/${id}/crawls/${crawlId}`),
      (c) => ENDED.includes(c.status),
      { timeoutMs: 240_000, everyMs: 250 },
    );
  }

  /** The site's open issues of the two rules the page fails, as `rule selector viewport` keys with their ids. */
  async function openIssues(): Promise<Map<string, string>> {
    const body = await get(`/api/sites/${siteId}/issues?status=open&limit=100`);
    const out = new Map<string, string>();
    for (const i of body.data as any[]) {
      if (i.axeRuleId !== 'button-name' && i.axeRuleId !== 'image-alt') continue;
      const key = `${i.axeRuleId} ${i.elementSelector} ${JSON.stringify(i.viewport)}`;
      expect(out.has(key), key).toBe(false);
      out.set(key, i.id);
    }
    return out;
  }

  it('refuses viewports that are unknown, out of range, repeated, none or too many (400)', async () => {
    const bad: unknown[] = [['tablet'], [319], [3841], [800.5], ['800'], ['desktop', 'desktop'], ['desktop', 1280], [], ['desktop', 'mobile', 320, 1920, 2560], 'mobile', [null]];
    for (const viewports of bad) {
      const res = await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST', json: { viewports } });
      expect(res.status, JSON.stringify(viewports)).toBe(400);
      const problem = await res.json();
      expect(problem.code).toBe('validation_error');
      expect(JSON.stringify(problem.errors), JSON.stringify(viewports)).toContain('viewports');
    }
    // Nothing was started.
    expect((await get(`/api/sites/${siteId}/crawls`)).data).toHaveLength(0);
  });

  it('a desktop-only crawl finds the desktop barrier alone, with no viewport', async () => {
    const done = await crawl({});
    expect(done).toMatchObject({ status: 'completed', scannedPages: 1, viewports: ['desktop'] });
    expect([...(await openIssues()).keys()].sort()).toEqual(['button-name #search null', 'image-alt #logo null']);
  });

  let both: Map<string, string>;

  it('desktop and mobile: each barrier at the viewport it shows at, one at both is two issues', async () => {
    const done = await crawl({ viewports: ['desktop', 'mobile'] });
    expect(done).toMatchObject({ status: 'completed', scannedPages: 1, viewports: ['desktop', 'mobile'] });
    // Identities with a viewport are new ones: the desktop-only crawl's issues are not seen again.
    expect(done.newIssues).toBeGreaterThanOrEqual(4);
    both = await openIssues();
    expect([...both.keys()].sort()).toEqual(['button-name #menu "mobile"', 'button-name #search "desktop"', 'image-alt #logo "desktop"', 'image-alt #logo "mobile"']);
    expect(both.get('image-alt #logo "desktop"')).not.toBe(both.get('image-alt #logo "mobile"'));
    const list = await get(`/api/sites/${siteId}/crawls?limit=10`);
    expect(list.data.map((c: any) => c.viewports)).toEqual([['desktop', 'mobile'], ['desktop']]);
  });

  it('the same viewports again keep the same issues', async () => {
    const done = await crawl({ viewports: ['desktop', 'mobile'] });
    expect(done).toMatchObject({ status: 'completed', viewports: ['desktop', 'mobile'], newIssues: 0 });
    expect(await openIssues()).toEqual(both);
  });

  it('a page that cannot be checked at a later viewport keeps the first viewport\'s results', async () => {
    const res = await env.request('/api/sites', { method: 'POST', json: { url: `${busy.origin}/` } });
    const other = (await res.json()).id;
    const done = await crawl({ viewports: ['desktop', 'mobile'] }, other);
    expect(done).toMatchObject({ status: 'completed', scannedPages: 1, failedPages: 0 });
    const issues = (await get(`/api/sites/${other}/issues?limit=100`)).data as any[];
    const alt = issues.filter((i) => i.axeRuleId === 'image-alt').map((i) => `${i.elementSelector} ${i.viewport}`);
    expect(alt).toEqual(['#photo desktop']);
    const page = (await get(`/api/sites/${other}/pages?limit=10`)).data[0];
    expect(page).toMatchObject({ title: 'Busy on phones', httpStatus: 200 });
  });

  it("keeps viewports on the site's schedule", async () => {
    const put = await env.request(`/api/sites/${siteId}/schedule`, { method: 'PUT', json: { every: '1d', paused: true, viewports: ['mobile', 1920] } });
    expect(put.status).toBe(201);
    expect(await put.json()).toMatchObject({ viewports: ['mobile', 1920] });
    expect(await get(`/api/sites/${siteId}/schedule`)).toMatchObject({ viewports: ['mobile', 1920] });
    const bad = await env.request(`/api/sites/${siteId}/schedule`, { method: 'PUT', json: { every: '1d', viewports: ['mobile', 'mobile'] } });
    expect(bad.status).toBe(400);
    const plain = await env.request(`/api/sites/${siteId}/schedule`, { method: 'PUT', json: { every: '1d', paused: true } });
    expect(await plain.json()).toMatchObject({ viewports: ['desktop'] });
  });
});
