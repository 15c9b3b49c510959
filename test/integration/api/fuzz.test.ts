import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../helpers/raw-http.ts';
import { seedCrawlReport } from '../../support/seed-report.ts';
import { createTestEnv, type TestEnv } from '../../helpers/test-env.ts';

/**
 * Property-based requests over every operation of the OpenAPI document: valid, half-valid and
 * hostile path parameters, query strings, bodies and content types, methods a path does not
 * have, and now and then a browser's cross-site headers. Whatever arrives, the answer is never a 5xx, always carries X-Request-Id, and every error
 * is problem+json whose `status` matches the HTTP status. FUZZ_RUNS sets the request count
 * (2,000 by default; FUZZ_SEED replays a run). A second property sends raw request lines over a
 * socket (a quarter as many): targets with backslashes, control and non-ASCII bytes, odd Host
 * headers, that no HTTP client would send and that Node or the adapter refuse before the app.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const RAW_RUNS = Math.max(100, Math.round(RUNS / 4));
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  query: Array<{ name: string; schema: any }>;
  hasBody: boolean;
}

function operationsOf(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const params: any[] = op.parameters ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        hasBody: Boolean(op.requestBody),
      });
    }
  }
  return ops;
}

/** A value the schema allows, or nearly: enums, bounds and formats are where handlers slip. */
function queryValue(schema: any): fc.Arbitrary<string> {
  const hostile = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom('', '-1', '0', '1e309', 'NaN', '99999999999999999999', '1.5', 'null', '[]', '%00', '\u0000', '\ud800', 'a'.repeat(3000)),
  );
  const valid: fc.Arbitrary<string>[] = [];
  if (Array.isArray(schema.enum)) valid.push(fc.constantFrom(...schema.enum.map(String)));
  if (schema.type === 'integer' || schema.type === 'number') valid.push(fc.integer({ min: -5, max: 20_000 }).map(String));
  if (schema.type === 'string' && !schema.enum) valid.push(fc.string({ maxLength: 20 }));
  return valid.length ? fc.oneof(...valid, hostile) : hostile;
}

const pathSegment = (valid: string[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...valid), weight: 4 },
    { arbitrary: fc.uuid(), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }).map(encodeURIComponent), weight: 2 },
    { arbitrary: fc.constantFrom('%', '%ZZ', '%00', '%ED%A0%80', '..', '0', '-1', 'a'.repeat(2000), '00000000-0000-0000-0000-000000000000'), weight: 1 },
  );

const bodies = (example: unknown) =>
  fc.oneof(
    fc.constant(undefined),
    fc.constant(JSON.stringify(example)),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.dictionary(fc.constantFrom('url', 'maxPages', 'status', 'note', 'format', 'x'), fc.jsonValue({ maxDepth: 2 })).map((v) => JSON.stringify(v)),
    fc.record({ status: fc.constantFrom('open', 'dismissed', 'cant_fix', 'fixed'), note: fc.string({ unit: 'binary', maxLength: 50 }) }).map((v) => JSON.stringify(v)),
    fc.constantFrom('', '{', 'null', '[]', '"x"', '{"url":"\\u0000"}', '{"note":"\\ud800","status":"open"}', '{"maxPages":1e400}', '\u0000', 'a=b&c=d'),
    fc.string({ unit: 'binary', maxLength: 200 }),
  );

/** Bytes of a raw request target: what a URL allows, and what it does not (backslash, controls, DEL, non-ASCII). */
const targetByte = fc.oneof(
  { arbitrary: fc.constantFrom(...'abz09-._~%/?#[]@!$&\'()*+,;=:'.split('')), weight: 6 },
  { arbitrary: fc.constantFrom('\\', '\\', '..', '%5C', '%2F', '%00', '%', '"', '<', '>', '{', '}', '|', '^', '`', ' ', '\t', '\u007f'), weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 31 }).map((n) => String.fromCharCode(n)), weight: 1 },
  { arbitrary: fc.integer({ min: 128, max: 255 }).map((n) => String.fromCharCode(n)), weight: 1 },
);
const rawSegment = (valid: string[]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...valid), weight: 2 }, { arbitrary: fc.array(targetByte, { minLength: 1, maxLength: 12 }).map((b) => b.join('')), weight: 3 });

