import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWebhookSecret } from '../../../src/security/webhook-seal.ts';
import { generateWebhookSecret, verifyWebhook } from '../../../src/shared/webhooks.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../../helpers/test-env.ts';
import { startWorkerProcess } from '../../helpers/worker-process.ts';
import { deliverCrawlEnd, deliveryRows, putWebhooks, seedEndedCrawl, seedSite, startReceiver, terminateDeliveries, type Receiver } from '../../helpers/webhook-fixtures.ts';

async function problem(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = await res.json();
  expect(body).toMatchObject({ status, code, type: `/problems/${code.replaceAll('_', '-')}` });
  return body;
}

/** Webhook secrets at rest (sealed with SECRETS_KEY, bound to their webhook) and the PUT's rate limit, on the real API, workers and database. */
describe('webhook secrets and writes', () => {
  let env: TestEnv;
  let receiver: Receiver;
  const secretsKey = randomBytes(32).toString('base64');
  const sealedRow = (id: string) =>
    env.db.selectFrom('webhooks').select(['secret', 'secret_ciphertext', 'secret_iv', 'secret_tag', 'secret_key_id']).where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    receiver = await startReceiver();
    env = await createTestEnv({ env: { SECRETS_KEY: secretsKey, TRUST_PROXY: 'true', WEBHOOK_RATE_LIMIT: '2', SCAN_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await env?.close();
    await receiver?.close();
  });

  it('stores the secret sealed for its webhook only, shows it once, and signs deliveries with it', { timeout: 60_000 }, async () => {
    const siteId = await seedSite(env);
    const [a, b] = await putWebhooks(env, siteId, [
      { url: receiver.url('/sealed/a'), events: ['crawl.completed'] },
      { url: receiver.url('/sealed/b'), events: ['crawl.completed'] },
    ]);
    for (const hook of [a!, b!]) {
      expect(hook.secret).toMatch(/^whsec_/);
      const row = await sealedRow(hook.id);
      expect(row.secret).toBeNull();
      expect(row.secret_key_id).toBe(env.config.secretsKey!.id);
      expect(row.secret_ciphertext!.includes(Buffer.from(hook.secret))).toBe(false);
      expect(row.secret_ciphertext!.includes(Buffer.from(hook.secret.slice(6), 'base64'))).toBe(false);
    }
    expect((await (await env.request(`/api/sites/${siteId}/webhooks`)).json()).webhooks.map((w: { secret: unknown }) => w.secret)).toEqual([null, null]);

    // Signed with the secret shown once.
    let ids = await deliverCrawlEnd(env, await seedEndedCrawl(env, siteId));
    await pollUntil(() => deliveryRows(env, ids), (rows) => rows.length === 2 && rows.every((r) => r.status === 'delivered'), { timeoutMs: 20_000 });
    for (const [hook, path] of [[a!, '/sealed/a'], [b!, '/sealed/b']] as const) {
      const got = receiver.requests.filter((r) => r.path === path);
      expect(got).toHaveLength(1);
      expect(verifyWebhook(hook.secret, got[0]!.headers, got[0]!.body)).toBe(true);
    }

    // A's ciphertext copied onto B does not open there: B's delivery fails without being sent.
    const copied = await sealedRow(a!.id);
    await env.db.updateTable('webhooks').set({ secret_ciphertext: copied.secret_ciphertext, secret_iv: copied.secret_iv, secret_tag: copied.secret_tag }).where('id', '=', b!.id).execute();
    ids = await deliverCrawlEnd(env, await seedEndedCrawl(env, siteId));
    try {
      const rows = await pollUntil(() => deliveryRows(env, ids), (r) => r.length === 2 && r.every((x) => x.status !== 'pending'), { timeoutMs: 20_000 });
      const byHook = new Map(rows.map((r) => [r.webhook_id, r]));
      expect(byHook.get(a!.id)).toMatchObject({ status: 'delivered' });
      expect(byHook.get(b!.id)).toMatchObject({ status: 'failed', attempts: 0 });
      expect(byHook.get(b!.id)!.last_error).toContain("does not open with this worker's SECRETS_KEY");
      expect(receiver.requests.filter((r) => r.path === '/sealed/b')).toHaveLength(1);
      // The workflow's failure says why, in the types of its causes.
      const failure = await env.temporal.workflow.getHandle(`webhook-${byHook.get(b!.id)!.id}`).result().catch((e: unknown) => e);
      const types: string[] = [];
      for (let e = failure as { cause?: unknown; type?: string } | undefined; e; e = e.cause as typeof e) if (e.type) types.push(e.type);
      expect(types).toEqual(['WebhookDeliveryFailed', 'WebhookSecretUnavailable']);
    } finally {
      await terminateDeliveries(env, ids);
    }
  });

  it('without SECRETS_KEY, refuses to store a secret: 503 secrets_key_missing for the PUT and for a scan with a webhookUrl, nothing written', async () => {
    const keyless = await env.startApi({ config: { ...env.config, secretsKey: undefined } });
    try {
      const siteId = await seedSite(env);
      const put = await fetch(`${keyless.api}/api/sites/${siteId}/webhooks`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.40' },
        body: JSON.stringify({ webhooks: [{ url: receiver.url('/nokey'), events: ['crawl.completed'] }] }),
      });
      const body = await problem(put, 503, 'secrets_key_missing');
      expect(body.detail).toContain('webhook secrets are stored encrypted with it');
      expect(await env.db.selectFrom('webhooks').select('id').where('site_id', '=', siteId).execute()).toEqual([]);

      const scans = async () => Number((await env.db.selectFrom('page_scans').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
      const before = await scans();
      const scan = await fetch(`${keyless.api}/api/scans`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url('/page'), webhookUrl: receiver.url('/nokey') }),
      });
      await problem(scan, 503, 'secrets_key_missing');
      expect(await scans()).toBe(before);
    } finally {
      await keyless.close();
    }
  });

  it('seals the secrets an earlier version stored in plaintext: all of them at a worker\u2019s start, and any later one at its first delivery', { timeout: 60_000 }, async () => {
    const siteId = await seedSite(env);
    const key = env.config.secretsKey!;
    // As the previous version wrote them: the secret in plaintext.
    const plain = async (path: string) => {
      const secret = generateWebhookSecret();
      const row = await env.db.insertInto('webhooks').values({ site_id: siteId, url: receiver.url(path), secret, events: ['crawl.completed'] }).returning('id').executeTakeFirstOrThrow();
      return { id: row.id, secret, path };
    };
    const early = await plain('/plain/early');
    // A worker process (`npm run worker`) with the key seals it as it starts.
    const worker = await startWorkerProcess(env, { SECRETS_KEY: secretsKey });
    try {
      await pollUntil(() => sealedRow(early.id), (r) => r.secret === null, { timeoutMs: 60_000, everyMs: 250 });
    } finally {
      await worker.stop();
    }
    let row = await sealedRow(early.id);
    expect(row.secret).toBeNull();
    expect(openWebhookSecret(key, early.id, { ciphertext: row.secret_ciphertext!, iv: row.secret_iv!, tag: row.secret_tag!, keyId: row.secret_key_id! })).toBe(early.secret);

    // Written in plaintext after the worker started (an API of the previous version, mid-upgrade).
    const late = await plain('/plain/late');
    const ids = await deliverCrawlEnd(env, await seedEndedCrawl(env, siteId));
    await pollUntil(() => deliveryRows(env, ids), (rows) => rows.length === 2 && rows.every((r) => r.status === 'delivered'), { timeoutMs: 20_000 });
    for (const hook of [early, late]) {
      const got = receiver.requests.filter((r) => r.path === hook.path);
      expect(got).toHaveLength(1);
      expect(verifyWebhook(hook.secret, got[0]!.headers, got[0]!.body)).toBe(true);
    }
    row = await sealedRow(late.id);
    expect(row.secret).toBeNull();
    expect(openWebhookSecret(key, late.id, { ciphertext: row.secret_ciphertext!, iv: row.secret_iv!, tag: row.secret_tag!, keyId: row.secret_key_id! })).toBe(late.secret);
    expect(await env.db.selectFrom('webhooks').select('id').where('secret', 'is not', null).execute()).toEqual([]);
  });

  it('limits webhook list writes per client (WEBHOOK_RATE_LIMIT) with RateLimit headers and 429 rate_limited, leaving the list as it was', async () => {
    const siteId = await seedSite(env);
    const put = (ip: string, path: string) =>
      fetch(`${env.api}/api/sites/${siteId}/webhooks`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ webhooks: [{ url: receiver.url(path), events: ['crawl.completed'] }] }),
      });
    const first = await put('203.0.113.60', '/limit/1');
    expect(first.status).toBe(201);
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect((await put('203.0.113.60', '/limit/2')).status).toBe(200);
    const limited = await put('203.0.113.60', '/limit/3');
    const body = await problem(limited, 429, 'rate_limited');
    expect(body.detail).toContain('2 webhook changes per hour');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    const list = await (await fetch(`${env.api}/api/sites/${siteId}/webhooks`, { headers: { 'x-forwarded-for': '203.0.113.60' } })).json();
    expect(list.webhooks.map((w: { url: string }) => w.url)).toEqual([receiver.url('/limit/2')]);
    // Another client is not affected.
    expect((await put('203.0.113.61', '/limit/4')).status).toBe(200);
  });
});
