/**
 * Webhook activities. Planning the deliveries an ended crawl or scan owes (written once in
 * PostgreSQL, each webhook's log pruned to its newest WEBHOOK_DELIVERIES_KEPT in the same
 * transaction) and giving one up run on the workflows queue beside the other short database
 * activities. Sending runs on `webhook-delivery`, slots of its own (WEBHOOK_DELIVERY_CONCURRENCY),
 * so receivers that hang never hold the slots crawls and scans need.
 *
 * One `deliverWebhook` is one try. It first takes a slot of its receiver (the URL's origin; at most
 * WEBHOOK_RECEIVER_CONCURRENCY in flight from all workers together, leased in PostgreSQL). If the
 * receiver is busy, or paused by its circuit breaker, it hands its activity slot back at once and
 * Temporal runs it again after the wait it names (`nextRetryDelay`: a short, growing wait when busy,
 * the end of the pause when paused): no slot is held while waiting, and waiting is no attempt. An
 * attempt that fails is retried after 1 s, 2 s, 4 s … at most 10 minutes, WEBHOOK_ATTEMPTS attempts
 * counted on the delivery's row (so waits spend none); the last one, a refused address, a secret
 * that does not open, or 24 hours without success ends it as failed. The Temporal retry policy
 * itself is unbounded: the activity decides.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Database } from '../../db/database.ts';
import { acquireReceiverSlot, releaseReceiverSlot, type ReceiverOutcome } from '../../db/repositories/webhook-receiver.repository.ts';
import {
  giveUpDelivery,
  loadDelivery,
  noteDeliveryWait,
  planCrawlDeliveries,
  planScanDeliveries,
  recordDeliveryAttempt,
  sealPlaintextSecret,
  type DeliveryToSend,
} from '../../db/repositories/webhook.repository.ts';
import type { Logger } from '../../logger.ts';
import type { SecretsKey } from '../../security/secrets.ts';
import type { TargetPolicy } from '../../security/target-policy.ts';
import { openWebhookSecret, sealWebhookSecret } from '../../security/webhook-seal.ts';
import { FAILURE_TYPES } from '../../shared/contracts.ts';
import {
  DEFAULT_WEBHOOK_SETTINGS,
  receiverPausedMessage,
  receiverPauseMs,
  receiverUnwell,
  WEBHOOK_ATTEMPTS,
  WEBHOOK_DELIVERY_DEADLINE_MS,
  webhookRetryDelayMs,
  type WebhookSettings,
} from '../../shared/webhook-delivery.ts';
import { webhookHeaders } from '../../shared/webhooks.ts';
import { VERSION } from '../../shared/version.ts';
import { sendWebhook, type SendResult } from './send-webhook.ts';

export interface WebhookActivityDeps {
  db: Database;
  policy: TargetPolicy;
  logger: Logger;
  /** One attempt's limit, name lookup included (WEBHOOK_TIMEOUT_MS). */
  webhookTimeoutMs?: number;
  /** Opens webhooks' sealed secrets (SECRETS_KEY), and seals those written before secrets were sealed. */
  secretsKey?: SecretsKey;
  /** Receivers' limits and breaker, and the log's bound (WEBHOOK_*). */
  webhooks?: WebhookSettings;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** A receiver's slot is held at most this long by an attempt whose worker died; the activity's start-to-close limit. */
export const WEBHOOK_LEASE_MS = 120_000;
const USER_AGENT = `a11y-audit/${VERSION} (webhook)`;

/** The wait of a delivery its receiver keeps busy: from about 0.5 s, growing with each wait, at most about 10 s. */
function busyDelayMs(waits: number): number {
  return Math.round(Math.min(10_000, 500 * 1.5 ** Math.min(Math.max(0, waits), 10)) * (0.75 + Math.random() / 2));
}

