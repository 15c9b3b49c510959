import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { findIssue, issuesOfPage, listIssuesJson, setIssueStatus } from '../../db/repositories/issue.repository.ts';
import { findPage, listPages, pageScanHistory } from '../../db/repositories/page.repository.ts';
import type { AppDeps, HonoEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { issueDetailDto, issueDto, pageDto, pageScanDto } from '../mappers.ts';
import { jsonContent, jsonText, requireSite } from './route-helpers.ts';
import { envelope, envelopeSchema, envelopeText, paginationQuery, problemResponses, uuidParam } from '../schemas/common.schema.ts';
import { IssueDetailSchema, IssueListQuery, IssueSchema, PageDetailSchema, PageSchema, PatchIssueBody } from '../schemas/site.schema.ts';

const SiteParams = z.object({ id: uuidParam('id') });
const IssuePage = envelopeSchema(IssueSchema, 'IssuePage');

/** Pages and issues of a site. */
export function siteContentRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<HonoEnv>();
  const json = jsonContent;
  const siteOr404 = (id: string) => requireSite(deps, id);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/pages',
      tags: ['Pages'],
      summary: 'Pages of the site by URL, with latest score and open issues per severity',
      description: '`kind=document` lists only the documents (PDFs) the crawls audited, `kind=page` only the HTML pages.',
      request: {
        params: SiteParams,
        query: paginationQuery(50).extend({ kind: z.enum(['page', 'document']).optional().openapi({ description: 'Only HTML pages, or only documents (PDFs).' }) }),
      },
      responses: { 200: json(envelopeSchema(PageSchema, 'PagePage'), 'A page of pages'), ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const site = await siteOr404(c.req.valid('param').id);
      const page = c.req.valid('query');
      const { rows, total } = await listPages(deps.db, site.id, page);
      return c.json(envelope(c.req.url, page, total, rows.map((r) => pageDto(r.page, r.counts))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/pages/{pageId}',
      tags: ['Pages'],
      summary: 'A page with its scan history (newest first) and all its issues',
      request: { params: z.object({ id: uuidParam('id'), pageId: uuidParam('pageId') }) },
      responses: { 200: json(PageDetailSchema, 'The page'), ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const { id, pageId } = c.req.valid('param');
      await siteOr404(id);
      const found = await findPage(deps.db, id, pageId);
      if (!found) throw new ApiError('not_found', `page ${pageId} does not exist for site ${id}`);
      const [scans, issues] = await Promise.all([pageScanHistory(deps.db, pageId), issuesOfPage(deps.db, id, pageId)]);
      return c.json(
        {
          ...pageDto(found.page, found.counts),
          scans: scans.map(pageScanDto),
          issues: issues.map(issueDto),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/issues',
      tags: ['Issues'],
      summary: 'Issues of the site; filters combine',
      description: 'Ordered by severity (critical first), then page URL, then id.',
      request: { params: SiteParams, query: IssueListQuery.extend(paginationQuery(20).shape) },
      responses: { 200: json(IssuePage, 'A page of issues'), ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const q = c.req.valid('query');
      // The items come as JSON from the database (listIssuesJson), in IssueSchema's shape; the
      // site's existence is read in the same statement.
      const list = await listIssuesJson(deps.db, id, q, q);
      if (!list) throw new ApiError('not_found', `site ${id} does not exist`);
      const { json, count, total } = list;
      return jsonText<z.infer<typeof IssuePage>>(c, envelopeText(c.req.url, q, total, count, json), 200);
    },
  );

  const IssueParams = z.object({ id: uuidParam('id'), issueId: uuidParam('issueId') });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/issues/{issueId}',
      tags: ['Issues'],
      summary: 'One issue with its status history',
      request: { params: IssueParams },
      responses: { 200: json(IssueDetailSchema, 'The issue'), ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const { id, issueId } = c.req.valid('param');
      await siteOr404(id);
      const issue = await findIssue(deps.db, id, issueId);
      if (!issue) throw new ApiError('not_found', `issue ${issueId} does not exist for site ${id}`);
      return c.json(issueDetailDto(issue) as z.infer<typeof IssueDetailSchema>, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/api/sites/{id}/issues/{issueId}',
      tags: ['Issues'],
      summary: 'Set an issue open, dismissed or cant_fix',
      description: '`fixed` is set only by a crawl (400). Every change is appended to `statusHistory` with `changedBy: "user"` and the note.',
      request: { params: IssueParams, body: { required: true, content: { 'application/json': { schema: PatchIssueBody } } } },
      responses: { 200: json(IssueDetailSchema, 'The updated issue'), ...problemResponses(400, 401, 404, 413, 415, 503) },
    }),
    async (c) => {
      const { id, issueId } = c.req.valid('param');
      const body = c.req.valid('json');
      await siteOr404(id);
      const issue = await setIssueStatus(deps.db, id, issueId, { status: body.status, note: body.note ?? null });
      if (!issue) throw new ApiError('not_found', `issue ${issueId} does not exist for site ${id}`);
      return c.json(issueDetailDto(issue) as z.infer<typeof IssueDetailSchema>, 200);
    },
  );

  return app;
}
