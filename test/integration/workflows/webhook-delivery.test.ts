import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { WorkflowFailedError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planCrawlDeliveries } from '../../../src/db/repositories/webhook.repository.ts';
import { createTargetPolicy } from '../../../src/security/target-policy.ts';
import { webhookWorkflowId } from '../../../src/shared/search-attributes.ts';
import { verifyWebhook } from '../../../src/shared/webhooks.ts';
import { ensureWorkflowBundle } from '../../../src/workers/workflow-bundle.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../../helpers/test-env.ts';
import { deliverCrawlEnd, deliveryRows, putWebhooks, seedEndedCrawl, seedSite, startReceiver, terminateDeliveries, type Receiver } from '../../helpers/webhook-fixtures.ts';

const dnsError = (code: string, host: string) => Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code });

/**
 * A history file (JSON, as `temporal workflow show --output json` writes it) as a History. The
 * SDK's own historyFromJSON fails here: @temporalio/common and @temporalio/proto each install a copy
 * of protobufjs, and the one's JSON reader refuses the other's types; so read it with @temporalio/proto's.
 */
function historyFromFile(path: string): unknown {
  const fromProto = createRequire(createRequire(import.meta.url).resolve('@temporalio/proto'));
  const { fromJson } = fromProto('protobufjs/ext/protojson') as { fromJson(type: unknown, json: unknown, options?: unknown): unknown };
  const { patchProtobufRoot } = fromProto('@temporalio/proto/lib/patch-protobuf-root') as { patchProtobufRoot(root: unknown): { lookupType(name: string): unknown } };
  const type = patchProtobufRoot(fromProto('@temporalio/proto')).lookupType('temporal.api.history.v1.History');
  return fromJson(type, JSON.parse(readFileSync(path, 'utf8')), { ignoreUnknownFields: true });
}

/**
 * WebhookDeliveryWorkflow on the real workers, database and Temporal, with a loopback receiver
 * and a resolver the test steers (names under `.test` lead to the receiver, or fail as told).
 */