export function createWebhookActivities(deps: WebhookActivityDeps) {
  const timeoutMs = deps.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const settings = deps.webhooks ?? DEFAULT_WEBHOOK_SETTINGS;
  const bounds = { keep: settings.deliveriesKept };
  const limits = { limit: settings.receiverConcurrency, failuresToPause: settings.receiverFailures, leaseMs: WEBHOOK_LEASE_MS };
  const breaker = { failuresToPause: settings.receiverFailures, pauseMs: (pauses: number) => receiverPauseMs(settings, pauses) };

  /** Ends a delivery that cannot be sent, and says so to Temporal (no retry). */
  async function giveUp(d: DeliveryToSend, reason: string, type: string): Promise<never> {
    await giveUpDelivery(deps.db, d.id, reason, bounds);
    deps.logger.warn({ deliveryId: d.id, event: d.event, reason }, 'webhook delivery given up');
    throw ApplicationFailure.nonRetryable(`webhook ${d.event} not sent: ${reason}`, type);
  }

  /** The signing secret; a row written before secrets were sealed is sealed now, when this worker has the key. */
  async function secretOf(d: DeliveryToSend): Promise<string | undefined> {
    const key = deps.secretsKey;
    if (d.sealed) {
      if (!key) return undefined;
      try {
        return openWebhookSecret(key, d.webhookId, d.sealed);
      } catch {
        return undefined;
      }
    }
    if (d.plaintextSecret === null) return undefined;
    if (key) await sealPlaintextSecret(deps.db, d.webhookId, d.plaintextSecret, sealWebhookSecret(key, d.webhookId, d.plaintextSecret));
    else deps.logger.warn({ webhookId: d.webhookId }, 'a webhook secret is stored in plaintext: set SECRETS_KEY on the workers to seal it');
    return d.plaintextSecret;
  }

  return {
    /** The deliveries an ended crawl owes its site's webhooks; ids of those still to send. */
    async planCrawlWebhooks(input: { crawlId: string }): Promise<{ deliveries: string[] }> {
      return { deliveries: await planCrawlDeliveries(deps.db, input.crawlId, bounds) };
    },

    /** The delivery an ended single-page scan owes its `webhookUrl`, if any. */
    async planScanWebhooks(input: { scanId: string }): Promise<{ deliveries: string[] }> {
      return { deliveries: await planScanDeliveries(deps.db, input.scanId, bounds) };
    },

    /** Marks a delivery its workflow gave up on (its activity timed out or was cancelled) failed, if still pending. */
    async failWebhookDelivery(input: { deliveryId: string; reason: string }): Promise<{ failed: boolean }> {
      return { failed: await giveUpDelivery(deps.db, input.deliveryId, input.reason, bounds) };
    },

    /**
     * One try at one delivery (see the module's comment). `maxAttempts` comes from workflows started
     * before deliveries had a queue of their own: Temporal bounds those by its attempt count, so
     * their last try ends the delivery whatever keeps it waiting.
     */
    async deliverWebhook(input: { deliveryId: string; maxAttempts?: number }): Promise<{ status: number }> {
      const { attempt } = Context.current().info;
      const d = await loadDelivery(deps.db, input.deliveryId);
      if (!d) throw ApplicationFailure.nonRetryable(`webhook delivery ${input.deliveryId} does not exist (its webhook was deleted)`, FAILURE_TYPES.webhookGone);
      if (d.status !== 'pending') return { status: 0 }; // delivered (or given up) by an earlier try
      const lastTry = input.maxAttempts !== undefined && attempt >= input.maxAttempts;
      if (Date.now() - d.createdAt.getTime() > WEBHOOK_DELIVERY_DEADLINE_MS) {
        return giveUp(d, `not delivered within ${WEBHOOK_DELIVERY_DEADLINE_MS / 3600_000} hours${d.lastError ? ` (last: ${d.lastError})` : ''}`, FAILURE_TYPES.webhookExpired);
      }
      const secret = await secretOf(d);
      if (secret === undefined) {
        const why = deps.secretsKey
          ? "the webhook's secret does not open with this worker's SECRETS_KEY (another key sealed it, or it was altered); set the webhook's secret again"
          : "this worker has no SECRETS_KEY to open the webhook's secret";
        return giveUp(d, why, FAILURE_TYPES.webhookSecretUnavailable);
      }
      const url = new URL(d.url);
      const origin = url.origin;

      const gate = await acquireReceiverSlot(deps.db, origin, d.id, limits);
      if (gate.kind !== 'acquired') {
        const reason = gate.kind === 'paused' ? receiverPausedMessage(gate.failures, gate.until) : `the receiver has ${gate.inFlight} deliveries in flight (at most ${gate.limit})`;
        if (lastTry) {
          await recordDeliveryAttempt(deps.db, d.id, { ok: false, statusCode: null, error: reason, final: true }, bounds);
          throw ApplicationFailure.nonRetryable(`webhook ${d.event} to ${origin}: ${reason}`, FAILURE_TYPES.webhookFailed);
        }
        if (gate.kind === 'paused') {
          await noteDeliveryWait(deps.db, d.id, reason);
          // Spread over a second, so the deliveries held back do not all knock at once.
          const wait = Math.max(0, gate.until.getTime() - Date.now()) + Math.round(Math.random() * 1000);
          throw ApplicationFailure.create({ message: `${origin}: ${reason}`, type: FAILURE_TYPES.webhookReceiverPaused, nextRetryDelay: wait });
        }
        // Temporal's tries not spent on this receiver are waits: each one waits a little longer.
        throw ApplicationFailure.create({ message: `${origin}: ${reason}; waiting`, type: FAILURE_TYPES.webhookReceiverBusy, nextRetryDelay: busyDelayMs(attempt - d.attempts) });
      }

      let result: SendResult | undefined;
      let outcome: ReceiverOutcome = 'untried';
      let paused: { failures: number; until: Date } | undefined;
      try {
        const body = JSON.stringify(d.payload);
        const headers = { ...webhookHeaders(secret, d.id, Math.floor(Date.now() / 1000), body), 'user-agent': USER_AGENT };
        result = await sendWebhook(deps.policy, url, { headers, body }, timeoutMs);
        if (result.kind === 'answered') outcome = receiverUnwell(result.status) ? 'unwell' : 'healthy';
        else if (result.kind !== 'forbidden') outcome = 'unwell';
      } finally {
        paused = await releaseReceiverSlot(deps.db, origin, d.id, outcome, breaker);
      }

      if (result.kind === 'forbidden') {
        await recordDeliveryAttempt(deps.db, d.id, { ok: false, statusCode: null, error: `forbidden: ${result.reason}`, final: true }, bounds);
        deps.logger.warn({ deliveryId: d.id, event: d.event, reason: result.reason }, 'webhook URL refused');
        throw ApplicationFailure.nonRetryable(`webhook URL refused: ${result.reason}`, FAILURE_TYPES.webhookForbidden);
      }
      const status = result.kind === 'answered' ? result.status : null;
      if (status !== null && status >= 200 && status <= 299) {
        await recordDeliveryAttempt(deps.db, d.id, { ok: true, statusCode: status, error: null, final: true }, bounds);
        deps.logger.info({ deliveryId: d.id, event: d.event, status }, 'webhook delivered');
        return { status };
      }
      let error =
        result.kind === 'answered' ? (status! >= 300 && status! < 400 ? `answered ${status} (redirects are not followed)` : `answered ${status}`) : result.error;
      if (paused) {
        error += `; ${receiverPausedMessage(paused.failures, paused.until)}`;
        deps.logger.warn({ origin, failures: paused.failures, until: paused.until }, 'webhook receiver paused');
      }
      const attempts = d.attempts + 1;
      const final = lastTry || attempts >= WEBHOOK_ATTEMPTS;
      await recordDeliveryAttempt(deps.db, d.id, { ok: false, statusCode: status, error, final }, bounds);
      deps.logger.warn({ deliveryId: d.id, event: d.event, status, error, final }, 'webhook delivery attempt failed');
      const message = `webhook ${d.event} to ${origin}: ${error}`;
      const type = result.kind === 'dns' ? FAILURE_TYPES.webhookDnsFailed : FAILURE_TYPES.webhookFailed;
      if (final) throw ApplicationFailure.nonRetryable(`${message} (attempt ${attempts} of ${WEBHOOK_ATTEMPTS}, the last)`, type);
      // After a pause started by this attempt, the next try waits for its end anyway (the gate says so).
      throw ApplicationFailure.create({ message: `${message} (attempt ${attempts} of ${WEBHOOK_ATTEMPTS})`, type, nextRetryDelay: webhookRetryDelayMs(attempts) });
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
