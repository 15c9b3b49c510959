import { PassThrough, Readable } from 'node:stream';
import type { HttpBindings } from '@hono/node-server';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { findSiteCrawl } from '../../db/repositories/crawl.repository.ts';
import { findSingleScan } from '../../db/repositories/scan.repository.ts';
import { buildReport, notExportableReason, reportFileName, type ReportSource } from '../../reports/report-data.ts';
import type { Report } from '../../reports/report-model.ts';
import { renderPdf } from '../../reports/render-pdf.ts';
import { renderXlsx } from '../../reports/render-xlsx.ts';
import { OPENACR_CATALOG, OPENACR_MEDIA_TYPE, renderOpenAcr } from '../../reports/render-openacr.ts';
import type { ApiLimits, Release, Slots } from '../concurrency.ts';
import type { AppDeps, HonoEnv } from '../env.ts';
import { ApiError, validationError } from '../errors.ts';
import { problemResponses, uuidParam } from '../schemas/common.schema.ts';
import { requireSite } from './route-helpers.ts';

const FORMATS = {
  pdf: { contentType: 'application/pdf', render: renderPdf },
  excel: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', render: renderXlsx },
  openacr: { contentType: `${OPENACR_MEDIA_TYPE}; charset=utf-8`, render: renderOpenAcr },
} as const;
type Format = keyof typeof FORMATS;

const FormatQuery = z.object({
  format: z
    .enum(['pdf', 'excel', 'openacr'], { message: 'format must be pdf, excel or openacr' })
    .default('pdf')
    .openapi({
      param: { name: 'format', in: 'query' },
      description: '`pdf` (default), `excel` (an .xlsx workbook) or `openacr` (an Accessibility Conformance Report: OpenACR YAML)',
      example: 'pdf',
    }),
});

const fileResponse = {
  description:
    'The report as a download (`Content-Disposition: attachment; filename="<hostname>-<scan|crawl>-<yyyy-mm-dd>.<pdf|xlsx>"`, dated by when the scan or crawl ended). ' +
    'The PDF is tagged (PDF/UA structure: headings, tables with header cells, figures with alternative text, artifacts for page furniture) and ' +
    'holds the summary, charts, issues grouped by WCAG criterion and rule with examples, and the pages; the workbook holds every issue ' +
    '(sheets Summary, Issues, Pages, Criteria, and for a crawl New and Fixed since the previous crawl), streamed as it is written. ' +
    'Each issue group of the PDF shows its example\u2019s picture (a Figure with alternative text) when one was taken, and the Issues sheet ' +
    'links each pictured issue to its `\u2026/issues/{issueId}/screenshot` URL on this API; issues revealed by an interaction or found at ' +
    'another viewport say so (columns State and Viewport). ' +
    'No cell of the workbook that comes from page content starts a formula. ' +
    `\`openacr\`: GSA's OpenACR (catalogue \`${OPENACR_CATALOG}\`, valid against OpenACR's JSON schema 0.1.0), file \`<hostname>-<scan|crawl>-<yyyy-mm-dd>.openacr.yaml\`. ` +
    'For every WCAG 2.2 A and AA criterion: `does-not-support` where confirmed issues are on every page audited, `partially-supports` where ' +
    'they are on some (both with the count and the worst examples), and `not-evaluated` everywhere else, with the reason (no automated check ' +
    'decides it, or checks found no confirmed failure, which a person must still confirm). `supports` is written only for a criterion whose ' +
    'automated checks decide it in full; no criterion is one today (every check tests a necessary condition, e.g. axe\u2019s `bypass` passes on any ' +
    'page with a heading), so an automated ACR never says `supports`. The catalogue reserves `not-evaluated` for AAA; it is used for A and AA here ' +
    'on purpose: writing `supports` instead would claim what no automated check can know. The report names the pages audited, the engines and their ' +
    'versions, and the date; `author` and `vendor` are left for the publisher (the author\u2019s email is empty). ' +
    'The PDF carries the same table (section \u201cConformance report (ACR)\u201d), and its \u201cWhat works well\u201d lists only criteria the checks ' +
    'decide in full: the rest with nothing found are \u201cNo automated failure\u201d.',
  content: {
    [FORMATS.pdf.contentType]: { schema: z.string().openapi({ type: 'string', format: 'binary' }) },
    [FORMATS.excel.contentType]: { schema: z.string().openapi({ type: 'string', format: 'binary' }) },
    [FORMATS.openacr.contentType]: { schema: z.string().openapi({ type: 'string', description: 'OpenACR YAML' }) },
  },
};

