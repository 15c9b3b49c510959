/**
 * Webhook activities, on the workflows queue beside the other short database activities:
 * planning the deliveries an ended crawl or scan owes (written once in PostgreSQL), and sending
 * one delivery. A delivery is one POST: signed (Standard Webhooks), through a connection pinned to
 * the address the target policy vetted (no private address unless allowed, checked again at each
 * attempt), redirects never followed, a short timeout, the answer's body not read. A non-2xx
 * answer or a network error is retried by Temporal with back-off; every attempt is logged on the
 * delivery row, and the last one marks it failed.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { fetch } from 'undici';
import type { Database } from '../../db/database.ts';
import { loadDelivery, planCrawlDeliveries, planScanDeliveries, recordDeliveryAttempt } from '../../db/repositories/webhook.repository.ts';
import type { Logger } from '../../logger.ts';
import { pinnedAgent } from '../../security/pinned-agent.ts';
import type { TargetPolicy } from '../../security/target-policy.ts';
import { FAILURE_TYPES } from '../../shared/contracts.ts';
import { webhookHeaders } from '../../shared/webhooks.ts';
import { VERSION } from '../../shared/version.ts';

export interface WebhookActivityDeps {
  db: Database;
  policy: TargetPolicy;
  logger: Logger;
  /** One attempt's limit (WEBHOOK_TIMEOUT_MS). */
  webhookTimeoutMs?: number;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
const USER_AGENT = `a11y-audit/${VERSION} (webhook)`;

/** Why an attempt failed, in a line: the server's status, or the network's error. */
function networkError(err: unknown): string {
  for (let e: any = err, depth = 0; e && depth < 4; e = e.cause, depth++) {
    if (e.code === 'EFORBIDDEN') return String(e.message);
    if (e.name === 'TimeoutError' || e.code === 'UND_ERR_CONNECT_TIMEOUT' || e.code === 'UND_ERR_HEADERS_TIMEOUT') return 'timed out';
    if (e.code && typeof e.code === 'string' && e.code !== 'UND_ERR_SOCKET' && !e.cause) return `${e.code}: ${String(e.message ?? '').slice(0, 200)}`;
  }
  return String((err as Error)?.message ?? err).slice(0, 300);
}

export function createWebhookActivities(deps: WebhookActivityDeps) {
  const timeoutMs = deps.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  return {
    /** The deliveries an ended crawl owes its site's webhooks; ids of those still to send. */
    async planCrawlWebhooks(input: { crawlId: string }): Promise<{ deliveries: string[] }> {
      return { deliveries: await planCrawlDeliveries(deps.db, input.crawlId) };
    },

    /** The delivery an ended single-page scan owes its `webhookUrl`, if any. */
    async planScanWebhooks(input: { scanId: string }): Promise<{ deliveries: string[] }> {
      return { deliveries: await planScanDeliveries(deps.db, input.scanId) };
    },

    /**
     * One attempt at one delivery. Throws (Temporal retries) unless the receiver answered 2xx;
     * `maxAttempts` is the workflow's retry budget, so the last attempt marks the delivery failed.
     */
    async deliverWebhook(input: { deliveryId: string; maxAttempts: number }): Promise<{ status: number }> {
      const d = await loadDelivery(deps.db, input.deliveryId);
      if (!d) throw ApplicationFailure.nonRetryable(`webhook delivery ${input.deliveryId} does not exist (its webhook was deleted)`, FAILURE_TYPES.webhookGone);
      if (d.status !== 'pending') return { status: 0 }; // delivered (or given up) by an earlier attempt
      const final = Context.current().info.attempt >= input.maxAttempts;
      const verdict = await deps.policy.check(d.url);
      if (!verdict.allowed) {
        await recordDeliveryAttempt(deps.db, d.id, { ok: false, statusCode: null, error: verdict.reason, final: true });
        throw ApplicationFailure.nonRetryable(`webhook URL refused: ${verdict.reason}`, FAILURE_TYPES.webhookForbidden);
      }
      const url = new URL(d.url);
      const body = JSON.stringify(d.payload);
      let status: number | null = null;
      let error: string | null = null;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { ...webhookHeaders(d.secret, d.id, Math.floor(Date.now() / 1000), body), 'user-agent': USER_AGENT },
          body,
          redirect: 'manual',
          dispatcher: pinnedAgent(deps.policy, Number(url.port || (url.protocol === 'https:' ? 443 : 80))),
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = res.status;
        await res.body?.cancel().catch(() => {});
        if (status < 200 || status > 299) error = status >= 300 && status < 400 ? `answered ${status} (redirects are not followed)` : `answered ${status}`;
      } catch (err) {
        error = networkError(err);
      }
      await recordDeliveryAttempt(deps.db, d.id, { ok: error === null, statusCode: status, error, final });
      if (error !== null) {
        deps.logger.warn({ deliveryId: d.id, event: d.event, status, error, final }, 'webhook delivery attempt failed');
        throw ApplicationFailure.retryable(`webhook ${d.event} to ${url.origin}: ${error}`, FAILURE_TYPES.webhookFailed);
      }
      deps.logger.info({ deliveryId: d.id, event: d.event, status }, 'webhook delivered');
      return { status: status! };
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
