import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { ScheduleDescription } from '@temporalio/client';
import { crawlsOfWorkflows, crawlTrend } from '../../db/repositories/crawl.repository.ts';
import type { CrawlWorkflowInput } from '../../shared/contracts.ts';
import { crawlViewports } from '../../shared/viewports.ts';
import type { AppDeps, HonoEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { rateLimit } from '../middleware.ts';
import { countsDto } from '../mappers.ts';
import { deleteSchedule, describeSchedule, putSchedule, scheduleId, scheduleProblem } from '../schedules.ts';
import { envelope, envelopeSchema, iso, paginationQuery, problemResponses, uuidParam } from '../schemas/common.schema.ts';
import { PutScheduleBody, ScheduleSchema, TrendPointSchema } from '../schemas/schedule.schema.ts';
import { jsonContent, requireSite } from './route-helpers.ts';

const SiteParams = z.object({ id: uuidParam('id') });

/** Re-crawls on a Temporal Schedule per site, and the site's trend over its crawls. */
export function scheduleRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<HonoEnv>();
  const json = jsonContent;
  // Each write creates or rewrites a Temporal Schedule: unbounded, a client could churn the workflow service.
  const limiter = rateLimit({ db: deps.db, config: deps.config, name: 'schedule', limit: deps.config.scheduleRateLimit, what: 'schedule changes' });
  app.use('/api/sites/:id/schedule', (c, next) => (c.req.method === 'PUT' ? limiter(c, next) : next()));

  async function scheduleDto(siteId: string, d: ScheduleDescription): Promise<z.infer<typeof ScheduleSchema>> {
    const input = (d.action.type === 'startWorkflow' ? d.action.args?.[0] : undefined) as CrawlWorkflowInput | undefined;
    const runs = d.info.recentActions;
    const crawls = await crawlsOfWorkflows(
      deps.db,
      runs.map((r) => r.action.workflow.workflowId),
    );
    const next = d.state.paused ? [] : d.info.nextActionTimes.slice(0, 5).map((t) => iso(t)!);
    return {
      siteId,
      scheduleId: scheduleId(siteId),
      cron: input?.scheduledBy?.cron ?? null,
      every: input?.scheduledBy?.every ?? null,
      timezone: input?.scheduledBy?.timezone ?? null,
      maxPages: input?.maxPages ?? deps.config.maxCrawlPages,
      viewports: crawlViewports(input?.viewports ?? null),
      paused: d.state.paused,
      note: d.state.note ?? null,
      overlap: 'skip',
      nextRunAt: next[0] ?? null,
      nextRuns: next,
      recentRuns: runs.map((r) => ({
        scheduledAt: iso(r.scheduledAt)!,
        startedAt: iso(r.takenAt)!,
        workflowId: r.action.workflow.workflowId,
        crawlId: crawls.get(r.action.workflow.workflowId) ?? null,
      })),
      runsTaken: d.info.numActionsTaken,
      runsSkipped: d.info.numActionsSkippedOverlap,
      createdAt: iso(d.info.createdAt)!,
      updatedAt: iso(d.info.lastUpdatedAt) ?? null,
    };
  }

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/sites/{id}/schedule',
      tags: ['Schedules'],
      summary: "Create or replace the site's re-crawl schedule",
      description:
        'A Temporal Schedule (`crawl-schedule-<siteId>`): visible, pausable and triggerable in the Temporal Web UI. Each run starts a crawl of the site ' +
        'exactly as POST /api/sites/{id}/crawl does (its workflow is `crawl-scheduled-<siteId>-<time>`, searchable by `siteId` and `crawlId`). ' +
        'Overlap policy "skip": a run that comes due while a crawl of the site is still queued or running is not started. ' +
        '201 when it was created, 200 when replaced; a bad `cron`, `every` or `timezone` is 400 `validation_error` naming the field. ' +
        'Limited per client (SCHEDULE_RATE_LIMIT an hour, default 30; every PUT counts) with the same RateLimit headers and 429 as POST /api/scans.',
      request: { params: SiteParams, body: { required: true, content: { 'application/json': { schema: PutScheduleBody(deps.config.maxCrawlPages) } } } },
      responses: { 201: json(ScheduleSchema, 'Created'), 200: json(ScheduleSchema, 'Replaced'), ...problemResponses(400, 401, 404, 413, 415, 429, 503) },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      const body = c.req.valid('json');
      const problem = scheduleProblem(body);
      if (problem) throw new ApiError('validation_error', `${problem.path}: ${problem.message}`, { errors: [problem] });
      const created = await putSchedule(deps, site.id, site.hostname, {
        ...body,
        maxPages: body.maxPages ?? deps.config.maxCrawlPages,
        paused: body.paused ?? false,
      });
      const d = await describeSchedule(deps, site.id);
      if (!d) throw new ApiError('internal_error', 'the schedule was written but cannot be read back');
      if (created) c.header('Location', `/api/sites/${site.id}/schedule`);
      return c.json(await scheduleDto(site.id, d), created ? 201 : 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/schedule',
      tags: ['Schedules'],
      summary: "The site's re-crawl schedule, with its next and recent runs",
      responses: { 200: json(ScheduleSchema, 'The schedule'), ...problemResponses(400, 401, 404, 503) },
      request: { params: SiteParams },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      const d = await describeSchedule(deps, site.id);
      if (!d) throw new ApiError('not_found', `site ${site.id} has no schedule`);
      return c.json(await scheduleDto(site.id, d), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/sites/{id}/schedule',
      tags: ['Schedules'],
      summary: "Delete the site's re-crawl schedule",
      description: 'Answers 204. A crawl the schedule already started goes on. 404 when the site has no schedule.',
      request: { params: SiteParams },
      responses: { 204: { description: 'Deleted' }, ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      if (!(await deleteSchedule(deps, site.id))) throw new ApiError('not_found', `site ${site.id} has no schedule`);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/trend',
      tags: ['Schedules'],
      summary: "The site's score and issues over its crawls, newest first",
      description:
        'One point per crawl that ran and ended (completed, completed_partial, cancelled or failed): its score, the issues it found by severity, and ' +
        'how many were new and fixed against the crawl before. A run a schedule skipped, or that was refused because another crawl was under way, is not a point.',
      request: { params: SiteParams, query: paginationQuery(100) },
      responses: { 200: json(envelopeSchema(TrendPointSchema, 'TrendPage'), 'A page of trend points'), ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      const page = c.req.valid('query');
      const { rows, total } = await crawlTrend(deps.db, site.id, page);
      const points = rows.map((r) => ({
        crawlId: r.id,
        status: r.status,
        completedAt: iso(r.completedAt)!,
        overallScore: r.overallScore,
        scannedPages: r.scannedPages,
        issueCounts: countsDto(r.issueCounts ?? undefined),
        newIssues: r.newIssues,
        fixedIssues: r.fixedIssues,
      }));
      return c.json(envelope(c.req.url, page, total, points), 200);
    },
  );

  return app;
}
