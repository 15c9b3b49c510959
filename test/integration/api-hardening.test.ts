import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlWorkflowId } from '../../src/shared/search-attributes.ts';
import { rawRequest, type RawResponse } from '../helpers/raw-http.ts';
import { seedCrawlReport } from '../helpers/seed-report.ts';
import { createTestEnv, type TestEnv } from '../helpers/test-env.ts';

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
    const chunkedHead = 'POST /api/sites HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';

    it('answers 413 as soon as a chunked body passes 1 MiB, without waiting for its end', async () => {
      // 1.5 MiB of a body that never ends: no terminating chunk is ever sent.
      const parts = [chunkedHead, ...Array.from({ length: 24 }, () => chunk(' '.repeat(64 * 1024)))];
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
});
