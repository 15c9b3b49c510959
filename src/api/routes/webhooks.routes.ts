import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  deleteSiteWebhooks,
  findSiteWebhook,
  listSiteWebhooks,
  listWebhookDeliveries,
  putSiteWebhooks,
  type DeliveryRecord,
  type WebhookRecord,
} from '../../db/repositories/webhook.repository.ts';
import { sealWebhookSecret } from '../../security/webhook-seal.ts';
import type { AppDeps, HonoEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { rateLimit } from '../middleware.ts';
import { envelope, envelopeSchema, iso, paginationQuery, problemResponses, uuidParam } from '../schemas/common.schema.ts';
import { PutWebhooksBody, SiteWebhooksSchema, WebhookDeliverySchema } from '../schemas/webhook.schema.ts';
import { jsonContent, requireSecretsKey, requireSite } from './route-helpers.ts';

const SiteParams = z.object({ id: uuidParam('id') });
const tags = ['Webhooks'];

/** How deliveries look, for every webhook route's description. */
export const WEBHOOK_DELIVERY_NOTES =
  'Each delivery is a POST of `{type, timestamp, data}` (`data`: the crawl\u2019s or scan\u2019s ids, status, score, counts and `href`) signed as Standard Webhooks ' +
  'specify: headers `webhook-id` (the delivery\u2019s id, the same on every retry: deduplicate by it), `webhook-timestamp` (Unix seconds) and `webhook-signature` ' +
  '(`v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed with the secret\u2019s base64-decoded bytes after `whsec_`). A 2xx answer delivers it; ' +
  'anything else, a redirect (never followed) or no answer within WEBHOOK_TIMEOUT_MS (default 10 s, the name\u2019s lookup included) is retried with back-off (1 s doubling, at most 10 minutes ' +
  'apart, 10 attempts) as a Temporal workflow `webhook-<deliveryId>` of its own, so the crawl\u2019s end never waits for a receiver. Deliveries run on a task queue of their own ' +
  '(`webhook-delivery`, WEBHOOK_DELIVERY_CONCURRENCY slots per worker), at most WEBHOOK_RECEIVER_CONCURRENCY (default 1) at once per receiver (the URL\u2019s origin) from all ' +
  'workers together; one that finds its receiver busy waits without counting an attempt. A receiver that fails WEBHOOK_RECEIVER_FAILURES times in a row (default 5: no answer, ' +
  'a 5xx, 408 or 429; other answers are about one URL, not the server) is paused for WEBHOOK_RECEIVER_PAUSE_MS (default 1 minute, doubling while its next try fails too, ' +
  'at most an hour): its deliveries wait, with `lastError` saying until when, and are not attempted until one of them gets through. A delivery not sent within 24 hours fails. ' +
  'The URL passes the target policy at every attempt: an address it refuses (a name that turns private, or no longer exists) fails the delivery at once, ' +
  'logged as `forbidden: …`; a lookup that fails for now (EAI_AGAIN, SERVFAIL, a timeout) is an attempt that is retried.';

function webhookDto(w: WebhookRecord, secret: string | null = null) {
  return {
    id: w.id,
    url: w.url,
    events: w.events as Array<'crawl.completed' | 'crawl.failed' | 'crawl.regressed'>,
    newIssuesThreshold: w.newIssuesThreshold,
    scoreDropThreshold: w.scoreDropThreshold,
    secret,
    createdAt: iso(w.createdAt)!,
    updatedAt: iso(w.updatedAt)!,
  };
}

function deliveryDto(d: DeliveryRecord) {
  return {
    id: d.id,
    event: d.event,
    subjectId: d.subjectId,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    createdAt: iso(d.createdAt)!,
    lastAttemptAt: iso(d.lastAttemptAt),
    deliveredAt: iso(d.deliveredAt),
  };
}

/** A site's webhooks (replaced as a list) and each webhook's delivery log. */
export function webhookRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<HonoEnv>();
  const json = jsonContent;
  // Each write resolves every URL and seals secrets: unbounded, one client could churn both.
  const limiter = rateLimit({ db: deps.db, config: deps.config, name: 'webhooks', limit: deps.config.webhookRateLimit, what: 'webhook changes' });
  app.use('/api/sites/:id/webhooks', (c, next) => (c.req.method === 'PUT' ? limiter(c, next) : next()));

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/sites/{id}/webhooks',
      tags,
      summary: "Set or replace the site's webhooks",
      description:
        `At most 10 webhooks, each a URL and its events. A webhook is known by its URL: one the PUT keeps keeps its id, secret (unless a new one is given) and delivery log; ` +
        'one left out is deleted with its log. The secret is write-only: the answer shows it once, for webhooks whose secret this PUT set or generated, and `null` ' +
        'everywhere else; it is stored encrypted with SECRETS_KEY (AES-256-GCM, bound to its webhook), so without one on the server the PUT is 503 `secrets_key_missing` ' +
        '(nothing is written). 201 when the site had none, 200 when replaced. A URL the target policy refuses is `400 forbidden_target`. ' +
        'Limited per client (WEBHOOK_RATE_LIMIT an hour, default 30; every PUT counts) with the same RateLimit headers and 429 `rate_limited` as POST /api/scans. ' +
        `Each webhook\u2019s log keeps its newest WEBHOOK_DELIVERIES_KEPT deliveries (default 100) and every one still pending. ${WEBHOOK_DELIVERY_NOTES}`,
      request: { params: SiteParams, body: { required: true, content: { 'application/json': { schema: PutWebhooksBody } } } },
      responses: { 201: json(SiteWebhooksSchema, 'Created'), 200: json(SiteWebhooksSchema, 'Replaced'), ...problemResponses(400, 401, 404, 413, 415, 429, 503) },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      const body = c.req.valid('json');
      for (const [i, w] of body.webhooks.entries()) {
        const verdict = await deps.policy.check(w.url);
        if (!verdict.allowed) {
          throw new ApiError('forbidden_target', `webhooks.${i}.url: ${verdict.reason}; set ALLOW_PRIVATE_TARGETS=true to send to private networks`);
        }
      }
      const key = requireSecretsKey(deps, 'webhook secrets are');
      const { webhooks, created, secrets } = await putSiteWebhooks(deps.db, site.id, body.webhooks, (id, secret) => sealWebhookSecret(key, id, secret));
      if (created) c.header('Location', `/api/sites/${site.id}/webhooks`);
      return c.json({ siteId: site.id, webhooks: webhooks.map((w) => webhookDto(w, secrets.get(w.id) ?? null)) }, created ? 201 : 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/webhooks',
      tags,
      summary: "The site's webhooks (secrets never shown)",
      description: `The webhooks in the order they were given; an empty list when the site has none. ${WEBHOOK_DELIVERY_NOTES}`,
      request: { params: SiteParams },
      responses: { 200: json(SiteWebhooksSchema, 'The webhooks'), ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      return c.json({ siteId: site.id, webhooks: (await listSiteWebhooks(deps.db, site.id)).map((w) => webhookDto(w)) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/sites/{id}/webhooks',
      tags,
      summary: "Delete the site's webhooks and their logs",
      description: 'Answers 204; deliveries still being retried stop at their next attempt. 404 when the site has none.',
      request: { params: SiteParams },
      responses: { 204: { description: 'Deleted' }, ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const site = await requireSite(deps, c.req.valid('param').id);
      if (!(await deleteSiteWebhooks(deps.db, site.id))) throw new ApiError('not_found', `site ${site.id} has no webhooks`);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sites/{id}/webhooks/{webhookId}/deliveries',
      tags,
      summary: "A webhook's delivery log, newest first",
      description:
        'One row per event sent (or being sent): its status (`pending` while attempts remain, `delivered`, `failed` after the last), attempts, the last answer\u2019s status and the last error ' +
        '(while its receiver is paused: `receiver paused after N consecutive failures until <time>`; a refused address: `forbidden: …`). ' +
        'The newest WEBHOOK_DELIVERIES_KEPT (default 100) are kept, and every pending one; older ones are deleted as new ones are planned or end.',
      request: { params: z.object({ id: uuidParam('id'), webhookId: uuidParam('webhookId') }), query: paginationQuery(20) },
      responses: { 200: json(envelopeSchema(WebhookDeliverySchema, 'WebhookDeliveryPage'), 'A page of deliveries'), ...problemResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const { id, webhookId } = c.req.valid('param');
      const site = await requireSite(deps, id);
      const hook = await findSiteWebhook(deps.db, site.id, webhookId);
      if (!hook) throw new ApiError('not_found', `webhook ${webhookId} does not exist for site ${site.id}`);
      const page = c.req.valid('query');
      const { rows, total } = await listWebhookDeliveries(deps.db, hook.id, page);
      return c.json(envelope(c.req.url, page, total, rows.map(deliveryDto)), 200);
    },
  );

  return app;
}
