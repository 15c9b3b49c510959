/**
 * How webhook deliveries are paced: attempts and their back-off, each receiver's share and
 * circuit breaker, the log's bound. Pure, without Node imports: the workflows use it too.
 */

/** Attempts per delivery: 1 s, 2 s, 4 s … capped at 10 minutes apart, about 40 minutes in all. */
export const WEBHOOK_ATTEMPTS = 10;
/** A delivery still not sent this long after it was planned gives up (a receiver paused for hours). */
export const WEBHOOK_DELIVERY_DEADLINE_MS = 24 * 3600_000;
/** A receiver's pause doubles each time its probe fails, up to this. */
export const WEBHOOK_MAX_PAUSE_MS = 3600_000;

/** How webhook deliveries share the workers and treat each receiver (WEBHOOK_* settings). */
export interface WebhookSettings {
  /** Webhook-delivery activity slots per worker process. */
  readonly deliveryConcurrency: number;
  /** Deliveries in flight to one receiver (URL origin) at once, across every worker. */
  readonly receiverConcurrency: number;
  /** Consecutive failures after which a receiver is paused (its circuit opens). */
  readonly receiverFailures: number;
  /** The first pause; doubled after each failed probe, at most WEBHOOK_MAX_PAUSE_MS. */
  readonly receiverPauseMs: number;
  /** Delivery log rows kept per webhook beside those still pending. */
  readonly deliveriesKept: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = Object.freeze({
  deliveryConcurrency: 2,
  receiverConcurrency: 1,
  receiverFailures: 5,
  receiverPauseMs: 60_000,
  deliveriesKept: 100,
});

/** The wait after a delivery's `attempts`-th failed attempt: 1 s doubling, at most 10 minutes. */
export function webhookRetryDelayMs(attempts: number): number {
  return Math.min(600_000, 1000 * 2 ** Math.max(0, attempts - 1));
}

/** How long a receiver is paused the `pauses`-th time in a row (1 = its first pause). */
export function receiverPauseMs(settings: Pick<WebhookSettings, 'receiverPauseMs'>, pauses: number): number {
  return Math.min(Math.max(WEBHOOK_MAX_PAUSE_MS, settings.receiverPauseMs), settings.receiverPauseMs * 2 ** Math.max(0, pauses - 1));
}

/**
 * Whether a failed attempt says the receiver itself is unwell (so it counts towards pausing it):
 * no answer at all, a 5xx, 408 or 429. Any other answer (a 404 of a revoked hook, a redirect)
 * is about that URL, not the server, so it leaves the receiver's other webhooks alone: many
 * tenants share a receiver such as a chat service's hook endpoint.
 */
export function receiverUnwell(statusCode: number | null): boolean {
  return statusCode === null || statusCode >= 500 || statusCode === 408 || statusCode === 429;
}

/** The log line of a paused receiver, on each delivery it holds back. */
export function receiverPausedMessage(failures: number, until: Date): string {
  return `receiver paused after ${failures} consecutive failures until ${until.toISOString()}`;
}