const EXPORT_NOTES =
  'A `format` other than `pdf`, `excel` or `openacr` answers 400 with code `invalid_query` (its own code, so that a client can tell a format the service does not make from a malformed query; other query ' +
  'parameters keep `validation_error`). Nothing to export yet answers 409 `not_exportable` with the reason (still running, failed with its error, ' +
  'or ended before any page was scanned). One API process renders at most EXPORT_CONCURRENCY reports at once (default 4): beyond that 429 ' +
  '`concurrency_limited` with `Retry-After: 5`. A download the client stops reading (bytes wait for it and it takes none for EXPORT_STALL_MS, ' +
  'default 30 s) is ended: the connection is closed mid-body, so the file is incomplete.';

const exportScan = createRoute({
  method: 'get',
  path: '/api/scans/{id}/export',
  tags: ['Scans (single page)'],
  summary: 'Download a scan report (PDF, Excel or OpenACR)',
  description: `Only a scan in status \`completed\` or \`completed_partial\` has a report. ${EXPORT_NOTES}`,
  request: { params: z.object({ id: uuidParam('id') }), query: FormatQuery },
  responses: { 200: fileResponse, ...problemResponses(400, 401, 404, 409, 429, 503) },
});

const exportCrawl = createRoute({
  method: 'get',
  path: '/api/sites/{id}/crawls/{crawlId}/export',
  tags: ['Crawls'],
  summary: 'Download a crawl report (PDF, Excel or OpenACR)',
  description:
    'A crawl that ended with at least one page scanned (`completed`, `completed_partial`, or `cancelled` after some pages) has a report; ' +
    `New and Fixed list what this crawl changed, exactly what its \`newIssues\` and \`fixedIssues\` count. ${EXPORT_NOTES}`,
  request: { params: z.object({ id: uuidParam('id'), crawlId: uuidParam('crawlId') }), query: FormatQuery },
  responses: { 200: fileResponse, ...problemResponses(400, 401, 404, 409, 429, 503) },
});

/** Seconds a client refused an export slot is told to wait: a report usually renders in seconds. */
const EXPORT_RETRY_AFTER_S = 5;

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
 *
 * A client that stays connected but stops reading would otherwise hold the export for ever: the
 * renderer waits on it, and behind the workbook its cursor keeps a pooled connection in an open
 * transaction (ten such clients froze the API). So while bytes wait for the client and it takes
 * none for EXPORT_STALL_MS, the connection is ended and the renderer aborted, which closes the
 * cursor. A renderer that is itself slow (a long query) is not a stall: no bytes wait then.
 * `release` frees the export's slot once the renderer has stopped.
 */
