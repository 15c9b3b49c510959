import fc from 'fast-check';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../../src/cli/api-client.ts';
import { EventsDroppedError, EventsUnavailableError, followEvents, readSse, SseParser, watchUntilEnded, type SseEvent } from '../../../src/cli/events.ts';

interface Run {
  id: string;
  status: string;
  n?: number;
}

const encoder = new TextEncoder();

/** A response whose body gives the chunks, then ends, or breaks as a dropped connection does. */
function sseResponse(chunks: Array<string | Uint8Array>, end: 'close' | 'drop' = 'close', init: ResponseInit = {}): Response {
  const queue = chunks.map((c) => (typeof c === 'string' ? encoder.encode(c) : c));
  // One chunk per read, so that a drop comes after the chunks are read (an errored stream discards its queue).
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next) controller.enqueue(next);
      else if (end === 'drop') controller.error(new TypeError('terminated'));
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' }, ...init });
}

const update = (id: number, run: Run) => `id: ${id}\nevent: update\ndata: ${JSON.stringify(run)}\n\n`;

interface FakeCall {
  url: string;
  headers: Record<string, string>;
}

/** A fetch that answers the calls in order, recording what each one sent. */
function scriptedFetch(answers: Array<() => Response | Promise<Response>>) {
  const calls: FakeCall[] = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
    const answer = answers[calls.length - 1];
    if (!answer) throw new Error(`unexpected call ${calls.length}`);
    return answer();
  }) as typeof fetch;
  return { fetch: fetchFn, calls };
}

function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

const isEnded = (r: Run) => ['completed', 'completed_partial', 'failed', 'cancelled'].includes(r.status);
const parseRun = (data: string) => JSON.parse(data) as Run;

function collect(parser: SseParser, chunks: string[]): SseEvent[] {
  return chunks.flatMap((c) => parser.push(c));
}

describe('SseParser', () => {
  it('joins multi-line data, ignores comments and unknown fields, keeps the event type and id', () => {
    const events = collect(new SseParser(), [': keep-alive\n', 'id: 7\nevent: update\ndata: {"a":\ndata:  1}\nfoo: bar\n\n', ':another\n\n', 'data\n\n']);
    expect(events).toEqual([
      { id: '7', type: 'update', data: '{"a":\n 1}' },
      // A field with no colon is that field with an empty value; the id carries over.
      { id: '7', type: 'message', data: '' },
    ]);
  });

  it('treats CRLF, CR and LF alike, also when a CRLF is split across chunks', () => {
    expect(collect(new SseParser(), ['data: a\r', '\n\r', '\ndata: b\rdata: c\r\r', 'data: d\n', '\n'])).toEqual([
      { id: '', type: 'message', data: 'a' },
      { id: '', type: 'message', data: 'b\nc' },
      { id: '', type: 'message', data: 'd' },
    ]);
  });

  it('takes retry as a number, ignores an id with NUL and blank events', () => {
    const p = new SseParser();
    expect(collect(p, ['retry: 1500\nid: 4\n\n', 'retry: soon\n', 'id: x\0y\ndata: z\n\n'])).toEqual([{ id: '4', type: 'message', data: 'z' }]);
    expect(p.retryMs).toBe(1500);
    expect(p.lastEventId).toBe('4');
  });

  it('gives the same events however the stream is cut into chunks', () => {
    const line = fc.stringMatching(/^[^\r\n]*$/);
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.integer({ min: 0, max: 1e6 }), data: fc.array(line, { minLength: 1, maxLength: 3 }) }), { maxLength: 5 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat(), { maxLength: 8 }),
        (events, eol, cuts) => {
          const text = events.map((e) => [`id: ${e.id}`, 'event: update', ...e.data.map((d) => `data: ${d}`), ': ping', ''].join(eol) + eol).join('');
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...points].map((p, i, all) => text.slice(p, all[i + 1] ?? text.length));
          const got = collect(new SseParser(), chunks);
          expect(got).toEqual(events.map((e) => ({ id: String(e.id), type: 'update', data: e.data.join('\n') })));
        },
      ),
    );
  });
});

describe('readSse', () => {
  it('decodes UTF-8 split across chunks, drops a leading BOM and an event cut off by the end', async () => {
    const bytes = encoder.encode('\uFEFFdata: caf\u00e9 \u{1F600}\n\ndata: unfinished\n');
    const at = bytes.indexOf(0xf0) + 2; // inside the emoji's four bytes
    const res = sseResponse([bytes.slice(0, 3), bytes.slice(3, at), bytes.slice(at)]);
    const events: SseEvent[] = [];
    for await (const e of readSse(res.body!)) events.push(e);
    expect(events).toEqual([{ id: '', type: 'message', data: 'caf\u00e9 \u{1F600}' }]);
  });
});

