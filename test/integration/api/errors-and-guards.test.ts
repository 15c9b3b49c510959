import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/database.ts';
import { createTargetPolicy } from '../../../src/security/target-policy.ts';
import { freePort } from '../../../temporal-dev/dev-server.ts';
import { createTestEnv, type TestEnv } from '../../helpers/test-env.ts';

async function problem(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.headers.get('x-request-id')).toBeTruthy();
  const body = await res.json();
  expect(body).toMatchObject({ status, code, type: `/problems/${code.replaceAll('_', '-')}`, title: expect.any(String), detail: expect.any(String) });
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+|select |insert into/i);
  return body;
}

async function scanCount(env: TestEnv): Promise<number> {
  const r = await env.db.selectFrom('page_scans').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return r.n;
}

describe('API errors, limits and guards', () => {
  let env: TestEnv;
  beforeAll(async () => {
    // Private targets refused, as by default; the workers are not needed for these answers.
    env = await createTestEnv({ env: { ALLOW_PRIVATE_TARGETS: 'false', SCAN_RATE_LIMIT: '1000' }, workers: false });
  });
  afterAll(async () => env?.close());

  it.each([
    ['missing url', {}, 'url'],
    ['not a URL', { url: 'not a url' }, 'url'],
    ['ftp URL', { url: 'ftp://example.org/' }, 'url'],
    ['javascript URL', { url: 'javascript:alert(1)' }, 'url'],
    ['credentials', { url: 'https://user:pw@example.org/' }, 'url'],
    ['wrong type', { url: 42 }, 'url'],
  ])('rejects a bad body with 400 validation_error: %s', async (_name, json, path) => {
    const body = await problem(await env.request('/api/scans', { method: 'POST', json }), 400, 'validation_error');
    expect(body.errors[0].path).toBe(path);
  });

  it.each(['http://127.0.0.1/', 'http://10.1.2.3/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://localhost:8080/', 'http://192.168.0.1/', 'http://metadata.google.internal/',
    // IPv6 hosts that carry a private IPv4 address: compatible, mapped, NAT64, 6to4, Teredo.
    'http://[::127.0.0.1]/', 'http://[::a9fe:a9fe]/latest/meta-data/', 'http://[::ffff:127.0.0.1]/', 'http://[64:ff9b::10.1.2.3]/', 'http://[2002:c0a8:1::]/', 'http://[2001:0:a01:203::]/'])(
    'refuses private target %s with 400 forbidden_target and writes nothing',
    async (url) => {
      const before = await scanCount(env);
      await problem(await env.request('/api/scans', { method: 'POST', json: { url } }), 400, 'forbidden_target');
      expect(await scanCount(env)).toBe(before);
    },
  );

  it('refuses names that do not resolve, and never names the internal address a name resolves to', async () => {
    const resolver = async (host: string) =>
      host === 'intranet.test' ? ['10.0.0.7'] : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
    const api = await env.startApi({ policy: createTargetPolicy({ allowPrivate: false, resolver }) });
    try {
      const before = await scanCount(env);
      const internal = await problem(await fetch(`${api.api}/api/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://intranet.test/' }) }), 400, 'forbidden_target');
      expect(internal.detail).toContain('intranet.test does not resolve to a public address');
      expect(JSON.stringify(internal)).not.toContain('10.0.0.7');
      const nowhere = await problem(await fetch(`${api.api}/api/sites`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://no-such-host.invalid/' }) }), 400, 'forbidden_target');
      expect(nowhere.detail).toContain('no-such-host.invalid does not resolve to a public address');
      // One wording for both: the answer must not tell which internal names exist.
      const nowhereScan = await problem(await fetch(`${api.api}/api/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://no-such-host.invalid/' }) }), 400, 'forbidden_target');
      expect(nowhereScan.detail.replace('no-such-host.invalid', 'intranet.test')).toBe(internal.detail);
      expect(await scanCount(env)).toBe(before);
      expect(await (await env.request('/api/sites')).json()).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('refuses a private site with 400 forbidden_target and creates nothing', async () => {
    await problem(await env.request('/api/sites', { method: 'POST', json: { url: 'http://127.0.0.1:8080/' } }), 400, 'forbidden_target');
    await problem(await env.request('/api/sites', { method: 'POST', json: { url: 'mailto:a@b.c' } }), 400, 'validation_error');
    expect(await (await env.request('/api/sites')).json()).toEqual([]);
  });

  it('refuses a webhook to a private address, for a site and for a scan, and writes nothing', async () => {
    const resolver = async (host: string) =>
      host === 'shop.test' || host === 'hooks.test' ? ['93.184.216.34'] : host === 'intranet.test' ? ['10.0.0.7'] : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
    const api = await env.startApi({ policy: createTargetPolicy({ allowPrivate: false, resolver }) });
    const call = (path: string, method: string, json: unknown) => fetch(`${api.api}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
    try {
      const site = await (await call('/api/sites', 'POST', { url: 'http://shop.test/' })).json();
      for (const url of ['http://intranet.test/hook', 'http://127.0.0.1:9000/hook', 'http://169.254.169.254/latest/']) {
        const body = await problem(await call(`/api/sites/${site.id}/webhooks`, 'PUT', { webhooks: [{ url: 'http://hooks.test/ok', events: ['crawl.completed'] }, { url, events: ['crawl.failed'] }] }), 400, 'forbidden_target');
        expect(body.detail).toMatch(/^webhooks\.1\.url: /);
        expect(JSON.stringify(body)).not.toContain('10.0.0.7');
      }
      expect((await (await fetch(`${api.api}/api/sites/${site.id}/webhooks`)).json()).webhooks).toEqual([]);
      const before = await scanCount(env);
      const scan = await problem(await call('/api/scans', 'POST', { url: 'http://shop.test/', webhookUrl: 'http://intranet.test/hook' }), 400, 'forbidden_target');
      expect(scan.detail).toMatch(/^webhookUrl: /);
      expect(await scanCount(env)).toBe(before);
    } finally {
      await api.close();
    }
  });

  it('answers 400 invalid_json, 415 and 413 for bad bodies', async () => {
    await problem(await env.request('/api/scans', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url":' }), 400, 'invalid_json');
    await problem(await env.request('/api/scans', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'url=x' }), 415, 'unsupported_media_type');
    const big = JSON.stringify({ url: 'https://example.org/', pad: 'x'.repeat(1024 * 1024) });
    await problem(await env.request('/api/scans', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big }), 413, 'payload_too_large');
  });

  it.each(['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'offset=1.5'])('rejects bad pagination %s', async (q) => {
    await problem(await env.request(`/api/scans?${q}`), 400, 'validation_error');
  });

  it('ignores unknown query parameters', async () => {
    expect((await env.request('/api/scans?foo=bar')).status).toBe(200);
  });

  it('answers 404 for unknown scans and routes, 400 for ids that are not UUIDs', async () => {
    await problem(await env.request('/api/scans/6f1c1c9e-3a0b-4f43-9d7e-2f6a1b9c0d11'), 404, 'not_found');
    await problem(await env.request('/api/scans/6f1c1c9e-3a0b-4f43-9d7e-2f6a1b9c0d11/cancel', { method: 'POST' }), 404, 'not_found');
    await problem(await env.request('/api/scans/nope'), 400, 'validation_error');
    await problem(await env.request('/api/nothing-here'), 404, 'not_found');
  });

  it('echoes a client X-Request-Id and makes one otherwise', async () => {
    const res = await env.request('/healthz', { headers: { 'x-request-id': 'client-id-123' } });
    expect(res.headers.get('x-request-id')).toBe('client-id-123');
    const other = await env.request('/healthz');
    expect(other.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves health, readiness, the OpenAPI document and its docs page', async () => {
    expect(await (await env.request('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await env.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
    const doc = await (await env.request('/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/scans', '/api/scans/{id}', '/api/scans/{id}/cancel', '/api/scans/{id}/export', '/api/sites/{id}/crawls/{crawlId}/export',
        '/api/sites/{id}/issue-groups', '/healthz', '/readyz', '/api/sites/{id}/webhooks', '/api/sites/{id}/webhooks/{webhookId}/deliveries',
      ]),
    );
    expect(Object.keys(doc.paths['/api/scans/{id}/export'].get.responses['200'].content)).toEqual([
      'application/pdf',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/yaml; charset=utf-8',
    ]);
    expect(doc.paths['/api/sites/{id}/issues'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['groupKey', 'type', 'ruleId']));
    expect(doc.paths['/api/scans'].post.responses['429']).toBeDefined();
    const docs = await env.request('/docs');
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('/docs/assets/init.js');
    expect(await (await env.request('/docs/assets/init.js')).text()).toContain("'/openapi.json'");
    expect((await env.request('/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
  });

  it('requires a bearer key on /api when API_KEYS is set, but not on health routes', async () => {
    const locked = await env.startApi({ config: { ...env.config, apiKeys: ['s3cret', 'other'] } });
    try {
      await problem(await fetch(`${locked.api}/api/scans`), 401, 'unauthorized');
      await problem(await fetch(`${locked.api}/api/scans`, { headers: { authorization: 'Bearer wrong' } }), 401, 'unauthorized');
      expect((await fetch(`${locked.api}/api/scans`, { headers: { authorization: 'Bearer other' } })).status).toBe(200);
      expect((await fetch(`${locked.api}/healthz`)).status).toBe(200);
    } finally {
      await locked.close();
    }
  });

  it('answers 503 and leaves nothing behind when Temporal is unreachable', async () => {
    const deadTemporal = new Client({ connection: Connection.lazy({ address: `127.0.0.1:${await freePort()}`, connectTimeout: 1000 }) });
    const api = await env.startApi({ temporal: deadTemporal, policy: createTargetPolicy({ allowPrivate: true }) });
    try {
      const before = await scanCount(env);
      await problem(await fetch(`${api.api}/api/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://127.0.0.1:1/' }) }), 503, 'service_unavailable');
      expect(await scanCount(env)).toBe(before);
      const ready = await problem(await fetch(`${api.api}/readyz`), 503, 'service_unavailable');
      expect(ready.checks).toEqual({ database: 'ok', temporal: 'unavailable' });
      expect(ready.detail).toBe('not ready: temporal unavailable');
      expect(JSON.stringify(ready)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|transport|error/i);
    } finally {
      await api.close();
    }
  });

  it('maps a refused workflow start to 409 or 500, never 503, and leaves nothing behind', async () => {
    const refusing = (error: Error) =>
      ({ ...env.temporal, connection: env.temporal.connection, workflow: { start: async () => Promise.reject(error) } }) as unknown as Client;
    const cases: Array<[Error, number, string]> = [
      [new WorkflowExecutionAlreadyStartedError('exists', 'scan-x', 'ScanWorkflow'), 409, 'already_started'],
      [Object.assign(new Error('3 INVALID_ARGUMENT: bad search attribute'), { name: 'ServiceError', cause: Object.assign(new Error('bad'), { code: 3 }) }), 500, 'internal_error'],
      [Object.assign(new Error('14 UNAVAILABLE: no connection'), { name: 'ServiceError', cause: Object.assign(new Error('down'), { code: 14 }) }), 503, 'service_unavailable'],
    ];
    for (const [error, status, code] of cases) {
      const api = await env.startApi({ temporal: refusing(error), policy: createTargetPolicy({ allowPrivate: true }) });
      try {
        const before = await scanCount(env);
        await problem(await fetch(`${api.api}/api/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://127.0.0.1:1/' }) }), status, code);
        expect(await scanCount(env)).toBe(before);
      } finally {
        await api.close();
      }
    }
  });

  it('answers 503 when the database is unreachable', async () => {
    const deadDb = createDb(`postgres://postgres@127.0.0.1:${await freePort()}/none`);
    const api = await env.startApi({ db: deadDb });
    try {
      await problem(await fetch(`${api.api}/api/scans`), 503, 'service_unavailable');
      const ready = await problem(await fetch(`${api.api}/readyz`), 503, 'service_unavailable');
      expect(ready.checks).toEqual({ database: 'unavailable', temporal: 'ok' });
      expect(JSON.stringify(ready)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|postgres|none/i);
    } finally {
      await api.close();
      await deadDb.destroy();
    }
  });
});

describe('rate limit on POST /api/scans', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv({ env: { SCAN_RATE_LIMIT: '10', CRAWL_RATE_LIMIT: '2', SITE_RATE_LIMIT: '3', SCHEDULE_RATE_LIMIT: '2', TRUST_PROXY: 'true' } });
  });
  afterAll(async () => env?.close());

  const postScan = (forwardedFor: string) =>
    fetch(`${env.api}/api/scans`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ url: 'http://127.0.0.1:1/' }),
    });

  it('counts the right-most X-Forwarded-For hop, whatever the client puts to its left', async () => {
    for (let i = 0; i < 10; i++) expect((await postScan(`10.0.0.${i}, 192.0.2.${i}, 203.0.113.50`)).status).toBe(202);
    await problem(await postScan('198.51.100.99, 203.0.113.50'), 429, 'rate_limited');
    // The left-most value the client controls is not the bucket: the same left value from another hop is not limited.
    expect((await postScan('203.0.113.50, 203.0.113.51')).status).toBe(202);
  });

  it('puts the addresses of one IPv6 /64 in one bucket', async () => {
    for (let i = 1; i <= 10; i++) expect((await postScan(`2001:db8:7:1::${i.toString(16)}`)).status).toBe(202);
    await problem(await postScan('2001:db8:7:1:ffff:ffff:ffff:ffff'), 429, 'rate_limited');
    expect((await postScan('2001:db8:7:2::1')).status).toBe(202);
  });

  it('limits crawl starts per client too, with the same headers', async () => {
    const site = await (await env.request('/api/sites', { method: 'POST', json: { url: 'http://127.0.0.1:1/' } })).json();
    const start = (ip: string) =>
      fetch(`${env.api}/api/sites/${site.id}/crawl`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: '{}' });
    const first = await start('203.0.113.80');
    expect([202, 409]).toContain(first.status);
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect([202, 409]).toContain((await start('203.0.113.80')).status);
    const limited = await start('203.0.113.80');
    const body = await problem(limited, 429, 'rate_limited');
    expect(body.detail).toContain('2 crawl starts per hour');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await start('203.0.113.81')).status).not.toBe(429);
  });

  it('limits site creations per client (SITE_RATE_LIMIT), existing sites included, with the same headers', async () => {
    const create = (ip: string, host: string) =>
      fetch(`${env.api}/api/sites`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify({ url: `http://${host}/` }) });
    const first = await create('203.0.113.90', 'site-limit-a.test');
    expect(first.status).toBe(201);
    expect(first.headers.get('ratelimit-limit')).toBe('3');
    expect(first.headers.get('ratelimit-remaining')).toBe('2');
    expect((await create('203.0.113.90', 'site-limit-a.test')).status).toBe(200);
    expect((await create('203.0.113.90', 'site-limit-b.test')).status).toBe(201);
    const limited = await create('203.0.113.90', 'site-limit-c.test');
    const body = await problem(limited, 429, 'rate_limited');
    expect(body.detail).toContain('3 site creations per hour');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    const sites = await (await env.request('/api/sites')).json();
    expect(sites.map((x: { hostname: string }) => x.hostname)).not.toContain('site-limit-c.test');
    expect((await create('203.0.113.91', 'site-limit-c.test')).status).toBe(201);
    // Reads are not limited.
    expect((await fetch(`${env.api}/api/sites`, { headers: { 'x-forwarded-for': '203.0.113.90' } })).status).toBe(200);
  });

  it('limits schedule writes per client (SCHEDULE_RATE_LIMIT), and leaves the schedule as it was', async () => {
    const site = await (await fetch(`${env.api}/api/sites`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.95' }, body: '{"url":"http://schedule-limit.test/"}' })).json();
    const put = (ip: string, every: string) =>
      fetch(`${env.api}/api/sites/${site.id}/schedule`, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify({ every, paused: true }) });
    try {
      const created = await put('203.0.113.96', '1d');
      expect(created.status).toBe(201);
      expect(created.headers.get('ratelimit-limit')).toBe('2');
      expect((await put('203.0.113.96', '2d')).status).toBe(200);
      const limited = await put('203.0.113.96', '3d');
      expect((await problem(limited, 429, 'rate_limited')).detail).toContain('2 schedule changes per hour');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await (await env.request(`/api/sites/${site.id}/schedule`)).json()).every).toBe('2d');
      // Reads and deletes are not limited.
      expect((await fetch(`${env.api}/api/sites/${site.id}/schedule`, { headers: { 'x-forwarded-for': '203.0.113.96' } })).status).toBe(200);
    } finally {
      await env.request(`/api/sites/${site.id}/schedule`, { method: 'DELETE' });
    }
  });

  it('allows 10 scans per client IP per hour across API processes, then answers 429 with Retry-After', async () => {
    const second = await env.startApi();
    try {
      const post = (api: string, ip: string) =>
        fetch(`${api}/api/scans`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
          body: JSON.stringify({ url: 'http://no-such-host.invalid/' }),
        });
      const remaining: string[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await post(i % 2 ? second.api : env.api, '203.0.113.7');
        expect(res.status).toBe(202);
        expect(res.headers.get('ratelimit-limit')).toBe('10');
        remaining.push(res.headers.get('ratelimit-remaining')!);
      }
      expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
      const limited = await post(second.api, '203.0.113.7');
      const body = await problem(limited, 429, 'rate_limited');
      expect(body.detail).toContain('10');
      const retry = Number(limited.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(3600);
      expect(limited.headers.get('ratelimit-remaining')).toBe('0');
      // Another client is not affected, and reads are not limited.
      expect((await post(env.api, '198.51.100.20')).status).toBe(202);
      expect((await fetch(`${env.api}/api/scans`, { headers: { 'x-forwarded-for': '203.0.113.7' } })).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
