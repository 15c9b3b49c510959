import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { deleteSiteAuth, findSiteAuth, putSiteAuth, type SiteAuthRow } from '../../db/repositories/site-auth.repository.ts';
import { sealSiteAuth } from '../../security/site-seal.ts';
import { summarizeSiteAuth, urlsOf, type SiteAuthSetup, type SiteAuthSummary } from '../../shared/site-auth.ts';
import type { AppDeps, HonoEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { iso, problemResponses, uuidParam } from '../schemas/common.schema.ts';
import { PutSiteAuthBody, SiteAuthSchema } from '../schemas/site-auth.schema.ts';
import { jsonContent, requireOnSite, requireSecretsKey, requireSite } from './route-helpers.ts';

const SiteParams = z.object({ id: uuidParam('id') });

/**
 * A site's authentication set-up. Write-only: PUT takes the secrets, GET shows names and shapes
 * only. Workers read and open it from the database by site id, so no secret travels through
 * Temporal.
 */
export function siteAuthRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<HonoEnv>();
  const json = jsonContent;
  const dto = (row: SiteAuthRow) => ({
    siteId: row.siteId,
    ...(row.summary as SiteAuthSummary),
    keyId: row.sealed.keyId,
    updatedAt: iso(row.updatedAt)!,
  });

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/sites/{id}/auth',
      tags: ['Sites'],
      summary: "Set or replace the site's authentication set-up (login-protected sites)",
      description:
        'What crawls of this site send and do to be logged in: extra request `headers`, `cookies` and HTTP `basic` credentials (all sent to the ' +
        "site's own origin only, by the browser and by discovery), and a scripted `login` (steps: `goto`, `fill` a field by selector or label, " +
        '`click`, `select` an option, `press` a key, `waitFor` a URL pattern or an element) with a `loggedIn` check. The login runs once per scan slot\'s browser context and again ' +
        'when a page fails the check; a page that still lands on the login form is a page error `auth_required`. Every URL must be on the ' +
        "site's host. Secrets are write-only: they are stored encrypted with SECRETS_KEY (AES-256-GCM) and never shown again; the answer is " +
        'the same as GET. 201 when created, 200 when replaced; 503 `secrets_key_missing` when the server has no SECRETS_KEY (nothing is written). ' +
        'Single-page scans (POST /api/scans) do not use it.',
      request: { params: SiteParams, body: { required: true, content: { 'application/json': { schema: PutSiteAuthBody } } } },
      responses: { 201: json(SiteAuthSchema, 'Created'), 200: json(SiteAuthSchema, 'Replaced'), ...problemResponses(400, 401, 404, 413, 415, 503) },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      const setup = c.req.valid('json') as SiteAuthSetup;
      requireOnSite(site, urlsOf(setup));
      const key = requireSecretsKey(deps, 'authentication set-ups are');
      const { row, created } = await putSiteAuth(deps.db, { siteId: site.id, sealed: sealSiteAuth(key, site.id, setup), summary: summarizeSiteAuth(setup) });
      if (created) c.header('Location', `/api/sites/${site.id}/auth`);
      return c.json(dto(row), created ? 201 : 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/auth',
      tags: ['Sites'],
      summary: "The site's authentication set-up, without any secret",
      description: 'Header and cookie names, the basic-auth user name, the login steps\' shapes (a `fill` step shows `hasValue: true`, never its value). 404 when the site has none.',
      request: { params: SiteParams },
      responses: { 200: json(SiteAuthSchema, 'The set-up, redacted'), ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      const row = await findSiteAuth(deps.db, site.id);
      if (!row) throw new ApiError('not_found', `site ${site.id} has no authentication set-up`);
      return c.json(dto(row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/sites/{id}/auth',
      tags: ['Sites'],
      summary: "Delete the site's authentication set-up",
      description: 'Answers 204; later crawls run logged out. 404 when the site has none.',
      request: { params: SiteParams },
      responses: { 204: { description: 'Deleted' }, ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      if (!(await deleteSiteAuth(deps.db, site.id))) throw new ApiError('not_found', `site ${site.id} has no authentication set-up`);
      return c.body(null, 204);
    },
  );

  return app;
}
