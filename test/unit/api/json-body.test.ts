import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.ts';
import { ApiError } from '../../../src/api/errors.ts';
import { findUnstorableString, MAX_BODY_BYTES, readCapped } from '../../../src/api/json-body.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/logger.ts';
import { createTargetPolicy } from '../../../src/security/target-policy.ts';
import { taskQueues } from '../../../src/shared/task-queues.ts';

/** A body that never ends, counting what was pulled from it. */
function endless(chunk = 64 * 1024) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += chunk;
      controller.enqueue(new Uint8Array(chunk).fill(0x20));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('findUnstorableString', () => {
  it('names the JSON path of a NUL or an unpaired surrogate, in keys too', () => {
    expect(findUnstorableString({ a: { b: ['ok', 'x\u0000y'] } })).toEqual({ path: 'a.b.1', message: expect.stringContaining('NUL') });
    expect(findUnstorableString({ note: '\ud800' })).toEqual({ path: 'note', message: expect.stringContaining('surrogate') });
    expect(findUnstorableString({ note: 'a\udc00b' })?.path).toBe('note');
    expect(findUnstorableString({ ['k\u0000']: 1 })).toEqual({ path: 'k\u0000', message: expect.stringContaining('key') });
    expect(findUnstorableString('\u0000')?.path).toBe('');
  });

  it('reports the first bad string in document order', () => {
    expect(findUnstorableString({ a: 'fine', b: ['\u0000', '\ud800'], c: '\u0000' })?.path).toBe('b.0');
  });

  it('accepts surrogate pairs, other control characters and non-strings', () => {
    expect(findUnstorableString({ emoji: '😀', tab: '\t\u0001', n: 1, t: true, z: null, list: [] })).toBeUndefined();
  });

  it('walks nesting deeper than the call stack', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}"\\u0000"${']'.repeat(200_000)}`);
    expect(findUnstorableString(deep)?.path).toBe(Array(200_000).fill('0').join('.'));
  });
});

describe('readCapped', () => {
  it('reads a body up to the limit', async () => {
    const body = new Response(new Uint8Array(1000).fill(1)).body;
    expect((await readCapped(body, 1000)).byteLength).toBe(1000);
    expect((await readCapped(null, 1000)).byteLength).toBe(0);
  });

  it('stops at the first chunk past the limit, cancels the stream and answers 413 closing the connection', async () => {
    const { stream, state } = endless();
    const err = await readCapped(stream, MAX_BODY_BYTES).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'payload_too_large', headers: { Connection: 'close' } });
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThanOrEqual(MAX_BODY_BYTES + 3 * 64 * 1024);
  });
});

describe('jsonBody in the app', () => {
  // Validation answers come before any route touches the database or Temporal (the site creation
  // rate limit, counted in the database before validation like the others, is off here).
  const app = createApp({
    config: loadConfig({ SITE_RATE_LIMIT: '0' }),
    db: undefined as never,
    temporal: undefined as never,
    logger: createLogger('test', 'silent'),
    policy: createTargetPolicy({ allowPrivate: false }),
    queues: taskQueues('unit'),
  });
  const id = '0b7e3f5a-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
  const patchIssue = `/api/sites/${id}/issues/${id}`;

  async function problem(res: Response, status: number, code: string) {
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = await res.json();
    expect(body).toMatchObject({ status, code });
    expect(res.status).toBe(status);
    return body;
  }

  it.each([
    ['no body, no content type', {}],
    ['an empty JSON body', { headers: { 'content-type': 'application/json' }, body: '' }],
  ])('a required body missing is 400 validation_error naming its fields: %s', async (_name, init) => {
    const patch = await problem(await app.request(patchIssue, { method: 'PATCH', ...init }), 400, 'validation_error');
    expect(patch.errors.map((e: { path: string }) => e.path)).toEqual(['status']);
    const site = await problem(await app.request('/api/sites', { method: 'POST', ...init }), 400, 'validation_error');
    expect(site.errors.map((e: { path: string }) => e.path)).toEqual(['url']);
  });

  it('answers 415 for a body without a content type', async () => {
    await problem(await app.request('/api/sites', { method: 'POST', body: '{"url":"https://example.org/"}' }), 415, 'unsupported_media_type');
  });

  it.each([
    ['NUL', '{"url":"https://example.org/\\u0000"}', 'url'],
    ['lone surrogate', '{"url":"https://example.org/","extra":{"list":["ok","\\ud800"]}}', 'extra.list.1'],
  ])('refuses a %s in a body string with 400 validation_error naming its path', async (_name, body, path) => {
    const res = await app.request('/api/sites', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const problemBody = await problem(res, 400, 'validation_error');
    expect(problemBody.errors).toEqual([{ path, message: expect.any(String) }]);
  });

  it('answers 413 to a streamed body as soon as it passes 1 MiB', async () => {
    const { stream, state } = endless();
    const res = await app.request('/api/sites', { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    await problem(res, 413, 'payload_too_large');
    expect(res.headers.get('connection')).toBe('close');
    expect(state.cancelled).toBe(true);
  });
});
