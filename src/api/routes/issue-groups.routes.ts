import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { findSiteCrawl } from '../../db/repositories/crawl.repository.ts';
import { latestEndedCrawlId, listIssueGroups } from '../../db/repositories/issue-group.repository.ts';
import { ISSUE_TYPES, SEVERITIES, WCAG_LEVELS } from '../../shared/contracts.ts';
import type { AppDeps, HonoEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { envelope, envelopeSchema, paginationQuery, problemResponses, uuidParam } from '../schemas/common.schema.ts';
import { WcagCriteriaSchema } from '../schemas/scan.schema.ts';
import { IssueQuery } from '../schemas/site.schema.ts';
import { jsonContent, requireSite } from './route-helpers.ts';

export const IssueGroupSchema = z
  .object({
    groupKey: z.string().openapi({ description: 'Stable across pages and crawls: the rule, the element\u2019s selector path and its HTML shape, not the page URL' }),
    ruleId: z.string(),
    wcagCriterion: z.string(),
    wcagLevel: z.enum(WCAG_LEVELS).openapi({ description: 'The lowest level among `wcagCriteria`' }),
    wcagCriteria: WcagCriteriaSchema,
    severity: z.enum(SEVERITIES).openapi({ description: 'The worst severity among the members' }),
    type: z.enum(ISSUE_TYPES).openapi({ description: '`confirmed` when any member is confirmed' }),
    pages: z.number().int().openapi({ description: 'Pages the group appears on' }),
    elements: z.number().int().openapi({ description: 'Elements (issues) in the group' }),
    example: z
      .object({
        pageUrl: z.string(),
        selector: z.string(),
        html: z.string(),
        issueId: z.string().uuid().nullable().openapi({ description: 'The site issue of the example (`GET /api/sites/{id}/issues/{issueId}`); null while none matches it' }),
        screenshot: z
          .string()
          .nullable()
          .openapi({ description: 'The URL path of the example’s picture (`/api/sites/{id}/issues/{issueId}/screenshot`), or null when it has none', example: '/api/sites/7d0c…/issues/3f1a…/screenshot' }),
      })
      .openapi({ description: 'A member of the group: one with a picture when the group has one' }),
    description: z.string(),
    fixSuggestion: z.string(),
  })
  .openapi('IssueGroup');

const GroupQuery = IssueQuery.extend({
  crawlId: uuidParam('crawlId')
    .optional()
    .openapi({ param: { name: 'crawlId', in: 'query' }, description: 'The crawl whose issues are grouped; default: the site\u2019s latest crawl that ended with results' }),
}).extend(paginationQuery(20).shape);

/** Issues grouped by template: one row per rule and page-template element, across the pages of a crawl. */
export function issueGroupRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<HonoEnv>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/issue-groups',
      tags: ['Issues'],
      summary: 'Issue groups: the same problem on the same element of a page template, counted once',
      description:
        'Groups the issues of a crawl (the latest one that ended with results unless `crawlId` is given) by group key: the same rule on ' +
        'the same element of the same page template (a navigation bar, a footer, a search box repeated on every page). Sorted by severity, ' +
        'then pages affected, then elements. Takes the issue list\u2019s filters; `status` is the site issue\u2019s status. List a group\u2019s ' +
        'members with `GET /api/sites/{id}/issues?groupKey=`. A site with no ended crawl has no groups (an empty list).',
      request: { params: z.object({ id: uuidParam('id') }), query: GroupQuery },
      responses: { 200: jsonContent(envelopeSchema(IssueGroupSchema, 'IssueGroupPage'), 'A page of issue groups'), ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      const q = c.req.valid('query');
      let crawlId = q.crawlId;
      if (crawlId) {
        if (!(await findSiteCrawl(deps.db, site.id, crawlId))) throw new ApiError('not_found', `crawl ${crawlId} does not exist for site ${site.id}`);
      } else {
        crawlId = await latestEndedCrawlId(deps.db, site.id);
      }
      const { rows, total } = crawlId ? await listIssueGroups(deps.db, site.id, crawlId, q, q) : { rows: [], total: 0 };
      const items = rows.map(({ example: { hasScreenshot, ...example }, ...g }) => ({
        ...g,
        example: { ...example, screenshot: hasScreenshot && example.issueId ? `/api/sites/${site.id}/issues/${example.issueId}/screenshot` : null },
      }));
      return c.json(envelope(c.req.url, q, total, items), 200);
    },
  );
  return app;
}
