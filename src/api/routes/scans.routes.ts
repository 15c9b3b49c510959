import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { deleteScan, findSingleScan, finishScan, insertSingleScan, listFindings, listSingleScans } from '../../db/repositories/scan.repository.ts';
import { ENDED_SCAN_STATUSES, type ScanStatus } from '../../shared/contracts.ts';
import { scanWorkflowId } from '../../shared/search-attributes.ts';
import type { ApiLimits } from '../concurrency.ts';
import type { AppDeps, HonoEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { clientIp, rateLimit } from '../middleware.ts';
import { envelope, envelopeSchema, paginationQuery, problemResponses, uuidParam } from '../schemas/common.schema.ts';
import { CreatedScanSchema, CreateScanBody, ScanListItemSchema, ScanSchema } from '../schemas/scan.schema.ts';
import { scanDto, scanListItemDto } from '../mappers.ts';
import { EVENT_STREAM_BOUNDS, eventStream } from './event-stream.ts';
import { cancelWorkflow, startScanWorkflow } from '../temporal.ts';
import { insertSingleScanWithWebhook } from '../../db/repositories/webhook.repository.ts';
import { generateWebhookSecret } from '../../shared/webhooks.ts';
import type { SecretsKey } from '../../security/secrets.ts';
import { sealWebhookSecret } from '../../security/webhook-seal.ts';
import { requireSecretsKey } from './route-helpers.ts';


const tags = ['Scans (single page)'];
const IdParams = z.object({ id: uuidParam('id') });

const createScan = createRoute({
  method: 'post',
  path: '/api/scans',
  tags,
  summary: 'Start a single-page scan',
  description:
    'Rate limited to SCAN_RATE_LIMIT (default 10) requests per client IP per hour; every answer carries RateLimit-* headers. ' +
    'With `webhookUrl`, the end of the scan is POSTed there (`scan.completed`), signed with `webhookSecret` (given, or generated and returned once in this answer); ' +
    'the secret is stored encrypted with SECRETS_KEY, so without one on the server such a request is 503 `secrets_key_missing` (nothing is written).',
  request: { body: { required: true, content: { 'application/json': { schema: CreateScanBody } } } },
  responses: {
    202: { description: 'Queued', content: { 'application/json': { schema: CreatedScanSchema } } },
    ...problemResponses(400, 401, 413, 415, 429, 503),
  },
});

const listScans = createRoute({
  method: 'get',
  path: '/api/scans',
  tags,
  summary: 'List scans, newest first',
  request: { query: paginationQuery(20) },
  responses: {
    200: { description: 'A page of scans', content: { 'application/json': { schema: envelopeSchema(ScanListItemSchema, 'ScanPage') } } },
    ...problemResponses(400, 401, 503),
  },
});

const getScan = createRoute({
  method: 'get',
  path: '/api/scans/{id}',
  tags,
  summary: 'A scan: progress while running, results once completed',
  description:
    'A scan is kept SCAN_RETENTION_DAYS (default 30) days after it ended; then it is deleted with its findings and pictures, ' +
    'and this and every route of the scan answer 404 not_found, as for a scan that never existed.',
  request: { params: IdParams },
  responses: {
    200: { description: 'The scan', content: { 'application/json': { schema: ScanSchema } } },
    ...problemResponses(400, 401, 404, 503),
  },
});

const scanEvents = createRoute({
  method: 'get',
  path: '/api/scans/{id}/events',
  tags,
  summary: "The scan's progress as server-sent events",
  description:
    'A `text/event-stream`: an `update` event whenever the scan changes (stage, progress, the end), whose `data` is the scan exactly as GET /api/scans/{id} ' +
    'returns it and whose `id` counts the scan\'s changes; comment lines (`: keep-alive`) every 15 s; the stream ends after the first event with an ended ' +
    'status (`completed`, `completed_partial`, `failed`, `cancelled`). Send `Last-Event-ID` to resume: the current state comes again only if it changed since. ' +
    'Any API process serves it (changes come through PostgreSQL). ' +
    EVENT_STREAM_BOUNDS,
  request: { params: IdParams },
  responses: {
    200: { description: 'The event stream', content: { 'text/event-stream': { schema: z.string() } } },
    ...problemResponses(400, 401, 404, 429, 503),
  },
});

const cancelScan = createRoute({
  method: 'post',
  path: '/api/scans/{id}/cancel',
  tags,
  summary: 'Cancel a queued or running scan',
  description: 'Answers 202 with the scan; its status becomes `cancelled` once the page scan has stopped. An ended scan answers 409 already_finished.',
  request: { params: IdParams },
  responses: {
    202: { description: 'Cancellation requested', content: { 'application/json': { schema: ScanSchema } } },
    ...problemResponses(400, 401, 404, 409, 503),
  },
});

export function scanRoutes(deps: AppDeps, limits: ApiLimits) {
  const app = new OpenAPIHono<HonoEnv>();
  const limiter = rateLimit({ db: deps.db, config: deps.config, name: 'scan', limit: deps.config.scanRateLimit, what: 'requests' });
  app.use('/api/scans', (c, next) => (c.req.method === 'POST' ? limiter(c, next) : next()));

  app.openapi(createScan, async (c) => {
    const { url, webhookUrl, webhookSecret } = c.req.valid('json');
    const verdict = await deps.policy.check(url);
    if (!verdict.allowed) throw new ApiError('forbidden_target', `${verdict.reason}; set ALLOW_PRIVATE_TARGETS=true to scan private networks`);
    let key: SecretsKey | undefined;
    if (webhookUrl) {
      const hook = await deps.policy.check(webhookUrl);
      if (!hook.allowed) throw new ApiError('forbidden_target', `webhookUrl: ${hook.reason}; set ALLOW_PRIVATE_TARGETS=true to send to private networks`);
      key = requireSecretsKey(deps, 'webhook secrets are');
    }
    // The scan and its webhook are written together, and deleted together if the workflow cannot start.
    const secret = webhookUrl ? (webhookSecret ?? generateWebhookSecret()) : null;
    const values = { url, clientIp: clientIp(c, deps.config.trustProxy) };
    const scan =
      webhookUrl && secret && key
        ? await insertSingleScanWithWebhook(deps.db, values, { url: webhookUrl, secret }, (id, plain) => sealWebhookSecret(key, id, plain))
        : await insertSingleScan(deps.db, values);
    await startScanWorkflow(deps, scan, () => deleteScan(deps.db, scan.id));
    c.header('Location', `/api/scans/${scan.id}`);
    return c.json({ id: scan.id, url: scan.url, status: 'queued' as const, progress: 0 as const, createdAt: scan.createdAt.toISOString(), ...(secret ? { webhookSecret: secret } : {}) }, 202);
  });

  app.openapi(listScans, async (c) => {
    const page = c.req.valid('query');
    const { rows, total } = await listSingleScans(deps.db, page);
    return c.json(envelope(c.req.url, page, total, rows.map(scanListItemDto)), 200);
  });

  /** The scan as its GET shows it, with its change count. */
  async function scanView(id: string) {
    const scan = await findSingleScan(deps.db, id);
    if (!scan) throw new ApiError('not_found', `scan ${id} does not exist`);
    const findings = scan.status === 'completed' || scan.status === 'completed_partial' ? await listFindings(deps.db, id) : null;
    return { scan, body: scanDto(scan, findings) as z.infer<typeof ScanSchema> };
  }

  app.openapi(getScan, async (c) => c.json((await scanView(c.req.valid('param').id)).body, 200));

  app.openapi(scanEvents, async (c) => {
    const { id } = c.req.valid('param');
    await scanView(id); // 404 before the stream starts
    return eventStream(c, deps, limits, `scan:${id}`, async () => {
      const { scan, body } = await scanView(id);
      return { seq: scan.eventSeq, data: body, ended: ENDED_SCAN_STATUSES.includes(scan.status), workflowId: scanWorkflowId(id) };
    });
  });

  app.openapi(cancelScan, async (c) => {
    const { id } = c.req.valid('param');
    const scan = await findSingleScan(deps.db, id);
    if (!scan) throw new ApiError('not_found', `scan ${id} does not exist`);
    const ended = (s: string) => ENDED_SCAN_STATUSES.includes(s as ScanStatus);
    if (ended(scan.status)) throw new ApiError('already_finished', `scan ${id} already ended with status ${scan.status}`);
    if (!(await cancelWorkflow(deps, scanWorkflowId(id)))) {
      // The workflow is gone (finished meanwhile, or lost with its server): settle the row here.
      await finishScan(deps.db, id, { status: 'cancelled' });
    }
    const now = await findSingleScan(deps.db, id);
    if (now && ended(now.status) && now.status !== 'cancelled') {
      throw new ApiError('already_finished', `scan ${id} already ended with status ${now.status}`);
    }
    return c.json(scanDto(now ?? scan, null) as z.infer<typeof ScanSchema>, 202);
  });

  return app;
}
