import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetPolicy } from '../../../src/security/target-policy.ts';
import { crawlWorkflowId } from '../../../src/shared/search-attributes.ts';
import { rawRequest, type RawResponse } from '../../helpers/raw-http.ts';
import { seedCrawlReport } from '../../support/seed-report.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../../helpers/test-env.ts';

function expectRawProblem(res: RawResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json');
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.body).toMatchObject({ status, code, type: `/problems/${code.replaceAll('_', '-')}`, title: expect.any(String), detail: expect.any(String) });
}

async function problem(res: Response, status: number, code: string) {
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.headers.get('x-request-id')).toBeTruthy();
  const body = await res.json();
  expect(body).toMatchObject({ status, code, type: `/problems/${code.replaceAll('_', '-')}` });
  expect(res.status).toBe(status);
  return body;
}

/** A request with the headers given, Host included (fetch may not set Host; http.request may). */
function hostRequest(api: string, path: string, opts: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(api);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method: opts.method ?? 'GET', headers: opts.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
        resolve({ status: res.statusCode ?? 0, headers, body: headers['content-type']?.includes('json') ? JSON.parse(text) : text, raw: text });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

interface SseEvent {
  id?: string;
  event?: string;
  retry?: number;
  data: any;
}

/** Follows an event stream as it comes: `next()` is the next event, or undefined once the server ended the stream. */
async function openEvents(url: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const reader = res.ok ? res.body!.getReader() : undefined;
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    res,
    async next(): Promise<SseEvent | undefined> {
      for (;;) {
        const split = buffer.indexOf('\n\n');
        if (split >= 0) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          const ev: SseEvent = { data: undefined };
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) ev.id = line.slice(4);
            else if (line.startsWith('event: ')) ev.event = line.slice(7);
            else if (line.startsWith('retry: ')) ev.retry = Number(line.slice(7));
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (!data.length) continue; // the opening retry, keep-alive comments
          ev.data = JSON.parse(data.join('\n'));
          return ev;
        }
        const { done, value } = await reader!.read();
        if (done) return undefined;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    close: () => abort.abort(),
  };
}

/** Resolves with `p`, or rejects once `ms` have passed. */
const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms))]);

const chunk = (data: string) => `${Buffer.byteLength(data).toString(16)}\r\n${data}\r\n`;

