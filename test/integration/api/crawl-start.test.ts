import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCrawl } from '../../../src/db/repositories/crawl.repository.ts';
import { crawlWorkflowId } from '../../../src/shared/search-attributes.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../../helpers/test-env.ts';

/**
 * The API only starts the crawl's workflow; the workflow writes the crawl's row itself. With no
 * worker running, the crawl exists only in Temporal: it must still be readable, refuse a second
 * start, and be cancellable; nothing is written to the database by the API.
 */
describe('starting a crawl: the API starts, the workflow opens', () => {
  let env: TestEnv;
  let siteId: string;
  beforeAll(async () => {
    env = await createTestEnv({ workers: false });
    siteId = (await (await env.request('/api/sites', { method: 'POST', json: { url: 'http://127.0.0.1:9/' } })).json()).id;
  });
  afterAll(async () => env?.close());

  it('answers 202, writes no row, and shows the crawl as queued from its workflow', async () => {
    const res = await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST', json: { maxPages: 7, viewports: ['mobile', 1920] } });
    expect(res.status).toBe(202);
    const { crawlId } = await res.json();
    expect(res.headers.get('location')).toBe(`/api/sites/${siteId}/crawls/${crawlId}`);
    expect(await env.db.selectFrom('crawls').select('id').where('site_id', '=', siteId).execute()).toEqual([]);
    const crawl = await (await env.request(`/api/sites/${siteId}/crawls/${crawlId}`)).json();
    expect(crawl).toMatchObject({ id: crawlId, siteId, status: 'queued', maxPages: 7, viewports: ['mobile', 1920], scannedPages: 0, completedAt: null });

    // A second start is refused while the first has not even written its row.
    const second = await pollUntil(
      () => env.request(`/api/sites/${siteId}/crawl`, { method: 'POST', json: {} }),
      (r) => r.status === 409,
      { timeoutMs: 10_000, everyMs: 200 },
    );
    expect(await second.json()).toMatchObject({ code: 'crawl_in_progress', crawlId });

    // Another site's id does not see it.
    const other = (await (await env.request('/api/sites', { method: 'POST', json: { url: 'http://127.0.0.2:9/' } })).json()).id;
    expect((await env.request(`/api/sites/${other}/crawls/${crawlId}`)).status).toBe(404);

    // Cancel reaches the workflow even before it opened the crawl.
    const cancel = await env.request(`/api/sites/${siteId}/crawls/${crawlId}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(202);
    const d = await env.temporal.workflow.getHandle(crawlWorkflowId(crawlId)).describe();
    expect(d.status.name).toBe('RUNNING'); // no worker: the cancellation waits for one
    await env.temporal.workflow.getHandle(crawlWorkflowId(crawlId)).terminate('test over');
  });

  it('opens a crawl once; a second one of the same site is written failed with crawl_in_progress; a deleted site opens nothing', async () => {
    const site = (await (await env.request('/api/sites', { method: 'POST', json: { url: 'http://127.0.0.3:9/' } })).json()).id;
    const a = randomUUID();
    const b = randomUUID();
    expect(await openCrawl(env.db, { crawlId: a, siteId: site, maxPages: 5, viewports: ['desktop'] })).toEqual({ opened: true });
    expect(await openCrawl(env.db, { crawlId: a, siteId: site, maxPages: 5 })).toEqual({ opened: true }); // a retry
    expect(await openCrawl(env.db, { crawlId: b, siteId: site, maxPages: 5, viewports: ['desktop', 'mobile'] })).toEqual({ opened: false, reason: 'crawl_in_progress', activeCrawlId: a });
    expect(await openCrawl(env.db, { crawlId: b, siteId: site, maxPages: 5 })).toEqual({ opened: false, reason: 'crawl_in_progress', activeCrawlId: a });
    const rows = await env.db.selectFrom('crawls').select(['id', 'status', 'error']).where('site_id', '=', site).orderBy('status').execute();
    expect(rows).toEqual([
      { id: b, status: 'failed', error: expect.objectContaining({ code: 'crawl_in_progress', crawlId: a }) },
      { id: a, status: 'queued', error: null },
    ]);
    expect(await openCrawl(env.db, { crawlId: randomUUID(), siteId: randomUUID(), maxPages: 5 })).toEqual({ opened: false, reason: 'site_gone' });
    // Desktop only is stored as null (as before viewports); other viewports as given.
    const stored = async (id: string) => (await env.db.selectFrom('crawls').select('viewports').where('id', '=', id).executeTakeFirstOrThrow()).viewports;
    expect(await stored(a)).toBeNull();
    expect(await stored(b)).toEqual(['desktop', 'mobile']);
  });
});
