import { z } from '@hono/zod-openapi';
import { DEFAULT_REGRESSION, MAX_SITE_WEBHOOKS, SITE_WEBHOOK_EVENTS, WEBHOOK_SECRET_PATTERN } from '../../shared/webhooks.ts';
import { TargetUrl } from './scan.schema.ts';

export const WebhookSecret = z
  .string()
  .regex(WEBHOOK_SECRET_PATTERN, 'a webhook secret is `whsec_` and at least 24 bytes in base64')
  .openapi({ description: 'Standard Webhooks secret: `whsec_` and base64 (at least 24 bytes). Write-only; omitted, one is generated (or kept).', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });

const WebhookUrl = TargetUrl.openapi({
  description: "Where deliveries are POSTed: an absolute http(s) URL that passes the same target policy as scanned sites (no private or loopback address unless ALLOW_PRIVATE_TARGETS). Redirects are never followed.",
  example: 'https://ci.example.com/hooks/a11y',
});

const Webhook = z
  .object({
    url: WebhookUrl,
    events: z
      .array(z.enum(SITE_WEBHOOK_EVENTS, { message: `events are among ${SITE_WEBHOOK_EVENTS.join(', ')}` }))
      .min(1, 'a webhook needs at least one event')
      .refine((e) => new Set(e).size === e.length, 'an event is listed once')
      .openapi({ description: '`crawl.completed` (a crawl ended with results, or was cancelled), `crawl.failed` (not one page could be scanned), `crawl.regressed` (see the thresholds).' }),
    secret: WebhookSecret.optional(),
    newIssuesThreshold: z.number().int().min(1).max(1_000_000).default(DEFAULT_REGRESSION.newIssues).openapi({ description: '`crawl.regressed` when a crawl finds at least this many new issues (default 1) ...' }),
    scoreDropThreshold: z.number().int().min(0).max(100).default(DEFAULT_REGRESSION.scoreDrop).openapi({ description: '... or its score is more than this many points below the crawl before (default 5).' }),
  })
  .strict();

export const PutWebhooksBody = z
  .object({ webhooks: z.array(Webhook).min(1).max(MAX_SITE_WEBHOOKS) })
  .strict()
  .superRefine((b, ctx) => {
    const seen = new Set<string>();
    b.webhooks.forEach((w, i) => {
      if (seen.has(w.url)) ctx.addIssue({ code: 'custom', message: 'another webhook has this URL', path: ['webhooks', i, 'url'] });
      seen.add(w.url);
    });
  })
  .openapi('PutWebhooksRequest');

export type PutWebhooksBody = z.infer<typeof PutWebhooksBody>;

export const WebhookSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(SITE_WEBHOOK_EVENTS)),
    newIssuesThreshold: z.number().int(),
    scoreDropThreshold: z.number().int(),
    secret: z.string().nullable().openapi({ description: 'The signing secret, in the answer to the PUT that set or generated it only; null otherwise (write-only).' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Webhook');

export const SiteWebhooksSchema = z.object({ siteId: z.uuid(), webhooks: z.array(WebhookSchema) }).openapi('SiteWebhooks');

export const WebhookDeliverySchema = z
  .object({
    id: z.uuid().openapi({ description: 'Also the `webhook-id` header of every attempt: receivers deduplicate by it.' }),
    event: z.string(),
    subjectId: z.uuid().openapi({ description: 'The crawl (or scan) the event is about.' }),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    lastAttemptAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
  })
  .openapi('WebhookDelivery');