describe('API hardening: every answer is problem+json', () => {
  let env: TestEnv;
  let siteId: string;
  let issuePath: string;
  beforeAll(async () => {
    env = await createTestEnv({ env: { ALLOW_PRIVATE_TARGETS: 'false', SCAN_RATE_LIMIT: '1000' }, workers: false });
    siteId = (await seedCrawlReport(env.db, { pages: 1, issuesPerPage: 2 })).siteId;
    const issues = await (await env.request(`/api/sites/${siteId}/issues?status=open&limit=1`)).json();
    issuePath = `/api/sites/${siteId}/issues/${issues.data[0].id}`;
  });
  afterAll(async () => env?.close());

  const history = async () => (await (await env.request(issuePath)).json()).statusHistory;

  describe('requests Node refuses before any route', () => {
    it('answers a 64 KB header with 431 problem+json', async () => {
      const res = await rawRequest(env.api, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
      expectRawProblem(res, 431, 'headers_too_large');
      expect(res.headers.connection).toBe('close');
      expect(res.body.requestId).toBe(res.headers['x-request-id']);
    });

    it('answers a 20 KB request path with 431 too: the request line counts toward the header limit', async () => {
      const res = await rawRequest(env.api, `GET /api/scans/${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      expectRawProblem(res, 431, 'headers_too_large');
    });

    it('answers raw non-ASCII bytes in the request line with 400 bad_request', async () => {
      const request = Buffer.concat([Buffer.from('GET /api/scans/caf'), Buffer.from([0xc3, 0xa9]), Buffer.from(' HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')]);
      expectRawProblem(await rawRequest(env.api, request), 400, 'bad_request');
    });

    it.each([
      ['a backslash in the path', 'GET /api/sites/..\\..\\etc\\passwd/crawls HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
      ['a lone backslash', 'GET /\\ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
      ['a target that is neither a path nor a URL', 'GET * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
      ['no Host header', 'GET /healthz HTTP/1.1\r\n\r\n'],
      ['a Host that is not a host name', 'GET /healthz HTTP/1.1\r\nHost: a\\b\r\n\r\n'],
      ['CONNECT', 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n'],
    ])('answers a request the HTTP adapter refuses (%s) with 400 bad_request', async (_name, request) => {
      const res = await rawRequest(env.api, request);
      expectRawProblem(res, 400, 'bad_request');
      expect(res.body.requestId).toBe(res.headers['x-request-id']);
    });

    it("echoes the client's X-Request-Id on an answer the adapter makes", async () => {
      const res = await rawRequest(env.api, 'GET /a\\b HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: trace-42\r\n\r\n');
      expect(res.status).toBe(400);
      expect(res.headers['x-request-id']).toBe('trace-42');
    });

    it('still answers a well-formed request on the same server', async () => {
      const res = await rawRequest(env.api, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    });
  });

  describe('required bodies', () => {
    it.each([
      ['no body and no content type', {}],
      ['an empty JSON body', { headers: { 'content-type': 'application/json' }, body: '' }],
    ])('PATCH of an issue with %s is 400 validation_error naming status, and changes nothing', async (_name, init) => {
      const before = await history();
      const body = await problem(await env.request(issuePath, { method: 'PATCH', ...init }), 400, 'validation_error');
      expect(body.errors.map((e: { path: string }) => e.path)).toEqual(['status']);
      expect(await history()).toEqual(before);
    });

    it.each([
      ['no body and no content type', {}],
      ['an empty JSON body', { headers: { 'content-type': 'application/json' }, body: '' }],
    ])('POST /api/scans and POST /api/sites with %s are 400 validation_error naming url, not forbidden_target', async (_name, init) => {
      for (const path of ['/api/scans', '/api/sites']) {
        const body = await problem(await env.request(path, { method: 'POST', ...init }), 400, 'validation_error');
        expect(body.errors.map((e: { path: string }) => e.path)).toEqual(['url']);
      }
    });

    it('keeps the crawl body optional: an empty JSON body starts a crawl with the defaults', async () => {
      const res = await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' });
      expect(res.status).toBe(202);
      const { crawlId } = await res.json();
      await env.temporal.workflow.getHandle(crawlWorkflowId(crawlId)).terminate('test cleanup');
    });

    it('says so in the OpenAPI document', async () => {
      const doc = await (await env.request('/openapi.json')).json();
      expect(doc.paths['/api/scans'].post.requestBody.required).toBe(true);
      expect(doc.paths['/api/sites'].post.requestBody.required).toBe(true);
      expect(doc.paths['/api/sites/{id}/issues/{issueId}'].patch.requestBody.required).toBe(true);
      expect(doc.paths['/api/sites/{id}/crawl'].post.requestBody.required).toBeFalsy();
      expect(doc.info.description).toContain('headers_too_large');
    });
  });

  describe('strings PostgreSQL cannot store', () => {
    it.each([
      ['a NUL', '{"status":"dismissed","note":"before\\u0000after"}'],
      ['a lone surrogate', '{"status":"dismissed","note":"\\ud800"}'],
    ])('a note with %s is 400 validation_error naming note, not 500', async (_name, body) => {
      const before = await history();
      const res = await env.request(issuePath, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body });
      const problemBody = await problem(res, 400, 'validation_error');
      expect(problemBody.errors).toEqual([{ path: 'note', message: expect.any(String) }]);
      expect(await history()).toEqual(before);
    });

    it('names the path of a bad string nested in the body', async () => {
      const body = '{"url":"https://example.org/","extra":{"list":["fine","\\u0000"]}}';
      const res = await env.request('/api/scans', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect((await problem(res, 400, 'validation_error')).errors[0].path).toBe('extra.list.1');
    });
  });

  describe('the 1 MiB body limit', () => {
    const chunkedHead = () => `POST /api/sites HTTP/1.1\r\nHost: ${new URL(env.api).host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;

    it('answers 413 as soon as a chunked body passes 1 MiB, without waiting for its end', async () => {
      // 1.5 MiB of a body that never ends: no terminating chunk is ever sent.
      const parts = [chunkedHead(), ...Array.from({ length: 24 }, () => chunk(' '.repeat(64 * 1024)))];
      const res = await rawRequest(env.api, parts, 10_000);
      expectRawProblem(res, 413, 'payload_too_large');
      expect(res.headers.connection).toBe('close');
    });

    it('still reads a chunked body under the limit', async () => {
      const body = new Response('{"status":"dismissed","note":"sent chunked"}').body!;
      const res = await fetch(env.api + issuePath, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
      expect(res.status).toBe(200);
      expect((await res.json()).statusHistory.at(-1)).toMatchObject({ to: 'dismissed', note: 'sent chunked', changedBy: 'user' });
    });
  });

  describe('an API without API_KEYS answers only requests meant for it (DNS rebinding, cross-site requests)', () => {
    const port = () => new URL(env.api).port;
    let crawlPath: string;
    beforeAll(async () => {
      const seeded = await seedCrawlReport(env.db, { pages: 1, issuesPerPage: 1 });
      crawlPath = `/api/sites/${seeded.siteId}/crawls/${seeded.crawlId}`;
    });

    it.each([
      ['a rebound DNS name', () => `attacker.example:${port()}`],
      ['a rebound DNS name without a port', () => 'attacker.example'],
      ['localhost on another port', () => 'localhost:1'],
      ['a loopback literal on another port', () => '127.0.0.1:8080'],
      ['another IP address (the API is bound to loopback)', () => `192.0.2.7:${port()}`],
      ['a name with a trailing dot', () => `localhost.:${port()}`],
    ])('refuses a Host that is %s with 421 misdirected_request, reads and writes alike', async (_name, host) => {
      for (const [method, path] of [['GET', '/api/sites'], ['GET', crawlPath], ['POST', `${crawlPath}/cancel`], ['GET', '/openapi.json']] as const) {
        const res = await hostRequest(env.api, path, { method, headers: { host: host() } });
        expectRawProblem(res, 421, 'misdirected_request');
      }
    });

    it.each([
      ['the bound address', () => `127.0.0.1:${port()}`],
      ['localhost', () => `localhost:${port()}`],
      ['LOCALHOST in capitals', () => `LOCALHOST:${port()}`],
      ['another loopback literal', () => `127.0.0.2:${port()}`],
      ['the IPv6 loopback literal', () => `[::1]:${port()}`],
    ])('answers a Host that is %s', async (_name, host) => {
      const res = await hostRequest(env.api, '/api/sites', { headers: { host: host() } });
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
    });

    it('lists 421 on every route but the health ones, and 403 on those that change state, in the OpenAPI document', async () => {
      const doc = await (await env.request('/openapi.json')).json();
      for (const [path, item] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          expect(Boolean(op.responses['421']), `${method} ${path}`).toBe(!['/healthz', '/readyz'].includes(path));
          expect(Boolean(op.responses['403']), `${method} ${path}`).toBe(['post', 'put', 'patch', 'delete'].includes(method));
        }
      }
      expect(doc.info.description).toContain('misdirected_request');
      expect(doc.info.description).toContain('API_ALLOWED_HOSTS');
    });

    it('keeps the health routes open to any Host (probes call them by any address)', async () => {
      for (const path of ['/healthz', '/readyz']) {
        expect((await hostRequest(env.api, path, { headers: { host: 'attacker.example' } })).status).toBe(200);
      }
    });

    it('answers the names in API_ALLOWED_HOSTS (a reverse proxy), on any port or the one given', async () => {
      const api = await env.startApi({ config: { ...env.config, apiAllowedHosts: ['audit.example.org', 'other.example.org:8443'] } });
      try {
        expect((await hostRequest(api.api, '/api/sites', { headers: { host: 'audit.example.org' } })).status).toBe(200);
        expect((await hostRequest(api.api, '/api/sites', { headers: { host: 'audit.example.org:8080' } })).status).toBe(200);
        expect((await hostRequest(api.api, '/api/sites', { headers: { host: 'other.example.org:8443' } })).status).toBe(200);
        expectRawProblem(await hostRequest(api.api, '/api/sites', { headers: { host: 'other.example.org' } }), 421, 'misdirected_request');
        expectRawProblem(await hostRequest(api.api, '/api/sites', { headers: { host: 'evil.audit.example.org' } }), 421, 'misdirected_request');
        // Behind a TLS proxy: the origin is https and the Host carries no port.
        const viaProxy = await hostRequest(api.api, `${crawlPath}/cancel`, { method: 'POST', headers: { host: 'audit.example.org', origin: 'https://audit.example.org' } });
        expect(viaProxy.status).toBe(409);
      } finally {
        await api.close();
      }
    });

    it('answers any IP literal, but no other name, when bound to a wildcard address', async () => {
      const api = await env.startApi({ config: { ...env.config, host: '0.0.0.0' } });
      try {
        const p = new URL(api.api).port;
        expect((await hostRequest(api.api, '/api/sites', { headers: { host: `192.0.2.7:${p}` } })).status).toBe(200);
        expect((await hostRequest(api.api, '/api/sites', { headers: { host: `[2001:db8::1]:${p}` } })).status).toBe(200);
        expectRawProblem(await hostRequest(api.api, '/api/sites', { headers: { host: `attacker.example:${p}` } }), 421, 'misdirected_request');
      } finally {
        await api.close();
      }
    });

    it('takes any Host once API_KEYS is set: a foreign page cannot send the key', async () => {
      const api = await env.startApi({ config: { ...env.config, apiKeys: ['k1'] } });
      try {
        const res = await hostRequest(api.api, '/api/sites', { headers: { host: 'api.example.org', authorization: 'Bearer k1' } });
        expect(res.status).toBe(200);
        const crossSite = await hostRequest(api.api, `${crawlPath}/cancel`, { method: 'POST', headers: { 'sec-fetch-site': 'cross-site', authorization: 'Bearer k1' } });
        expect(crossSite.status).toBe(409);
      } finally {
        await api.close();
      }
    });

    it.each([
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['Sec-Fetch-Site: same-site (another port of the same host)', { 'sec-fetch-site': 'same-site' }],
      ['a foreign Origin', { origin: 'http://attacker.example' }],
      ['the origin of another port', { origin: 'http://127.0.0.1:1' }],
      ['Origin: null (a sandboxed frame)', { origin: 'null' }],
    ])('refuses a state-changing request with %s: 403 forbidden, and nothing changes', async (_name, headers) => {
      const seeded = await seedCrawlReport(env.db, { pages: 1, issuesPerPage: 1 });
      const crawls = await env.db.selectFrom('crawls').select('id').where('site_id', '=', seeded.siteId).execute();
      expectRawProblem(await hostRequest(env.api, `/api/sites/${seeded.siteId}/crawl`, { method: 'POST', headers }), 403, 'forbidden');
      const issue = await env.db.selectFrom('issues').select(['id', 'status']).where('site_id', '=', seeded.siteId).executeTakeFirstOrThrow();
      const patch = await hostRequest(env.api, `/api/sites/${seeded.siteId}/issues/${issue.id}`, { method: 'PATCH', headers: { ...headers, 'content-type': 'application/json' } });
      expectRawProblem(patch, 403, 'forbidden');
      expectRawProblem(await hostRequest(env.api, `/api/sites/${seeded.siteId}/schedule`, { method: 'DELETE', headers }), 403, 'forbidden');
      expect(await env.db.selectFrom('crawls').select('id').where('site_id', '=', seeded.siteId).execute()).toEqual(crawls);
      // Reads stay open to them: the same-origin policy keeps their answers from a foreign page.
      expect((await hostRequest(env.api, `/api/sites/${seeded.siteId}`, { headers })).status).toBe(200);
    });

    it.each([
      ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
      ['Sec-Fetch-Site: none (typed by the user)', { 'sec-fetch-site': 'none' }],
      ["the API's own Origin", { origin: 'http://127.0.0.1:PORT' }],
      ['no browser headers at all (curl, the CLI)', {}],
    ])('lets a state-changing request with %s through', async (_name, headers) => {
      const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('PORT', port())]));
      const res = await hostRequest(env.api, `${crawlPath}/cancel`, { method: 'POST', headers: h });
      expectRawProblem(res, 409, 'already_finished');
    });
  });

  describe('event streams are bounded, and end when their run cannot move any more', () => {
    let api: { api: string; close(): Promise<void> };
    const opened: Array<{ close(): void }> = [];
    beforeAll(async () => {
      api = await env.startApi({
        config: { ...env.config, trustProxy: true, eventStreamsPerClient: 2, eventStreamsMax: 3 },
        policy: createTargetPolicy({ allowPrivate: true }),
        eventTiming: { pollMs: 100, keepAliveMs: 1000, stuckCheckMs: 400 },
      });
    });
    const scans: string[] = [];
    afterAll(async () => {
      for (const o of opened) o.close();
      for (const id of scans) await env.temporal.workflow.getHandle(`scan-${id}`).terminate('test cleanup').catch(() => {});
      await api?.close();
    });

    /** A single-page scan that stays queued: no worker polls this file's task queues. */
    async function queuedScan(): Promise<string> {
      const res = await fetch(`${api.api}/api/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url":"http://127.0.0.1:1/"}' });
      expect(res.status).toBe(202);
      const { id } = await res.json();
      scans.push(id);
      return id;
    }
    async function follow(scanId: string, client: string, headers: Record<string, string> = {}) {
      const stream = await openEvents(`${api.api}/api/scans/${scanId}/events`, { 'x-forwarded-for': client, ...headers });
      opened.push(stream);
      return stream;
    }
    /** A stream once the server has noticed the streams closed before and freed their places. */
    function followOnceFree(scanId: string, client: string) {
      return pollUntil(
        async () => {
          const s = await follow(scanId, client);
          if (s.res.status !== 200) await s.res.body?.cancel();
          return s;
        },
        (s) => s.res.status === 200,
        { timeoutMs: 5000, everyMs: 100 },
      );
    }

    it('caps streams per client and per process with 429 concurrency_limited and Retry-After', async () => {
      const scanId = await queuedScan();
      const a1 = await follow(scanId, '203.0.113.1');
      const a2 = await follow(scanId, '203.0.113.1');
      for (const s of [a1, a2]) {
        expect(s.res.status).toBe(200);
        expect((await s.next())?.data.status).toBe('queued');
      }
      const a3 = await follow(scanId, '203.0.113.1');
      expectRawProblem({ status: a3.res.status, headers: Object.fromEntries(a3.res.headers), body: await a3.res.json(), raw: '' }, 429, 'concurrency_limited');
      expect(a3.res.headers.get('retry-after')).toBe('10');
      const b1 = await follow(scanId, '203.0.113.2');
      expect(b1.res.status).toBe(200);
      // Three streams in this process: a new client is refused too.
      const c1 = await follow(scanId, '203.0.113.3');
      expect(c1.res.status).toBe(429);
      expect((await c1.res.json()).detail).toContain('EVENT_STREAMS_MAX');
      // A stream the client closes gives its places back.
      a1.close();
      b1.close();
      const again = await followOnceFree(scanId, '203.0.113.1');
      expect((await again.next())?.data.status).toBe('queued');
      for (const s of [a2, again]) s.close();
    });

    it("ends the stream of a scan whose workflow was terminated, with an end event that says so", async () => {
      // The places of the streams closed above come back once the server notices.
      const scanId = await queuedScan();
      const stream = await followOnceFree(scanId, '203.0.113.10');
      const first = await stream.next();
      expect(first).toMatchObject({ event: 'update', data: { id: scanId, status: 'queued' } });
      // Queued with its workflow waiting for a worker: checked, and left open.
      const pending = stream.next();
      expect(await Promise.race([pending.then(() => 'an event'), new Promise((r) => setTimeout(() => r('still open'), 1500))])).toBe('still open');
      await env.temporal.workflow.getHandle(`scan-${scanId}`).terminate('test: the scan can never start');
      const end = await within(pending, 5000, 'end event');
      expect(end).toMatchObject({ event: 'end', retry: 60000, data: { reason: 'workflow_not_running', workflowStatus: 'TERMINATED' } });
      expect(end?.id).toBeUndefined();
      expect(await within(stream.next(), 2000, 'end of stream')).toBeUndefined();
      // The scan's row still says queued: the stream says why it ended instead of waiting for ever.
      expect((await (await fetch(`${api.api}/api/scans/${scanId}`)).json()).status).toBe('queued');
    });

    it('ends the stream of a crawl left running by a workflow that is gone', async () => {
      const seeded = await seedCrawlReport(env.db, { pages: 1, issuesPerPage: 1 });
      const crawl = await env.db.insertInto('crawls').values({ site_id: seeded.siteId, max_pages: 10, status: 'running' }).returning('id').executeTakeFirstOrThrow();
      const stream = await pollUntil(
        async () => {
          const s = await openEvents(`${api.api}/api/sites/${seeded.siteId}/crawls/${crawl.id}/events`, { 'x-forwarded-for': '203.0.113.20' });
          opened.push(s);
          if (s.res.status !== 200) await s.res.body?.cancel();
          return s;
        },
        (s) => s.res.status === 200,
        { timeoutMs: 5000, everyMs: 100 },
      );
      expect(await stream.next()).toMatchObject({ event: 'update', data: { id: crawl.id, status: 'running' } });
      expect(await within(stream.next(), 5000, 'end event')).toMatchObject({ event: 'end', data: { reason: 'workflow_not_running', workflowStatus: 'NOT_FOUND' } });
      expect(await stream.next()).toBeUndefined();
      stream.close();
    });

    it('ends a stream after its lifetime; Last-Event-ID goes on from there', async () => {
      const short = await env.startApi({ policy: createTargetPolicy({ allowPrivate: true }), eventTiming: { pollMs: 100, keepAliveMs: 1000, maxLifetimeMs: 600 } });
      try {
        const res = await fetch(`${short.api}/api/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url":"http://127.0.0.1:1/"}' });
        const scanId = (await res.json()).id;
        const stream = await openEvents(`${short.api}/api/scans/${scanId}/events`);
        const first = await stream.next();
        expect(first?.event).toBe('update');
        expect(await within(stream.next(), 5000, 'end event')).toMatchObject({ event: 'end', data: { reason: 'max_lifetime' } });
        expect(await stream.next()).toBeUndefined();
        const resumed = await openEvents(`${short.api}/api/scans/${scanId}/events`, { 'last-event-id': first!.id! });
        // Nothing changed since: no update again, only the end of this stream's lifetime.
        expect(await within(resumed.next(), 5000, 'end event')).toMatchObject({ event: 'end', data: { reason: 'max_lifetime' } });
        await env.temporal.workflow.getHandle(`scan-${scanId}`).terminate('test cleanup');
      } finally {
        await short.close();
      }
    });
  });
});