const contentTypes = fc.constantFrom(undefined, 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/problem+json', '*/*');

describe('API fuzz: property-based requests over the OpenAPI document', () => {
  let env: TestEnv;
  let ops: Operation[];
  const valid: Record<string, string[]> = {};
  const statuses = new Map<number, number>();
  const rawStatuses = new Map<number, number>();

  beforeAll(async () => {
    env = await createTestEnv({ env: { ALLOW_PRIVATE_TARGETS: 'false', SCAN_RATE_LIMIT: '1000000', CRAWL_RATE_LIMIT: '1000000', SITE_RATE_LIMIT: '1000000', SCHEDULE_RATE_LIMIT: '1000000', WEBHOOK_RATE_LIMIT: '1000000' }, workers: false });
    ops = operationsOf(await (await env.request('/openapi.json')).json());
    const seeded = [await seedCrawlReport(env.db, { pages: 2, issuesPerPage: 3 }), await seedCrawlReport(env.db, { pages: 1, issuesPerPage: 2 })];
    valid.id = seeded.map((s) => s.siteId);
    valid.crawlId = seeded.flatMap((s) => [s.crawlId, s.previousCrawlId]);
    valid.issueId = (await env.db.selectFrom('issues').select('id').limit(5).execute()).map((r) => r.id);
    valid.pageId = (await env.db.selectFrom('pages').select('id').limit(5).execute()).map((r) => r.id);
    const scan = await env.db.selectFrom('page_scans').select('id').where('kind', '=', 'single').limit(1).executeTakeFirst();
    if (scan) valid.id.push(scan.id);
  }, 120_000);
  afterAll(async () => {
    const report = (m: Map<number, number>) => `${[...m.values()].reduce((a, b) => a + b, 0)} requests; statuses ${JSON.stringify(Object.fromEntries([...m].sort()))}`;
    console.log(`api fuzz: ${report(statuses)}; raw request lines: ${report(rawStatuses)}`);
    await env?.close();
  });

  it('never answers 5xx, and every error is problem+json with a request id', { timeout: 900_000 }, async () => {
    expect(ops.length).toBeGreaterThanOrEqual(18);
    const request = fc
      .nat({ max: ops.length - 1 })
      .chain((i) => {
        const op = ops[i]!;
        return fc.record({
          method: fc.oneof({ arbitrary: fc.constant(op.method), weight: 9 }, { arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'), weight: 1 }),
          path: fc.tuple(...op.pathParams.map((p) => pathSegment(valid[p] ?? ['x']))).map((values) => {
            let path = op.path;
            op.pathParams.forEach((p, k) => (path = path.replace(`{${p}}`, values[k]!)));
            return path;
          }),
          query: fc.tuple(
            fc.subarray(op.query).chain((qs) => fc.tuple(...qs.map((q) => queryValue(q.schema).map((v) => [q.name, v] as [string, string])))),
            fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 10 })), { freq: 5 }),
          ),
          body: op.hasBody ? bodies(op.path.endsWith('/issues/{issueId}') ? { status: 'dismissed', note: 'n' } : op.path.endsWith('/crawl') ? { maxPages: 2 } : { url: 'https://unresolvable.invalid/' }) : fc.option(fc.string({ maxLength: 30 }), { freq: 4 }).map((v) => v ?? undefined),
          contentType: contentTypes,
          // Now and then a browser's cross-site request (refused when it changes state).
          browser: fc.oneof(
            { arbitrary: fc.constant<Record<string, string>>({}), weight: 12 },
            { arbitrary: fc.constantFrom<Record<string, string>>({ origin: 'http://attacker.example' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-origin' }, { origin: 'null' }), weight: 1 },
          ),
        });
      });

    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const params = new URLSearchParams(r.query[0]);
        if (r.query[1]) params.append(r.query[1][0], r.query[1][1]);
        const qs = params.toString();
        const headers: Record<string, string> = { ...r.browser };
        if (r.contentType) headers['content-type'] = r.contentType;
        const withBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD';
        const res = await fetch(`${env.api}${r.path}${qs ? `?${qs}` : ''}`, { method: r.method, headers, body: withBody ? r.body : undefined });
        const text = r.method === 'HEAD' ? '' : await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const what = `${r.method} ${r.path}?${qs} [${r.contentType}] ${JSON.stringify(r.browser)} ${JSON.stringify(r.body)?.slice(0, 200)} -> ${res.status} ${text.slice(0, 300)}`;
        expect(res.status, what).toBeLessThan(500);
        expect(res.headers.get('x-request-id'), what).toBeTruthy();
        if (res.status >= 400 && r.method !== 'HEAD') {
          expect(res.headers.get('content-type'), what).toBe('application/problem+json');
          const body = JSON.parse(text);
          expect(body, what).toMatchObject({ status: res.status, code: expect.any(String), type: expect.stringMatching(/^\/problems\//), title: expect.any(String) });
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });

  it('answers raw request targets no client would send (backslashes, controls, odd bytes) with problem+json', { timeout: 900_000 }, async () => {
    const { host } = new URL(env.api);
    const request = fc
      .nat({ max: ops.length - 1 })
      .chain((i) => {
        const op = ops[i]!;
        return fc.record({
          method: fc.oneof({ arbitrary: fc.constant(op.method), weight: 4 }, { arbitrary: fc.constantFrom('GET', 'POST', 'DELETE', 'HEAD', 'OPTIONS', 'CONNECT', 'PRI', 'BREW'), weight: 1 }),
          target: fc.oneof(
            {
              weight: 8,
              arbitrary: fc
                .tuple(fc.tuple(...op.pathParams.map((p) => rawSegment(valid[p] ?? ['x']))), fc.option(fc.array(targetByte, { maxLength: 20 }).map((b) => b.join(''))))
                .map(([values, query]) => {
                  let path = op.path;
                  op.pathParams.forEach((p, k) => (path = path.replace(`{${p}}`, values[k]!)));
                  return query === null ? path : `${path}?${query}`;
                }),
            },
            { weight: 1, arbitrary: fc.constantFrom('*', '', '//', '/\\', '\\', 'http://x\\y/', `http://${host}/api/sites`, 'http://[::1/', 'api/sites', '/%', '/..\\..\\etc\\passwd') },
          ),
          host: fc.oneof(
            { weight: 8, arbitrary: fc.constant<string | null>(host) },
            { weight: 1, arbitrary: fc.constantFrom<string | null>(null, '', 'a\\b', '[::1', 'x y', '127.0.0.1:99999', 'évil.example', 'rebind.attacker.example', 'localhost', host.toUpperCase()) },
          ),
        });
      });

    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const head = `${r.method} ${r.target} HTTP/1.1\r\n${r.host === null ? '' : `Host: ${r.host}\r\n`}Connection: close\r\nContent-Length: 0\r\n\r\n`;
        const res = await rawRequest(env.api, Buffer.from(head, 'latin1'), 10_000);
        rawStatuses.set(res.status, (rawStatuses.get(res.status) ?? 0) + 1);
        const what = `${JSON.stringify(head)} -> ${JSON.stringify(res.raw.slice(0, 400))}`;
        expect(res.status, what).toBeGreaterThanOrEqual(200);
        expect(res.status, what).toBeLessThan(500);
        expect(res.headers['x-request-id'], what).toBeTruthy();
        if (res.status >= 400 && r.method !== 'HEAD') {
          expect(res.headers['content-type'], what).toBe('application/problem+json');
          expect(res.body, what).toMatchObject({ status: res.status, code: expect.any(String), type: expect.stringMatching(/^\/problems\//), title: expect.any(String) });
        }
      }),
      { numRuns: RAW_RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
