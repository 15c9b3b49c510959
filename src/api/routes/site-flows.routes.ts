import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { deleteSiteFlows, findSiteFlows, putSiteFlows, type SiteFlowsRow } from '../../db/repositories/site-flows.repository.ts';
import type { SiteRecord } from '../../db/repositories/records.ts';
import { sealSiteFlows } from '../../security/site-seal.ts';
import { MAX_URL_LENGTH } from '../../shared/limits.ts';
import { flowPageUrl, flowUrlsOf, summarizeSiteFlows, type SiteFlowsSetup, type SiteFlowsSummary } from '../../shared/site-flows.ts';
import type { AppDeps, HonoEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { iso, problemResponses, uuidParam } from '../schemas/common.schema.ts';
import { PutSiteFlowsBody, SiteFlowsSchema } from '../schemas/site-flows.schema.ts';
import { jsonContent, requireOnSite, requireSecretsKey, requireSite } from './route-helpers.ts';

const SiteParams = z.object({ id: uuidParam('id') });

/**
 * A site's scripted flows. Write-only like the authentication set-up: PUT takes the values to
 * type, GET shows the steps' shapes only. The crawl registers one page per flow from the summary,
 * and the page scan opens the sealed flows from the database by site, so no value typed travels
 * through Temporal.
 */
export function siteFlowsRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<HonoEnv>();
  const json = jsonContent;
  const dto = (site: SiteRecord, row: SiteFlowsRow) => ({
    siteId: row.siteId,
    flows: (row.summary as SiteFlowsSummary).flows.map((f) => ({ name: f.name, pageUrl: flowPageUrl(f, site.baseUrl), steps: f.steps, stepTimeoutMs: f.stepTimeoutMs })),
    keyId: row.sealed.keyId,
    updatedAt: iso(row.updatedAt)!,
  });
  const none = (site: SiteRecord) => new ApiError('not_found', `site ${site.id} has no flows`);

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/sites/{id}/flows',
      tags: ['Sites'],
      summary: "Set or replace the site's scripted flows",
      description:
        'Named flows (at most 20, each of 1 to 30 steps as in the login set-up: `goto`, `fill`, `click`, `select`, `press`, `waitFor`) whose end state every ' +
        "crawl of the site audits as a page of its own (`discoveredVia: \"flow\"`, URL `<first goto URL or the site's base URL>#flow:<name>`), e.g. " +
        '"contact form sent empty". A flow starts at its first step when that is a `goto`, else at the site\'s base URL, after the site\'s login if it has one. ' +
        "Every `goto` URL must be on the site's host; names are unique (case-insensitively). A step that fails makes the page a page error `flow_failed` " +
        'naming the step. Values typed or picked (`fill`, `select`) are write-only: stored encrypted with SECRETS_KEY (AES-256-GCM) and never shown again. ' +
        "The answer is the same as GET. 201 when created, 200 when replaced; 503 `secrets_key_missing` when the server has no SECRETS_KEY (nothing is written).",
      request: { params: SiteParams, body: { required: true, content: { 'application/json': { schema: PutSiteFlowsBody } } } },
      responses: { 201: json(SiteFlowsSchema, 'Created'), 200: json(SiteFlowsSchema, 'Replaced'), ...problemResponses(400, 401, 404, 413, 415, 503) },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      const setup = c.req.valid('json') as SiteFlowsSetup;
      requireOnSite(site, flowUrlsOf(setup));
      const tooLong = setup.flows.flatMap((f, i) => (flowPageUrl(f, site.baseUrl).length > MAX_URL_LENGTH ? [{ path: `flows.${i}.name`, message: `the flow's page URL (its first goto URL and #flow:name) would be longer than ${MAX_URL_LENGTH} characters` }] : []));
      if (tooLong.length) throw new ApiError('validation_error', `${tooLong[0]!.path}: ${tooLong[0]!.message}`, { errors: tooLong });
      const key = requireSecretsKey(deps, 'flows are');
      const { row, created } = await putSiteFlows(deps.db, { siteId: site.id, sealed: sealSiteFlows(key, site.id, setup), summary: summarizeSiteFlows(setup) });
      if (created) c.header('Location', `/api/sites/${site.id}/flows`);
      return c.json(dto(site, row), created ? 201 : 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/flows',
      tags: ['Sites'],
      summary: "The site's scripted flows, without any value typed",
      description: "Each flow's name, the URL of its page in crawls and its steps' shapes (a `fill` or `select` step shows `hasValue: true`, never its value). 404 when the site has none.",
      request: { params: SiteParams },
      responses: { 200: json(SiteFlowsSchema, 'The flows, redacted'), ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      const row = await findSiteFlows(deps.db, site.id);
      if (!row) throw none(site);
      return c.json(dto(site, row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/sites/{id}/flows',
      tags: ['Sites'],
      summary: "Delete the site's scripted flows",
      description: "Answers 204; later crawls have no flow pages (the pages of earlier crawls stay). A crawl under way fails its flow pages that are not scanned yet with `flow_failed`. 404 when the site has none.",
      request: { params: SiteParams },
      responses: { 204: { description: 'Deleted' }, ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      if (!(await deleteSiteFlows(deps.db, site.id))) throw none(site);
      return c.body(null, 204);
    },
  );

  return app;
}
