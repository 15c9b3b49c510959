import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/shared/webhooks.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';

const ENDED = ['completed', 'completed_partial', 'failed', 'cancelled'];
const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

interface Received {
  path: string;
  headers: { id: string; timestamp: string; signature: string };
  body: string;
  answered: number;
}

/**
 * A receiver as a customer would write one: it answers 500 the first time it sees a delivery id
 * and 200 after, and acts on each id once. It keeps every request it got.
 */
async function startReceiver() {
  const received: Received[] = [];
  const processed = new Map<string, unknown>();
  const seen = new Set<string>();
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const headers = { id: String(req.headers['webhook-id'] ?? ''), timestamp: String(req.headers['webhook-timestamp'] ?? ''), signature: String(req.headers['webhook-signature'] ?? '') };
    if (req.url === '/hooks/moved') {
      // A receiver that moved: the delivery must not follow it.
      received.push({ path: req.url, headers, body, answered: 307 });
      res.writeHead(307, { location: '/hooks/target' }).end();
      return;
    }
    const first = !seen.has(headers.id);
    seen.add(headers.id);
    const answered = first ? 500 : 200;
    if (!first && !processed.has(headers.id)) processed.set(headers.id, JSON.parse(body));
    received.push({ path: req.url ?? '', headers, body, answered });
    res.writeHead(answered).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: (p: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${p}`,
    received,
    processed,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('webhooks: signed deliveries of a crawl\u2019s and a scan\u2019s end', () => {
  let env: TestEnv;
  let site: StaticServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let siteId: string;

  beforeAll(async () => {
    site = await startStaticServer({
      '/': html(`<!doctype html><html lang="en"><head><title>Hooks</title></head><body><main><h1>Hooks</h1><img src="${GIF}" width="20" height="20"><a href="/two">two</a></main></body></html>`),
      '/two': html('<!doctype html><html lang="en"><head><title>Two</title></head><body><main><h1>Two</h1><p>Fine.</p></main></body></html>'),
    });
    receiver = await startReceiver();
    env = await createTestEnv({ env: { PAGE_LOAD_TIMEOUT_MS: '5000', SCAN_RATE_LIMIT: '1000' }, discoveryOptions: { fetchTimeoutMs: 2000 } });
    const res = await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } });
    siteId = (await res.json()).id;
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
    await receiver?.close();
  });

  it('refuses webhooks it could not honour, with the field named', async () => {
    const put = (webhooks: unknown) => env.request(`/api/sites/${siteId}/webhooks`, { method: 'PUT', json: { webhooks } });
    for (const [body, path] of [
      [[{ url: receiver.url('/a'), events: ['crawl.exploded'] }], 'webhooks.0.events.0'],
      [[{ url: receiver.url('/a'), events: [] }], 'webhooks.0.events'],
      [[{ url: 'ftp://example.org/', events: ['crawl.completed'] }], 'webhooks.0.url'],
      [[{ url: receiver.url('/a'), events: ['crawl.completed'] }, { url: receiver.url('/a'), events: ['crawl.failed'] }], 'webhooks.1.url'],
      [[{ url: receiver.url('/a'), events: ['crawl.completed'], secret: 'short' }], 'webhooks.0.secret'],
    ] as const) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const problem = await res.json();
      expect(problem.code).toBe('validation_error');
      expect(problem.errors.map((e: any) => e.path)).toContain(path);
    }
    expect((await env.request(`/api/sites/${siteId}/webhooks`)).status).toBe(200);
    expect((await (await env.request(`/api/sites/${siteId}/webhooks`)).json()).webhooks).toEqual([]);
    expect((await env.request(`/api/sites/${siteId}/webhooks`, { method: 'DELETE' })).status).toBe(404);
  });

  it('delivers crawl.completed and crawl.regressed signed, retries a 500, and logs each delivery once by id', async () => {
    const put = await env.request(`/api/sites/${siteId}/webhooks`, {
      method: 'PUT',
      json: {
        webhooks: [
          { url: receiver.url('/hooks/a11y'), events: ['crawl.completed', 'crawl.regressed', 'crawl.failed'] },
          { url: receiver.url('/hooks/moved'), events: ['crawl.completed'] },
        ],
      },
    });
    expect(put.status).toBe(201);
    const { webhooks } = await put.json();
    expect(webhooks).toHaveLength(2);
    const [hook, moved] = webhooks;
    expect(hook.secret).toMatch(/^whsec_/);
    // Write-only: never shown again; a PUT that keeps the URL keeps the id and the secret.
    expect((await (await env.request(`/api/sites/${siteId}/webhooks`)).json()).webhooks[0]).toMatchObject({ id: hook.id, secret: null });
    const again = await (
      await env.request(`/api/sites/${siteId}/webhooks`, {
        method: 'PUT',
        json: { webhooks: [{ url: receiver.url('/hooks/a11y'), events: ['crawl.completed', 'crawl.regressed', 'crawl.failed'] }, { url: receiver.url('/hooks/moved'), events: ['crawl.completed'] }] },
      })
    ).json();
    expect(again.webhooks.map((w: any) => [w.id, w.secret])).toEqual([
      [hook.id, null],
      [moved.id, null],
    ]);

    const started = await (await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST' })).json();
    const crawl = await pollUntil(
      async () => (await env.request(`/api/sites/${siteId}/crawls/${started.crawlId}`)).json(),
      (c) => ENDED.includes(c.status),
      { timeoutMs: 120_000 },
    );
    expect(crawl.status).toBe('completed');
    expect(crawl.newIssues).toBeGreaterThan(0); // a first crawl: every issue is new, so it regressed too

    // Each event: a 500 first, then a 200 on the retry (back-off from 1 s).
    const log = await pollUntil(
      async () => (await env.request(`/api/sites/${siteId}/webhooks/${hook.id}/deliveries`)).json(),
      (l) => l.data.length === 2 && l.data.every((d: any) => d.status === 'delivered'),
      { timeoutMs: 60_000 },
    );
    expect(log.pagination.total).toBe(2);
    expect(log.data.map((d: any) => d.event).sort()).toEqual(['crawl.completed', 'crawl.regressed']);
    for (const d of log.data) expect(d).toMatchObject({ subjectId: crawl.id, attempts: 2, lastStatusCode: 200, lastError: null });

    const mine = receiver.received.filter((r) => r.path === '/hooks/a11y');
    expect(mine).toHaveLength(4);
    for (const r of mine) {
      // Signed with the secret shown once; the same bytes with another body, or another secret, do not verify.
      expect(verifyWebhook(hook.secret, r.headers, r.body)).toBe(true);
      expect(verifyWebhook(hook.secret, r.headers, r.body.replace('"crawl.', '"crawl.x'))).toBe(false);
      expect(verifyWebhook('whsec_' + Buffer.alloc(24, 7).toString('base64'), r.headers, r.body)).toBe(false);
      expect(verifyWebhook(hook.secret, { ...r.headers, timestamp: String(Number(r.headers.timestamp) - 3600) }, r.body)).toBe(false);
    }
    // Each delivery id came twice (the 500, then the retry) and was acted on once.
    const ids = log.data.map((d: any) => d.id).sort();
    expect([...new Set(mine.map((r) => r.headers.id))].sort()).toEqual(ids);
    expect([...receiver.processed.keys()].filter((id) => ids.includes(id)).sort()).toEqual(ids);
    // A redirect is an answer that failed, never followed: logged, and left to its retries.
    const movedLog = await pollUntil(
      async () => (await env.request(`/api/sites/${siteId}/webhooks/${moved.id}/deliveries`)).json(),
      (l) => l.data.length === 1 && l.data[0].attempts >= 1,
      { timeoutMs: 30_000 },
    );
    expect(movedLog.data[0]).toMatchObject({ event: 'crawl.completed', status: 'pending', lastStatusCode: 307, lastError: 'answered 307 (redirects are not followed)' });
    expect(receiver.received.some((r) => r.path === '/hooks/target')).toBe(false);
    const completed = [...receiver.processed.values()].find((p: any) => p.type === 'crawl.completed') as any;
    expect(completed.data).toMatchObject({ siteId, crawlId: crawl.id, status: 'completed', overallScore: crawl.overallScore, newIssues: crawl.newIssues, href: `/api/sites/${siteId}/crawls/${crawl.id}` });
  });

  it('tells a single-page scan\u2019s webhookUrl that it ended, signed with the secret its answer gave', async () => {
    const res = await env.request('/api/scans', { method: 'POST', json: { url: `${site.origin}/`, webhookUrl: receiver.url('/hooks/scan') } });
    expect(res.status).toBe(202);
    const created = await res.json();
    expect(created.webhookSecret).toMatch(/^whsec_/);
    const delivered = await pollUntil(
      async () => receiver.received.filter((r) => r.path === '/hooks/scan' && r.answered === 200),
      (r) => r.length === 1,
      { timeoutMs: 90_000 },
    );
    const body = JSON.parse(delivered[0]!.body);
    expect(body).toMatchObject({ type: 'scan.completed', data: { scanId: created.id, status: 'completed', href: `/api/scans/${created.id}` } });
    expect(body.data.issues).toBeGreaterThan(0);
    expect(verifyWebhook(created.webhookSecret, delivered[0]!.headers, delivered[0]!.body)).toBe(true);
    // Without a webhookUrl the answer says so; a secret alone is refused.
    const plain = await (await env.request('/api/scans', { method: 'POST', json: { url: `${site.origin}/two` } })).json();
    expect(Object.keys(plain).sort()).toEqual(['createdAt', 'id', 'progress', 'status', 'url']);
    const alone = await env.request('/api/scans', { method: 'POST', json: { url: `${site.origin}/two`, webhookSecret: created.webhookSecret } });
    expect(alone.status).toBe(400);
    // Deleting the site's webhooks takes their logs; the moved receiver's retries end at their next attempt.
    expect((await env.request(`/api/sites/${siteId}/webhooks`, { method: 'DELETE' })).status).toBe(204);
    expect((await (await env.request(`/api/sites/${siteId}/webhooks`)).json()).webhooks).toEqual([]);
  });
});
