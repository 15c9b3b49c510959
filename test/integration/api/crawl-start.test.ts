import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { openCrawl } from '../../../src/db/repositories/crawl.repository.ts';
import { crawlWorkflowId } from '../../../src/shared/search-attributes.ts';
import { createTestEnv, type TestEnv } from '../../helpers/test-env.ts';

/**
 * The API writes the crawl's row, then starts its workflow, which owns every later change. With no
 * worker running the crawl is readable (queued), refuses a second start and can be cancelled; a
 * start that fails removes the row; a row whose workflow never started is ended by the next start.
 */
describe('starting a crawl: the API writes the row, then starts the workflow', () => {
  let env: TestEnv;
  let siteId: string;
  beforeAll(async () => {
    env = await createTestEnv({ workers: false });
    siteId = (await (await env.request('/api/sites', { method: 'POST', json: { url: 'http://127.0.0.1:9/' } })).json()).id;
  });
  afterAll(async () => env?.close());
  const newSite = async (host: string) => (await (await env.request('/api/sites', { method: 'POST', json: { url: `http://${host}:9/` } })).json()).id as string;
  const crawlsOf = (site: string) => env.db.selectFrom('crawls').select(['id', 'status', 'error']).where('site_id', '=', site).execute();

  it('answers 202 with the crawl written queued before any worker runs, refuses a second start, and cancels', async () => {
    const res = await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST', json: { maxPages: 7, viewports: ['mobile', 1920] } });
    expect(res.status).toBe(202);
    const { crawlId } = await res.json();
    expect(res.headers.get('location')).toBe(`/api/sites/${siteId}/crawls/${crawlId}`);
    expect(await crawlsOf(siteId)).toEqual([{ id: crawlId, status: 'queued', error: null }]);
    const crawl = await (await env.request(`/api/sites/${siteId}/crawls/${crawlId}`)).json();
    expect(crawl).toMatchObject({ id: crawlId, siteId, status: 'queued', maxPages: 7, viewports: ['mobile', 1920], scannedPages: 0, completedAt: null });
    // Its workflow runs (queued for a worker), named and searchable as always.
    const d = await env.temporal.workflow.getHandle(crawlWorkflowId(crawlId)).describe();
    expect(d.status.name).toBe('RUNNING');

    const second = await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST', json: {} });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ code: 'crawl_in_progress', crawlId });

    // Another site's id does not see it.
    const other = await newSite('127.0.0.2');
    expect((await env.request(`/api/sites/${other}/crawls/${crawlId}`)).status).toBe(404);

    // Cancel reaches the workflow, which waits for a worker to record it.
    const cancel = await env.request(`/api/sites/${siteId}/crawls/${crawlId}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(202);
    expect((await env.temporal.workflow.getHandle(crawlWorkflowId(crawlId)).describe()).status.name).toBe('RUNNING');
    await env.temporal.workflow.getHandle(crawlWorkflowId(crawlId)).terminate('test over');
  });

  it('removes the row when the workflow cannot be started: 503 out of reach, 409 already started, 500 refused; nothing is left', async () => {
    const refusing = (error: Error) => ({ ...env.temporal, connection: env.temporal.connection, workflow: { start: async () => Promise.reject(error) } }) as unknown as Client;
    const cases: Array<[Error, number, string]> = [
      [Object.assign(new Error('14 UNAVAILABLE: no connection'), { name: 'ServiceError', cause: Object.assign(new Error('down'), { code: 14 }) }), 503, 'service_unavailable'],
      [new WorkflowExecutionAlreadyStartedError('exists', 'crawl-x', 'CrawlWorkflow'), 409, 'already_started'],
      [Object.assign(new Error('3 INVALID_ARGUMENT: bad search attribute'), { name: 'ServiceError', cause: Object.assign(new Error('bad'), { code: 3 }) }), 500, 'internal_error'],
    ];
    const site = await newSite('127.0.0.4');
    for (const [error, status, code] of cases) {
      const api = await env.startApi({ temporal: refusing(error) });
      try {
        const res = await fetch(`${api.api}/api/sites/${site}/crawl`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        expect(res.status, code).toBe(status);
        expect((await res.json()).code).toBe(code);
        expect(await crawlsOf(site)).toEqual([]);
      } finally {
        await api.close();
      }
    }
    // The site can be crawled afterwards: no row was left to block it.
    const ok = await env.request(`/api/sites/${site}/crawl`, { method: 'POST', json: {} });
    expect(ok.status).toBe(202);
    await env.temporal.workflow.getHandle(crawlWorkflowId((await ok.json()).crawlId)).terminate('test over');
  });

  it('ends a queued crawl whose workflow never started, once it is old enough, so the site can be crawled again', async () => {
    const site = await newSite('127.0.0.5');
    // A row as an API process that stopped between its two steps leaves it: queued, no workflow.
    const orphan = randomUUID();
    expect(await openCrawl(env.db, { crawlId: orphan, siteId: site, maxPages: 5, workflowId: crawlWorkflowId(orphan) })).toEqual({ opened: true });
    // Young, its start may still be under way: the site is busy.
    expect((await env.request(`/api/sites/${site}/crawl`, { method: 'POST', json: {} })).status).toBe(409);
    await env.db.updateTable('crawls').set({ created_at: new Date(Date.now() - 5 * 60_000) }).where('id', '=', orphan).execute();
    const res = await env.request(`/api/sites/${site}/crawl`, { method: 'POST', json: {} });
    expect(res.status).toBe(202);
    const { crawlId } = await res.json();
    const rows = Object.fromEntries((await crawlsOf(site)).map((r) => [r.id, r]));
    expect(rows[orphan]).toMatchObject({ status: 'failed', error: expect.objectContaining({ code: 'not_started' }) });
    expect(rows[crawlId]).toMatchObject({ status: 'queued' });
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
