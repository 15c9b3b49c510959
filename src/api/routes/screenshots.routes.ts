import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { findSingleScan } from '../../db/repositories/scan.repository.ts';
import { scanFindingScreenshot, siteIssueScreenshot, type ScreenshotImage } from '../../db/repositories/screenshot.repository.ts';
import type { AppDeps, HonoEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { problemResponses, uuidParam } from '../schemas/common.schema.ts';
import { requireSite } from './route-helpers.ts';

/** The only image types stored; anything else in the table is never served as such. */
const IMAGE_TYPES = ['image/png', 'image/webp'] as const;

const imageResponse = {
  description:
    'The failing element in its context with the element outlined: a PNG (or WebP) of at most about 40 KB and 800\u00d7600 CSS pixels, ' +
    'taken right after the checks ran on the page\u2019s default state. Sent with `Cache-Control: private, max-age=3600`, `Content-Length` ' +
    'and `X-Content-Type-Options: nosniff`.',
  content: Object.fromEntries(IMAGE_TYPES.map((t) => [t, { schema: z.string().openapi({ type: 'string', format: 'binary' }) }])),
};

const SCREENSHOT_NOTES =
  'Pictures are taken of each single-page scan issue (the first 60 of the page\u2019s default state, most severe first) and, in a crawl, of each ' +
  'issue group\u2019s example (one per group, from the first page scanned that has it, at most SCREENSHOTS_PER_CRAWL per crawl). Issues revealed ' +
  'by an interaction (`state` set), elements that could not be found or pictured within the page\u2019s budget, and all issues while SCREENSHOTS=off ' +
  'have none: 404 `not_found`.';

function sendImage(c: Context<HonoEnv>, img: ScreenshotImage): Response {
  const type = (IMAGE_TYPES as readonly string[]).includes(img.mime) ? img.mime : 'application/octet-stream';
  return c.body(new Uint8Array(img.image), 200, {
    'content-type': type,
    'content-length': String(img.image.length),
    'cache-control': 'private, max-age=3600',
    'x-content-type-options': 'nosniff',
  });
}

/** Pictures of issues: a site issue's, and a single-page scan issue's. */
export function screenshotRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<HonoEnv>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/issues/{issueId}/screenshot',
      tags: ['Issues'],
      summary: 'A picture of the issue: its element in context, outlined',
      description:
        'The picture of the issue\u2019s latest finding, or else the latest one taken of the same issue (same identity) in an earlier crawl of the site. ' +
        `An issue group\u2019s \`example.screenshot\` links here. ${SCREENSHOT_NOTES}`,
      request: { params: z.object({ id: uuidParam('id'), issueId: uuidParam('issueId') }) },
      responses: { 200: imageResponse, ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const { id, issueId } = c.req.valid('param');
      await requireSite(deps, id);
      const img = await siteIssueScreenshot(deps.db, id, issueId);
      if (!img) throw new ApiError('not_found', `issue ${issueId} of site ${id} has no screenshot`);
      return sendImage(c, img);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/scans/{id}/issues/{issueId}/screenshot',
      tags: ['Scans (single page)'],
      summary: 'A picture of a scan issue: its element in context, outlined',
      description: `\`issueId\` is the id of an issue in the scan\u2019s \`issues\`. ${SCREENSHOT_NOTES}`,
      request: { params: z.object({ id: uuidParam('id'), issueId: uuidParam('issueId') }) },
      responses: { 200: imageResponse, ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const { id, issueId } = c.req.valid('param');
      if (!(await findSingleScan(deps.db, id))) throw new ApiError('not_found', `scan ${id} does not exist`);
      const img = await scanFindingScreenshot(deps.db, id, issueId);
      if (!img) throw new ApiError('not_found', `issue ${issueId} of scan ${id} has no screenshot`);
      return sendImage(c, img);
    },
  );

  return app;
}
