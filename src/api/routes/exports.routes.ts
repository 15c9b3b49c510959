import { PassThrough, Readable } from 'node:stream';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { findSiteCrawl } from '../../db/repositories/crawl.repository.ts';
import { findSingleScan } from '../../db/repositories/scan.repository.ts';
import { buildReport, notExportableReason, reportFileName, type ReportSource } from '../../reports/report-data.ts';
import type { Report } from '../../reports/report-model.ts';
import { renderPdf } from '../../reports/render-pdf.ts';
import { renderXlsx } from '../../reports/render-xlsx.ts';
import type { AppDeps, HonoEnv } from '../env.ts';
import { ApiError, validationError } from '../errors.ts';
import { problemResponses, uuidParam } from '../schemas/common.schema.ts';
import { requireSite } from './route-helpers.ts';

const FORMATS = {
  pdf: { contentType: 'application/pdf', render: renderPdf },
  excel: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', render: renderXlsx },
} as const;
type Format = keyof typeof FORMATS;

const FormatQuery = z.object({
  format: z
    .enum(['pdf', 'excel'], { message: 'format must be pdf or excel' })
    .default('pdf')
    .openapi({ param: { name: 'format', in: 'query' }, description: '`pdf` (default) or `excel` (an .xlsx workbook)', example: 'pdf' }),
});

const fileResponse = {
  description:
    'The report as a download (`Content-Disposition: attachment; filename="<hostname>-<scan|crawl>-<yyyy-mm-dd>.<pdf|xlsx>"`, dated by when the scan or crawl ended). ' +
    'The PDF is tagged (PDF/UA structure: headings, tables with header cells, figures with alternative text, artifacts for page furniture) and ' +
    'holds the summary, charts, issues grouped by WCAG criterion and rule with examples, and the pages; the workbook holds every issue ' +
    '(sheets Summary, Issues, Pages, Criteria, and for a crawl New and Fixed since the previous crawl), streamed as it is written. ' +
    'No cell of the workbook that comes from page content starts a formula.',
  content: {
    [FORMATS.pdf.contentType]: { schema: z.string().openapi({ type: 'string', format: 'binary' }) },
    [FORMATS.excel.contentType]: { schema: z.string().openapi({ type: 'string', format: 'binary' }) },
  },
};

const EXPORT_NOTES =
  'A `format` other than `pdf` or `excel` answers 400 with code `invalid_query` (issue 11 names this code; other query ' +
  'parameters keep `validation_error`). Nothing to export yet answers 409 `not_exportable` with the reason (still running, failed with its error, ' +
  'or ended before any page was scanned).';

const exportScan = createRoute({
  method: 'get',
  path: '/api/scans/{id}/export',
  tags: ['Scans (single page)'],
  summary: 'Download a scan report (PDF or Excel)',
  description: `Only a scan in status \`completed\` or \`completed_partial\` has a report. ${EXPORT_NOTES}`,
  request: { params: z.object({ id: uuidParam('id') }), query: FormatQuery },
  responses: { 200: fileResponse, ...problemResponses(400, 401, 404, 409, 503) },
});

const exportCrawl = createRoute({
  method: 'get',
  path: '/api/sites/{id}/crawls/{crawlId}/export',
  tags: ['Crawls'],
  summary: 'Download a crawl report (PDF or Excel)',
  description:
    'A crawl that ended with at least one page scanned (`completed`, `completed_partial`, or `cancelled` after some pages) has a report; ' +
    `New and Fixed list what this crawl changed, exactly what its \`newIssues\` and \`fixedIssues\` count. ${EXPORT_NOTES}`,
  request: { params: z.object({ id: uuidParam('id'), crawlId: uuidParam('crawlId') }), query: FormatQuery },
  responses: { 200: fileResponse, ...problemResponses(400, 401, 404, 409, 503) },
});

let activeExports = 0;
/** Reports being rendered in this process right now (a client that went away leaves none behind). */
export const activeExportCount = () => activeExports;

/** A bad `format` is `invalid_query`; bad path values stay `validation_error`. */
function exportHook(result: { success: boolean; target: string; error?: unknown }): undefined {
  if (result.success) return undefined;
  const err = validationError((result.error as z.ZodError).issues, result.target);
  if (result.target === 'query') throw new ApiError('invalid_query', err.detail, { errors: err.errors });
  throw err;
}

/**
 * Streams a rendered report as the response body. The renderer writes into a pass-through that the
 * response reads, so bytes leave as they are made; when the client goes away the stream closes,
 * the renderer's signal aborts and it stops reading the database.
 */
function streamReport(c: Context<HonoEnv>, deps: AppDeps, report: Report, format: Format): Response {
  const { contentType, render } = FORMATS[format];
  const out = new PassThrough();
  const abort = new AbortController();
  let finished = false;
  out.on('close', () => {
    if (!finished) abort.abort(new DOMException('the client closed the download', 'AbortError'));
  });
  const log = c.get('logger') ?? deps.logger;
  const started = performance.now();
  activeExports++;
  render(report, out, { signal: abort.signal })
    .then(
      () => {
        finished = true;
        log.info({ kind: report.kind, id: report.target.id, format, ms: Math.round(performance.now() - started) }, 'report rendered');
      },
      (err: unknown) => {
        if (abort.signal.aborted) log.info({ kind: report.kind, id: report.target.id, format }, 'report download abandoned by the client');
        else log.error({ err, kind: report.kind, id: report.target.id, format }, 'report rendering failed');
        out.destroy(err instanceof Error ? err : new Error(String(err)));
      },
    )
    .finally(() => {
      activeExports--;
    });
  return c.body(Readable.toWeb(out) as ReadableStream<Uint8Array>, 200, {
    'content-type': contentType,
    'content-disposition': `attachment; filename="${reportFileName(report, format)}"`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
}

async function exportSource(c: Context<HonoEnv>, deps: AppDeps, source: ReportSource, format: Format): Promise<Response> {
  const reason = notExportableReason(source);
  if (reason) throw new ApiError('not_exportable', reason);
  const report = await buildReport(deps.db, source);
  return streamReport(c, deps, report, format);
}

/** PDF and Excel reports of single-page scans and crawls. */
export function exportRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<HonoEnv>();

  app.openapi(
    exportScan,
    async (c) => {
      const { id } = c.req.valid('param');
      const { format } = c.req.valid('query');
      const scan = await findSingleScan(deps.db, id);
      if (!scan) throw new ApiError('not_found', `scan ${id} does not exist`);
      return exportSource(c, deps, { kind: 'scan', scan }, format) as never;
    },
    exportHook,
  );

  app.openapi(
    exportCrawl,
    async (c) => {
      const { id, crawlId } = c.req.valid('param');
      const { format } = c.req.valid('query');
      const site = await requireSite(deps, id);
      const crawl = await findSiteCrawl(deps.db, id, crawlId);
      if (!crawl) throw new ApiError('not_found', `crawl ${crawlId} does not exist for site ${id}`);
      return exportSource(c, deps, { kind: 'crawl', crawl, site }, format) as never;
    },
    exportHook,
  );

  return app;
}
