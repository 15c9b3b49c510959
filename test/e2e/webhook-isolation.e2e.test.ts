import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findReceiver } from '../../src/db/repositories/webhook-receiver.repository.ts';
import { webhookWorkflowId } from '../../src/shared/search-attributes.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';
import { deliverCrawlEnd, deliveryRows, putWebhooks, seedEndedCrawl, seedSite, startReceiver, terminateDeliveries, type Receiver } from '../helpers/webhook-fixtures.ts';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';

const ENDED = ['completed', 'completed_partial', 'failed', 'cancelled'];

/**
 * Webhook receivers cannot hold up anyone else: deliveries run on their own task queue, each
 * receiver gets one at a time from every worker process together, and one that keeps failing is
 * paused. Two worker processes: this one's, and a real `npm run worker`.
 */
describe('webhook deliveries: no receiver starves anyone', () => {
  const secretsKey = randomBytes(32).toString('base64');
  // Every worker process of a deployment shares these.
  const settings = { SECRETS_KEY: secretsKey, WEBHOOK_TIMEOUT_MS: '45000', WEBHOOK_RECEIVER_FAILURES: '3', WEBHOOK_RECEIVER_PAUSE_MS: '4000' };
  let env: TestEnv;
  let other: WorkerProcess;
  let site: StaticServer;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    site = await startStaticServer({ '/': html('<!doctype html><html lang="en"><head><title>Fine</title></head><body><main><h1>Fine</h1></main></body></html>') });
    env = await createTestEnv({ env: { ...settings, WEBHOOK_RATE_LIMIT: '1000', SCAN_RATE_LIMIT: '1000', PAGE_LOAD_TIMEOUT_MS: '5000' } });
    other = await startWorkerProcess(env, settings);
    // Both processes poll the delivery queue before any delivery is planned.
    await pollUntil(
      async () => {
        const r = await env.temporal.connection.workflowService.describeTaskQueue({ namespace: 'default', taskQueue: { name: env.queues.webhookDelivery }, taskQueueType: 2 });
        return new Set((r.pollers ?? []).map((p) => p.identity)).size;
      },
      (n) => n >= 2,
      { timeoutMs: 60_000, everyMs: 250 },
    );
  });
  afterAll(async () => {
    await other?.stop();
    await Promise.all(receivers.map((r) => r.close()));
    await env?.close();
    await site?.close();
  });

  it(
    'a receiver that drops packets holds none of the slots scans need, and gets one delivery at a time from both worker processes',
    { timeout: 180_000 },
    async () => {
      const blackhole = await startReceiver(() => 'hang');
      receivers.push(blackhole);
      // Three sites of ten webhooks each on that receiver, each crawl.completed and crawl.regressed:
      // 60 deliveries, more than both processes' workflows-queue slots (2 x 20).
      const deliveries: string[] = [];
      for (let s = 0; s < 3; s++) {
        const siteId = await seedSite(env);
        await putWebhooks(env, siteId, Array.from({ length: 10 }, (_, i) => ({ url: blackhole.url(`/s${s}/h${i}`), events: ['crawl.completed', 'crawl.regressed'] })));
        deliveries.push(...(await deliverCrawlEnd(env, await seedEndedCrawl(env, siteId))));
      }
      expect(deliveries).toHaveLength(60);
      try {
        await pollUntil(async () => blackhole.requests.length, (n) => n >= 1, { timeoutMs: 30_000 });

        // Meanwhile a scan runs from start to end (its workflow's database activities included).
        const started = Date.now();
        const res = await env.request('/api/scans', { method: 'POST', json: { url: `${site.origin}/` } });
        expect(res.status).toBe(202);
        const { id } = await res.json();
        const scan = await pollUntil(async () => (await env.request(`/api/scans/${id}`)).json(), (s) => ENDED.includes(s.status), { timeoutMs: 90_000 });
        expect(scan.status).toBe('completed');
        // Hung deliveries hold each slot they take for WEBHOOK_TIMEOUT_MS (45 s): a scan queued behind them would take longer.
        expect(Date.now() - started).toBeLessThan(25_000);

        // Every delivery's activity is on the webhook-delivery queue, never the workflows queue.
        for (const deliveryId of deliveries.slice(0, 10)) {
          const history = await env.temporal.workflow.getHandle(webhookWorkflowId(deliveryId)).fetchHistory();
          const queues = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes!.taskQueue?.name);
          expect(queues).toEqual([env.queues.webhookDelivery]);
        }
        // One at a time at the receiver (WEBHOOK_RECEIVER_CONCURRENCY 1), though the two processes have 4 delivery slots.
        expect(blackhole.maxInFlight).toBe(1);
        expect((await deliveryRows(env, deliveries)).every((r) => r.status === 'pending')).toBe(true);
      } finally {
        await terminateDeliveries(env, deliveries);
        await blackhole.close();
      }
    },
  );

  it('pauses a receiver that fails again and again, logs the pause on its deliveries, and probes it once the pause is over', { timeout: 120_000 }, async () => {
    let healthy = false;
    const flaky = await startReceiver(() => (healthy ? 200 : 503));
    receivers.push(flaky);
    const siteId = await seedSite(env);
    await putWebhooks(env, siteId, [
      { url: flaky.url('/a'), events: ['crawl.completed'] },
      { url: flaky.url('/b'), events: ['crawl.completed'] },
    ]);
    const deliveries = await deliverCrawlEnd(env, await seedEndedCrawl(env, siteId));
    expect(deliveries).toHaveLength(2);
    try {
      // Three failures in a row (WEBHOOK_RECEIVER_FAILURES) pause it for 4 s (WEBHOOK_RECEIVER_PAUSE_MS).
      const breaker = await pollUntil(() => findReceiver(env.db, flaky.origin), (r) => !!r?.paused_until, { timeoutMs: 30_000 });
      expect(breaker!.consecutive_failures).toBe(3);
      const pausedUntil = breaker!.paused_until!.getTime();
      expect(flaky.requests).toHaveLength(3);
      // Both deliveries say why they wait, with the time.
      const waiting = await pollUntil(
        () => deliveryRows(env, deliveries),
        (rows) => rows.every((r) => r.last_error?.includes(`receiver paused after 3 consecutive failures until ${new Date(pausedUntil).toISOString()}`)),
        { timeoutMs: 15_000 },
      );
      expect(waiting.every((r) => r.status === 'pending')).toBe(true);
      healthy = true;

      const delivered = await pollUntil(() => deliveryRows(env, deliveries), (rows) => rows.every((r) => r.status === 'delivered'), { timeoutMs: 30_000 });
      expect(delivered.map((r) => r.last_error)).toEqual([null, null]);
      // Nothing reached it while it was paused; then one probe, then the other delivery.
      expect(flaky.requests).toHaveLength(5);
      expect(flaky.requests[3]!.at).toBeGreaterThanOrEqual(pausedUntil - 50);
      expect(flaky.requests.slice(3).map((r) => r.answered)).toEqual([200, 200]);
      expect(flaky.maxInFlight).toBe(1);
      // Closed again: a receiver without failures keeps no row.
      expect(await findReceiver(env.db, flaky.origin)).toBeUndefined();
    } finally {
      await terminateDeliveries(env, deliveries);
    }
  });
});
