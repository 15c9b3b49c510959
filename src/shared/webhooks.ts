/**
 * Webhooks: the events, the payloads, and their signatures, following the Standard Webhooks
 * conventions (https://www.standardwebhooks.com): every delivery carries `webhook-id` (the same on
 * every retry, for idempotent receivers), `webhook-timestamp` (Unix seconds) and
 * `webhook-signature`: `v1,` and the base64 HMAC-SHA256, keyed with the secret's bytes, of
 * `<id>.<timestamp>.<body>`. Secrets are `whsec_` and base64 (24 random bytes when generated).
 * Pure: the API, the activities and the tests share it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SITE_WEBHOOK_EVENTS = ['crawl.completed', 'crawl.failed', 'crawl.regressed'] as const;
export const WEBHOOK_EVENTS = [...SITE_WEBHOOK_EVENTS, 'scan.completed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Webhooks a site may have. */
export const MAX_SITE_WEBHOOKS = 10;
/** `crawl.regressed` by default: any new issue, or the score down by more than 5 points. */
export const DEFAULT_REGRESSION = { newIssues: 1, scoreDrop: 5 } as const;

export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/** The `webhook-signature` value of one delivery attempt. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of one delivery attempt (`timestamp` in Unix seconds). */
export function webhookHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, body),
  };
}

/**
 * What a receiver checks: one of the (space-separated) `v1` signatures matches and the timestamp
 * is within `toleranceSeconds` of `now` (replays of old deliveries are refused).
 */
export function verifyWebhook(
  secret: string,
  headers: { id: string | null | undefined; timestamp: string | null | undefined; signature: string | null | undefined },
  body: string,
  now = Date.now(),
  toleranceSeconds = 300,
): boolean {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, id, Number(timestamp), body).slice(3), 'base64');
  return signature.split(' ').some((s) => {
    if (!s.startsWith('v1,')) return false;
    const got = Buffer.from(s.slice(3), 'base64');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

/** When a crawl counts as a regression for one webhook: new issues at or above, or a score drop above, its thresholds. */
export function isRegression(
  crawl: { newIssues: number | null; overallScore: number | null },
  previousScore: number | null,
  thresholds: { newIssues: number; scoreDrop: number },
): boolean {
  if ((crawl.newIssues ?? 0) >= thresholds.newIssues && (crawl.newIssues ?? 0) > 0) return true;
  return previousScore != null && crawl.overallScore != null && previousScore - crawl.overallScore > thresholds.scoreDrop;
}

/** The crawl events one ended crawl raises for a webhook subscribed to `events`. */
export function crawlEvents(
  crawl: { status: string; newIssues: number | null; overallScore: number | null },
  previousScore: number | null,
  hook: { events: readonly string[]; newIssues: number; scoreDrop: number },
): WebhookEvent[] {
  const out: WebhookEvent[] = [];
  const failed = crawl.status === 'failed';
  if (failed && hook.events.includes('crawl.failed')) out.push('crawl.failed');
  if (!failed && hook.events.includes('crawl.completed')) out.push('crawl.completed');
  if (!failed && hook.events.includes('crawl.regressed') && isRegression(crawl, previousScore, hook)) out.push('crawl.regressed');
  return out;
}