describe('WebhookDeliveryWorkflow', () => {
  let env: TestEnv;
  let receiver: Receiver;
  /** What each name resolves to now: addresses, or a lookup error code. */
  const dns = new Map<string, string[] | string>();

  beforeAll(async () => {
    receiver = await startReceiver();
    const port = new URL(receiver.origin).port;
    const policy = createTargetPolicy({
      allowPrivate: false,
      // The receiver's names may lead to loopback; any other private address is refused.
      allowHosts: [`hooks.test:${port}`, `flaky-dns.test:${port}`],
      resolver: async (host) => {
        const answer = dns.get(host) ?? 'ENOTFOUND';
        if (typeof answer === 'string') throw dnsError(answer, host);
        return answer;
      },
    });
    dns.set('hooks.test', ['127.0.0.1']);
    env = await createTestEnv({ policy, env: { ALLOW_PRIVATE_TARGETS: 'false', WEBHOOK_DELIVERIES_KEPT: '3', WEBHOOK_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await env?.close();
    await receiver?.close();
  });

  it('retries a delivery whose receiver name did not resolve for now (EAI_AGAIN), and delivers it signed', { timeout: 60_000 }, async () => {
    const siteId = await seedSite(env);
    dns.set('flaky-dns.test', ['127.0.0.1']);
    const [hook] = await putWebhooks(env, siteId, [{ url: `http://flaky-dns.test:${new URL(receiver.origin).port}/dns`, events: ['crawl.completed'] }]);
    dns.set('flaky-dns.test', 'EAI_AGAIN');
    const ids = await deliverCrawlEnd(env, await seedEndedCrawl(env, siteId));
    try {
      const [failed] = await pollUntil(() => deliveryRows(env, ids), (r) => r[0]?.attempts === 1, { timeoutMs: 20_000 });
      expect(failed).toMatchObject({ status: 'pending', last_status_code: null, last_error: 'the DNS lookup of flaky-dns.test failed for now (EAI_AGAIN)' });
      dns.set('flaky-dns.test', ['127.0.0.1']);
      const [delivered] = await pollUntil(() => deliveryRows(env, ids), (r) => r[0]?.status !== 'pending', { timeoutMs: 20_000 });
      expect(delivered).toMatchObject({ status: 'delivered', last_status_code: 200, last_error: null });
      expect(delivered!.attempts).toBeGreaterThanOrEqual(2);
      const got = receiver.requests.filter((r) => r.path === '/dns');
      expect(got).toHaveLength(1);
      expect(verifyWebhook(hook!.secret, got[0]!.headers, got[0]!.body)).toBe(true);
    } finally {
      await terminateDeliveries(env, ids);
    }
  });

  it('does not retry an address the target policy refuses, nor a name that does not exist, and logs it as forbidden', { timeout: 60_000 }, async () => {
    const siteId = await seedSite(env);
    // Public when the webhooks are set; private (or gone) when the crawl ends.
    dns.set('rebind.test', ['93.184.216.34']);
    dns.set('vanished.test', ['93.184.216.35']);
    await putWebhooks(env, siteId, [
      { url: 'http://rebind.test/hook', events: ['crawl.completed'] },
      { url: 'http://vanished.test/hook', events: ['crawl.completed'] },
    ]);
    dns.set('rebind.test', ['10.1.2.3']);
    dns.set('vanished.test', 'ENOTFOUND');
    const ids = await deliverCrawlEnd(env, await seedEndedCrawl(env, siteId));
    try {
      for (const id of ids) {
        const handle = env.temporal.workflow.getHandle(webhookWorkflowId(id));
        const err = await handle.result().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(WorkflowFailedError);
        const history = await handle.fetchHistory();
        const tries = (history.events ?? []).filter((e) => e.activityTaskStartedEventAttributes).map((e) => e.activityTaskStartedEventAttributes!.attempt);
        expect(tries).toEqual([1]);
        const failure = (history.events ?? []).find((e) => e.activityTaskFailedEventAttributes)!.activityTaskFailedEventAttributes!.failure!;
        expect(failure.applicationFailureInfo).toMatchObject({ type: 'WebhookTargetForbidden', nonRetryable: true });
      }
      const rows = await deliveryRows(env, ids);
      expect(rows.map((r) => [r.status, r.attempts, r.last_error]).sort()).toEqual([
        ['failed', 1, 'forbidden: rebind.test does not resolve to a public address'],
        ['failed', 1, 'forbidden: vanished.test does not resolve to a public address'],
      ]);
    } finally {
      await terminateDeliveries(env, ids);
    }
  });

  it("keeps each webhook's newest WEBHOOK_DELIVERIES_KEPT deliveries, pruned as deliveries end and as new ones are planned, never a pending one", { timeout: 90_000 }, async () => {
    const siteId = await seedSite(env);
    const [hook] = await putWebhooks(env, siteId, [{ url: receiver.url('/kept').replace('127.0.0.1', 'hooks.test'), events: ['crawl.completed'] }]);
    const logOf = () => env.db.selectFrom('webhook_deliveries').select(['subject_id', 'status']).where('webhook_id', '=', hook!.id).orderBy('created_at').execute();
    const crawls: string[] = [];
    for (let i = 0; i < 5; i++) {
      const crawlId = await seedEndedCrawl(env, siteId);
      crawls.push(crawlId);
      const ids = await deliverCrawlEnd(env, crawlId);
      await pollUntil(() => deliveryRows(env, ids), (r) => r[0]?.status === 'delivered', { timeoutMs: 20_000 });
    }
    // Five delivered, three kept: the newest.
    expect(await logOf()).toEqual(crawls.slice(2).map((c) => ({ subject_id: c, status: 'delivered' })));

    // Planned but not sent yet (no workflow): each planning prunes the ended ones beyond three, never a pending one.
    const planned: string[] = [];
    for (let i = 0; i < 4; i++) {
      const crawlId = await seedEndedCrawl(env, siteId);
      planned.push(crawlId);
      await planCrawlDeliveries(env.db, crawlId, { keep: 3 });
    }
    expect(await logOf()).toEqual(planned.map((c) => ({ subject_id: c, status: 'pending' })));
    // The API lists what is kept.
    const page = await (await env.request(`/api/sites/${siteId}/webhooks/${hook!.id}/deliveries`)).json();
    expect(page.pagination.total).toBe(4);
  });

  it('replays the histories of deliveries recorded before they had their own queue', { timeout: 60_000 }, async () => {
    const workflowBundle = { codePath: await ensureWorkflowBundle('.data/bundles') };
    for (const name of ['delivered', 'forbidden', 'cancelled']) {
      const history = historyFromFile(`test/fixtures/histories/webhook-delivery-${name}.v1.json`);
      await expect(Worker.runReplayHistory({ workflowBundle }, history, `webhook-replay-${name}`)).resolves.toBeUndefined();
    }
  });
});
