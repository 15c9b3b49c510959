import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { latestCrawl } from '../../db/repositories/crawl.repository.ts';
import { countOpenIssues, listSites, upsertSite } from '../../db/repositories/site.repository.ts';
import { siteHostname } from '../../shared/urls.ts';
import type { AppDeps, HonoEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { rateLimit } from '../middleware.ts';
import { latestCrawlDto, siteDto } from '../mappers.ts';
import { jsonContent, requireSite } from './route-helpers.ts';
import { problemResponses, uuidParam } from '../schemas/common.schema.ts';
import { CreateSiteBody, SiteDetailSchema, SiteSchema } from '../schemas/site.schema.ts';

const SiteParams = z.object({ id: uuidParam('id') });

export function siteRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<HonoEnv>();
  const json = jsonContent;
  const siteOr404 = (id: string) => requireSite(deps, id);
  // Each creation resolves a host name and may write a row: unbounded, a client could fill the table.
  const siteLimiter = rateLimit({ db: deps.db, config: deps.config, name: 'site', limit: deps.config.siteRateLimit, what: 'site creations' });
  app.use('/api/sites', (c, next) => (c.req.method === 'POST' ? siteLimiter(c, next) : next()));

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/sites',
      tags: ['Sites'],
      summary: 'Add a site (or get the one of that host name)',
      description:
        'A site is identified by its lower-cased host name (IDN as punycode). 201 with a new site, 200 with the existing one; `baseUrl` keeps the scheme, host and port first given. ' +
        'Limited per client (SITE_RATE_LIMIT an hour, default 60; every request counts, also one that finds the site existing) with the same RateLimit headers and 429 as POST /api/scans.',
      request: { body: { required: true, content: { 'application/json': { schema: CreateSiteBody } } } },
      responses: { 201: json(SiteSchema, 'Created'), 200: json(SiteSchema, 'Existing site'), ...problemResponses(400, 401, 413, 415, 429, 503) },
    }),
    async (c) => {
      const { url } = c.req.valid('json');
      const verdict = await deps.policy.check(url);
      if (!verdict.allowed) throw new ApiError('forbidden_target', `${verdict.reason}; set ALLOW_PRIVATE_TARGETS=true to audit private networks`);
      const { site, created } = await upsertSite(deps.db, { hostname: siteHostname(url), baseUrl: `${new URL(url).origin}/` });
      if (created) c.header('Location', `/api/sites/${site.id}`);
      return c.json(siteDto(site), created ? 201 : 200);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/api/sites', tags: ['Sites'], summary: 'All sites, by host name (not paginated)', responses: { 200: json(z.array(SiteSchema), 'Sites'), ...problemResponses(401, 503) } }),
    async (c) => c.json((await listSites(deps.db)).map(siteDto), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}',
      tags: ['Sites'],
      summary: 'A site with its latest crawl and open issue count',
      request: { params: SiteParams },
      responses: { 200: json(SiteDetailSchema, 'The site'), ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const site = await siteOr404(c.req.valid('param').id);
      const [latest, openIssues] = await Promise.all([latestCrawl(deps.db, site.id), countOpenIssues(deps.db, site.id)]);
      return c.json({ ...siteDto(site), latestCrawl: latest ? latestCrawlDto(latest) : null, openIssues }, 200);
    },
  );

  return app;
}