describe('followEvents', () => {
  const base = { url: 'http://api.test/api/scans/s1/events', headers: { authorization: 'Bearer k' }, parse: parseRun, isEnded };

  it('follows updates to the ended status, resuming with Last-Event-ID after a drop', async () => {
    const { fetch, calls } = scriptedFetch([
      () => sseResponse([': hello\n\n', update(1, { id: 's1', status: 'queued' }), update(2, { id: 's1', status: 'running', n: 40 }), 'id: 3\ndata: {"trunc'], 'drop'),
      () => sseResponse([update(3, { id: 's1', status: 'running', n: 80 }), update(4, { id: 's1', status: 'completed', n: 100 })]),
    ]);
    const { sleep, waits } = recordingSleep();
    const seen: Run[] = [];
    const end = await followEvents({ ...base, fetch, signal: new AbortController().signal, sleep, onUpdate: (r) => seen.push(r) });
    expect(end).toEqual({ id: 's1', status: 'completed', n: 100 });
    expect(seen.map((r) => r.status)).toEqual(['queued', 'running', 'running', 'completed']);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.headers).toMatchObject({ accept: 'text/event-stream', authorization: 'Bearer k' });
    expect(calls[0]!.headers['last-event-id']).toBeUndefined();
    // The cut-off event 3 was never dispatched, so the resume asks from 2.
    expect(calls[1]!.headers['last-event-id']).toBe('2');
    expect(waits).toHaveLength(1);
  });

  it('reconnects when the server closes the stream before the end, with the retry time it asked for', async () => {
    const { fetch, calls } = scriptedFetch([
      () => sseResponse(['retry: 700\n', update(5, { id: 's1', status: 'running' })]),
      () => sseResponse([update(6, { id: 's1', status: 'failed' })]),
    ]);
    const { sleep, waits } = recordingSleep();
    const end = await followEvents({ ...base, fetch, signal: new AbortController().signal, sleep, onUpdate: () => {} });
    expect(end.status).toBe('failed');
    expect(calls[1]!.headers['last-event-id']).toBe('5');
    expect(waits).toEqual([700]);
  });

  it('skips events of other types', async () => {
    const { fetch } = scriptedFetch([() => sseResponse(['event: ping\ndata: {}\n\n', update(1, { id: 's1', status: 'cancelled' })])]);
    const seen: Run[] = [];
    await followEvents({ ...base, fetch, signal: new AbortController().signal, onUpdate: (r) => seen.push(r) });
    expect(seen).toEqual([{ id: 's1', status: 'cancelled' }]);
  });

  it('says the events route is unavailable on 404, 405 and answers that are not event streams', async () => {
    for (const res of [
      () => new Response('{"code":"not_found"}', { status: 404, headers: { 'content-type': 'application/problem+json' } }),
      () => new Response('', { status: 405 }),
      () => new Response('<html></html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    ]) {
      const { fetch } = scriptedFetch([res]);
      await expect(followEvents({ ...base, fetch, signal: new AbortController().signal, onUpdate: () => {} })).rejects.toBeInstanceOf(EventsUnavailableError);
    }
  });

  it('throws the problem of a refused request at once', async () => {
    const { fetch, calls } = scriptedFetch([
      () => new Response(JSON.stringify({ status: 401, code: 'unauthorized', detail: 'the API key is not valid' }), { status: 401, headers: { 'content-type': 'application/problem+json' } }),
    ]);
    const err = await followEvents({ ...base, fetch, signal: new AbortController().signal, onUpdate: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiRequestError);
    expect((err as ApiRequestError).message).toBe('the API key is not valid (unauthorized, HTTP 401)');
    expect(calls).toHaveLength(1);
  });

  it('retries 503 answers and network errors, then gives up after the reconnect budget', async () => {
    const { fetch, calls } = scriptedFetch([
      () => new Response('busy', { status: 503 }),
      () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })),
      () => sseResponse([], 'drop'),
    ]);
    const { sleep, waits } = recordingSleep();
    const err = await followEvents({ ...base, fetch, signal: new AbortController().signal, sleep, maxReconnects: 2, backoffMs: (a) => 100 * (a + 1), onUpdate: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EventsDroppedError);
    expect((err as Error).message).toBe('the event stream broke 3 times in a row (last: terminated)');
    expect(calls).toHaveLength(3);
    expect(waits).toEqual([100, 200]);
  });

  it('resets the reconnect budget whenever an event arrives', async () => {
    const answers = Array.from({ length: 6 }, (_, i) => () => sseResponse([update(i + 1, { id: 's1', status: 'running', n: i })], 'drop'));
    answers.push(() => sseResponse([update(7, { id: 's1', status: 'completed' })]));
    const { fetch } = scriptedFetch(answers);
    const end = await followEvents({ ...base, fetch, signal: new AbortController().signal, sleep: recordingSleep().sleep, maxReconnects: 1, onUpdate: () => {} });
    expect(end.status).toBe('completed');
  });

  it('stops with the abort reason when the run is aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('timed out');
    const fetchFn = ((_: unknown, init?: RequestInit) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))) as typeof fetch;
    const pending = followEvents({ ...base, fetch: fetchFn, signal: controller.signal, onUpdate: () => {} });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});

