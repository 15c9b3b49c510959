import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { randomUUID } from 'node:crypto';
import { activeCrawlId, failUnstartedCrawl, findCrawl, findSiteCrawl, isCrawlEnded, listCrawls, openCrawl, removeUnstartedCrawl } from '../../db/repositories/crawl.repository.ts';
import { finalizeCrawl } from '../../db/repositories/finalization.repository.ts';
import { crawlWorkflowId } from '../../shared/search-attributes.ts';
import type { ApiLimits } from '../concurrency.ts';
import type { AppDeps, HonoEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { crawlDto } from '../mappers.ts';
import { rateLimit } from '../middleware.ts';
import { envelope, envelopeSchema, paginationQuery, problemResponses, uuidParam } from '../schemas/common.schema.ts';
import { CrawlSchema, StartCrawlBody, StartedCrawlSchema } from '../schemas/site.schema.ts';
import { cancelWorkflow, crawlWorkflowInput, notRunning, startCrawlWorkflow } from '../temporal.ts';
import { EVENT_STREAM_BOUNDS, eventStream } from './event-stream.ts';
import { jsonContent, requireSite } from './route-helpers.ts';

const SiteParams = z.object({ id: uuidParam('id') });
const CrawlParams = z.object({ id: uuidParam('id'), crawlId: uuidParam('crawlId') });

/** A site's crawls: start one, list them, read one, follow its events, cancel it. */
export function crawlRoutes(deps: AppDeps, limits: ApiLimits) {
  const app = new OpenAPIHono<HonoEnv>();
  const json = jsonContent;
  const siteOr404 = (id: string) => requireSite(deps, id);
  const crawlLimiter = rateLimit({ db: deps.db, config: deps.config, name: 'crawl', limit: deps.config.crawlRateLimit, what: 'crawl starts' });
  app.use('/api/sites/:id/crawl', (c, next) => (c.req.method === 'POST' ? crawlLimiter(c, next) : next()));
  /** The crawl's row: written before its workflow starts, so PostgreSQL alone answers. */
  async function crawlOr404(siteId: string, crawlId: string) {
    await siteOr404(siteId);
    const crawl = await findSiteCrawl(deps.db, siteId, crawlId);
    if (!crawl) throw new ApiError('not_found', `crawl ${crawlId} does not exist for site ${siteId}`);
    return crawl;
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/sites/{id}/crawl',
      tags: ['Crawls'],
      summary: 'Start a crawl of the site',
      description: 'Answers 202 `{crawlId, status: "queued"}`. A site has at most one queued or running crawl: another start is 409 crawl_in_progress with its `crawlId`. Crawl starts are limited per client (CRAWL_RATE_LIMIT an hour, default 20) with the same RateLimit headers and 429 as POST /api/scans. The API writes the crawl (status `queued`) and then starts its workflow, which owns every later change; with no worker running yet the answer is 202 all the same and the crawl stays `queued` until one comes. A start the workflow service refuses or cannot be reached for removes the crawl again (503 `service_unavailable`, 409 `already_started` or 500, nothing written). A crawl written by an API process that stopped before it started the workflow is ended `failed` with error `not_started` by the next start for the site, a minute or more later. A start that loses a race to another one is answered 409 and its crawl is kept as `failed` with error `crawl_in_progress`, so a site never has two crawls under way. `viewports` (default `["desktop"]`) checks each page at each viewport given; an unknown viewport, a width out of range, one given twice, an empty list or more than four are 400 `validation_error`. `reuse` (default true) lets a page whose last audit loaded nothing that changed reuse it without a browser (its activity `reuseUnchangedPage` answers `{reused: true, from}`); `{"reuse": false}` audits every page afresh. In the Temporal UI the workflow is `crawl-<crawlId>`, searchable by `crawlId` and `siteId`.',
      request: { params: SiteParams, body: { content: { 'application/json': { schema: StartCrawlBody(deps.config.maxCrawlPages) } } } },
      responses: { 202: json(StartedCrawlSchema, 'Queued'), ...problemResponses(400, 401, 404, 409, 413, 415, 429, 500, 503) },
    }),
    async (c) => {
      const site = await siteOr404(c.req.valid('param').id);
      const { maxPages, viewports, reuse } = c.req.valid('json');
      // A second crawl is refused at once; a queued one whose workflow never started (its API
      // process stopped between the two steps below) is ended first, or the site would stay blocked.
      const active = await activeCrawlId(deps.db, site.id);
      if (active && !(await endedUnstarted(active))) throw new ApiError('crawl_in_progress', `crawl ${active} of this site is still queued or running`, { extra: { crawlId: active } });
      const crawl = { id: randomUUID() };
      const input = crawlWorkflowInput(deps, { crawlId: crawl.id, siteId: site.id, maxPages: maxPages ?? deps.config.maxCrawlPages, viewports, reuse });
      // The row first (PostgreSQL's one-active-crawl index decides a race), then the workflow,
      // which finds its row written (openCrawl is idempotent) and owns every later change.
      const opened = await openCrawl(deps.db, { crawlId: crawl.id, siteId: site.id, maxPages: input.maxPages, viewports: input.viewports, reuse: input.reuse !== false, workflowId: crawlWorkflowId(crawl.id) });
      if (!opened.opened) {
        // Another start won a race the check above could not see; this crawl's row says so.
        if (opened.reason === 'site_gone') throw new ApiError('not_found', `site ${site.id} does not exist`);
        throw new ApiError('crawl_in_progress', `crawl ${opened.activeCrawlId} of this site is still queued or running`, { extra: { crawlId: opened.activeCrawlId } });
      }
      // A start that fails removes the row: nothing is left behind, and the answer says why (503, 409, 500).
      await startCrawlWorkflow(deps, input, site.hostname, () => removeUnstartedCrawl(deps.db, crawl.id));
      c.header('Location', `/api/sites/${site.id}/crawls/${crawl.id}`);
      return c.json({ crawlId: crawl.id, status: 'queued' as const }, 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/crawls',
      tags: ['Crawls'],
      summary: 'Crawls of the site, newest first',
      request: { params: SiteParams, query: paginationQuery(10) },
      responses: { 200: json(envelopeSchema(CrawlSchema, 'CrawlPage'), 'A page of crawls'), ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const site = await siteOr404(c.req.valid('param').id);
      const page = c.req.valid('query');
      const { rows, total } = await listCrawls(deps.db, site.id, page);
      return c.json(envelope(c.req.url, page, total, rows.map(crawlDto)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/crawls/{crawlId}',
      tags: ['Crawls'],
      summary: 'A crawl, with counters kept current while it runs',
      request: { params: CrawlParams },
      responses: { 200: json(CrawlSchema, 'The crawl'), ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const { id, crawlId } = c.req.valid('param');
      return c.json(crawlDto(await crawlOr404(id, crawlId)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/crawls/{crawlId}/events',
      tags: ['Crawls'],
      summary: "The crawl's progress as server-sent events",
      description:
        'A `text/event-stream`: an `update` event whenever the crawl changes (status, pages found, scanned, enriched, failed, the end), whose `data` is the ' +
        'crawl exactly as GET /api/sites/{id}/crawls/{crawlId} returns it and whose `id` counts the crawl\'s changes; ' +
        'comment lines (`: keep-alive`) every 15 s; the stream ends after the first event with an ended status (`completed`, `completed_partial`, `cancelled`, ' +
        '`failed`). Send `Last-Event-ID` to resume. Any API process serves it (changes come through PostgreSQL). ' +
        EVENT_STREAM_BOUNDS,
      request: { params: CrawlParams },
      responses: { 200: { description: 'The event stream', content: { 'text/event-stream': { schema: z.string() } } }, ...problemResponses(400, 401, 404, 429, 503) },
    }),
    async (c) => {
      const { id, crawlId } = c.req.valid('param');
      await crawlOr404(id, crawlId);
      return eventStream(c, deps, limits, `crawl:${crawlId}`, async () => {
        const crawl = await crawlOr404(id, crawlId);
        // A crawl a Schedule started runs under the Schedule's workflow id, recorded when it opened.
        return { seq: crawl.eventSeq, data: crawlDto(crawl), ended: isCrawlEnded(crawl.status), workflowId: crawl.workflowId ?? crawlWorkflowId(crawlId) };
      });
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/sites/{id}/crawls/{crawlId}/cancel',
      tags: ['Crawls'],
      summary: 'Cancel a queued or running crawl',
      description: 'Answers 202 with the crawl. Discovery and dispatch stop, in-flight page scans stop through their heartbeats, and the crawl is finalized over what was scanned; then its status is `cancelled`. An ended crawl answers 409 already_finished.',
      request: { params: CrawlParams },
      responses: { 202: json(CrawlSchema, 'Cancellation requested'), ...problemResponses(400, 401, 404, 409, 503) },
    }),
    async (c) => {
      const { id, crawlId } = c.req.valid('param');
      const crawl = await crawlOr404(id, crawlId);
      if (isCrawlEnded(crawl.status)) throw new ApiError('already_finished', `crawl ${crawlId} already ended with status ${crawl.status}`);
      // A crawl a Schedule started runs under the Schedule's workflow id, recorded when it opened.
      if (!(await cancelWorkflow(deps, crawl.workflowId ?? crawlWorkflowId(crawlId)))) {
        await finalizeCrawl(deps.db, crawlId, { cancelled: true });
      }
      const now = (await findSiteCrawl(deps.db, id, crawlId)) ?? crawl;
      return c.json(crawlDto(now), 202);
    },
  );

  /**
   * Whether the site's queued or running crawl `crawlId` was written but its workflow never started
   * (or Temporal lost it): then it is ended `failed` with `not_started`. A crawl younger than
   * UNSTARTED_AFTER_MS is left alone: its start may still be under way.
   */
  async function endedUnstarted(crawlId: string): Promise<boolean> {
    const crawl = await findCrawl(deps.db, crawlId);
    if (!crawl || crawl.status !== 'queued' || Date.now() - crawl.createdAt.getTime() < UNSTARTED_AFTER_MS) return false;
    if ((await notRunning(deps, crawl.workflowId ?? crawlWorkflowId(crawlId))) !== 'NOT_FOUND') return false;
    return failUnstartedCrawl(deps.db, crawlId);
  }

  return app;
}

/** A queued crawl this old whose workflow does not exist will never start (a start takes at most a few seconds). */
const UNSTARTED_AFTER_MS = 60_000;