function streamReport(c: Context<HonoEnv>, deps: AppDeps, report: Report, format: Format, release: Release): Response {
  const { contentType, render } = FORMATS[format];
  const out = new PassThrough();
  const abort = new AbortController();
  // Closed before the renderer wrote its last byte: the client went away. (Once it has, the renderer
  // may still be settling while the client reads the rest; that is not an abandoned download.)
  out.on('close', () => {
    if (!out.writableFinished) abort.abort(new DOMException('the client closed the download', 'AbortError'));
  });
  const log = c.get('logger') ?? deps.logger;
  const started = performance.now();
  // The Node response, when served by @hono/node-server (absent under app.request in tests).
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;

  let lastProgress = Date.now();
  const progress = () => {
    lastProgress = Date.now();
  };
  outgoing?.on('drain', progress);
  const stallMs = deps.config.exportStallMs;
  const watch = setInterval(
    () => {
      const waiting = out.readableLength > 0 || out.writableNeedDrain || outgoing?.writableNeedDrain === true;
      if (!waiting) return progress();
      if (Date.now() - lastProgress < stallMs) return;
      stopWatching();
      log.warn({ kind: report.kind, id: report.target.id, format, stallMs }, 'report download stalled: the client read nothing; ending it');
      // Headers are out, so nothing can be said any more: the connection is closed. That cancels the
      // body, which closes `out` and aborts the renderer as when a client goes away (aborting it
      // first would error the body and have the adapter print the error).
      outgoing?.destroy();
      setTimeout(() => out.destroy(), outgoing ? 1000 : 0).unref();
    },
    Math.min(1000, Math.max(50, stallMs / 4)),
  );
  watch.unref();
  const stopWatching = () => {
    clearInterval(watch);
    outgoing?.off('drain', progress);
  };
  // Watched until the last byte has left (the renderer may finish while bytes still wait for the client).
  if (outgoing) outgoing.once('close', stopWatching);
  else out.once('close', stopWatching);

  render(report, out, { signal: abort.signal })
    .then(
      () => {
        log.info({ kind: report.kind, id: report.target.id, format, ms: Math.round(performance.now() - started) }, 'report rendered');
      },
      (err: unknown) => {
        if (abort.signal.aborted) log.info({ kind: report.kind, id: report.target.id, format, reason: String(abort.signal.reason) }, 'report download abandoned');
        else log.error({ err, kind: report.kind, id: report.target.id, format }, 'report rendering failed');
        out.destroy(err instanceof Error ? err : new Error(String(err)));
      },
    )
    .finally(release);
  // Every chunk the response pulls is progress: the client took the one before.
  const body = (Readable.toWeb(out) as ReadableStream<Uint8Array>).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        progress();
        controller.enqueue(chunk);
      },
    }),
  );
  return c.body(body, 200, {
    'content-type': contentType,
    'content-disposition': `attachment; filename="${reportFileName(report, format)}"`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
}

async function exportSource(c: Context<HonoEnv>, deps: AppDeps, slots: Slots, source: ReportSource, format: Format): Promise<Response> {
  const reason = notExportableReason(source);
  if (reason) throw new ApiError('not_exportable', reason);
  // Each export streams from a pooled connection and keeps a core busy: a few at a time per process.
  const release = slots.tryAcquire();
  if (!release) {
    throw new ApiError('concurrency_limited', `this API process renders at most ${slots.max} reports at once (EXPORT_CONCURRENCY); try again shortly`, {
      headers: { 'Retry-After': String(EXPORT_RETRY_AFTER_S) },
    });
  }
  try {
    // The pictures' links in the workbook point at this API, as the client reached it.
    const report = await buildReport(deps.db, source, undefined, { baseUrl: new URL(c.req.url).origin });
    return streamReport(c, deps, report, format, release);
  } catch (err) {
    release();
    throw err;
  }
}

/** PDF, Excel and OpenACR reports of single-page scans and crawls. */
export function exportRoutes(deps: AppDeps, limits: ApiLimits) {
  const app = new OpenAPIHono<HonoEnv>();

  app.openapi(
    exportScan,
    async (c) => {
      const { id } = c.req.valid('param');
      const { format } = c.req.valid('query');
      const scan = await findSingleScan(deps.db, id);
      if (!scan) throw new ApiError('not_found', `scan ${id} does not exist`);
      return exportSource(c, deps, limits.exports, { kind: 'scan', scan }, format);
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
      return exportSource(c, deps, limits.exports, { kind: 'crawl', crawl, site }, format);
    },
    exportHook,
  );

  return app;
}