describe('watchUntilEnded', () => {
  it('polls every interval when the server has no events route', async () => {
    const { fetch } = scriptedFetch([() => new Response('', { status: 404 })]);
    const polls: Run[] = [
      { id: 's1', status: 'queued' },
      { id: 's1', status: 'running' },
      { id: 's1', status: 'completed' },
    ];
    const { sleep, waits } = recordingSleep();
    const notices: string[] = [];
    const seen: string[] = [];
    const end = await watchUntilEnded({
      eventsUrl: 'http://api.test/x/events',
      headers: {},
      fetch,
      signal: new AbortController().signal,
      sleep,
      parse: parseRun,
      isEnded,
      onUpdate: (r) => seen.push(r.status),
      poll: async () => polls.shift()!,
      notice: (m) => notices.push(m),
    });
    expect(end.status).toBe('completed');
    expect(seen).toEqual(['queued', 'running', 'completed']);
    expect(waits).toEqual([1000, 1000]);
    expect(notices).toEqual(['live events not available (the server has no events route (404)); polling every 1 s']);
  });

  it('polls when the stream keeps breaking, and does not when the request is refused', async () => {
    const dropping = scriptedFetch(Array.from({ length: 3 }, () => () => sseResponse([], 'drop')));
    const notices: string[] = [];
    const common = { eventsUrl: 'http://api.test/x/events', headers: {}, signal: new AbortController().signal, sleep: recordingSleep().sleep, parse: parseRun, isEnded, onUpdate: () => {} };
    const end = await watchUntilEnded({ ...common, fetch: dropping.fetch, maxReconnects: 2, poll: async () => ({ id: 's1', status: 'completed' }), notice: (m) => notices.push(m) });
    expect(end.status).toBe('completed');
    expect(notices[0]).toMatch(/broke 3 times in a row.*; polling instead/);

    const refused = scriptedFetch([() => new Response('{"code":"unauthorized","detail":"no"}', { status: 401, headers: { 'content-type': 'application/problem+json' } })]);
    let polled = false;
    await expect(
      watchUntilEnded({ ...common, fetch: refused.fetch, poll: async () => ((polled = true), { id: 's1', status: 'completed' }), notice: () => {} }),
    ).rejects.toBeInstanceOf(ApiRequestError);
    expect(polled).toBe(false);
  });
});

describe('followEvents over a real connection', () => {
  let server: Server;
  let url: string;
  const requests: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.headers);
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      if (req.headers['last-event-id'] === undefined) {
        // Two whole events and half of a third, then the connection is cut.
        res.write(': keep-alive\n\n');
        res.write(update(1, { id: 'c1', status: 'running', n: 1 }));
        res.write(`id: 2\nevent: update\ndata: {"id":"c1",\ndata: "status":"running","n":2}\n\n`);
        res.write('id: 3\nevent: update\ndata: {"id":"c1","sta');
        setTimeout(() => res.socket?.destroy(), 20);
      } else {
        res.write(update(3, { id: 'c1', status: 'running', n: 3 }));
        res.end(update(4, { id: 'c1', status: 'completed_partial', n: 4 }));
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/sites/x/crawls/c1/events`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('reads multi-line data and resumes after the socket is destroyed mid-event', async () => {
    const seen: Array<number | undefined> = [];
    const end = await followEvents({ url, headers: { authorization: 'Bearer t' }, fetch, signal: AbortSignal.timeout(10_000), parse: parseRun, isEnded, onUpdate: (r) => seen.push(r.n), backoffMs: () => 10 });
    expect(end).toEqual({ id: 'c1', status: 'completed_partial', n: 4 });
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(requests.map((h) => h['last-event-id'])).toEqual([undefined, '2']);
    expect(requests[0]).toMatchObject({ accept: 'text/event-stream', authorization: 'Bearer t' });
  });
});
