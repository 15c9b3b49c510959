/**
 * A minimal Server-Sent Events client over fetch streaming, as the HTML standard interprets an
 * event stream, plus the follow-until-ended loop the CLI needs: resume with Last-Event-ID when the
 * connection drops, and poll instead when the server has no events route.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { ApiRequestError, problemFromResponse } from './api-client.ts';

export interface SseEvent {
  /** The last event id seen so far in the stream (the standard's "last event ID string"). */
  id: string;
  type: string;
  data: string;
}

/** Incremental parser: feed it decoded text in chunks of any size, get whole events back. */
export class SseParser {
  #buffer = '';
  /** Where the search for the next line end resumes, so a long line arriving in chunks is scanned once. */
  #scanFrom = 0;
  /** A chunk ended with CR: an LF at the start of the next chunk belongs to the same line end. */
  #pendingCr = false;
  #data: string[] = [];
  #type = '';
  #idBuffer = '';
  lastEventId = '';
  /** The reconnection time the server asked for with `retry:`, if it did. */
  retryMs: number | undefined;

  /**
   * Forgets the half-read event of a connection that broke, as a new connection starts a new
   * stream; the last event id and the retry time carry over to it.
   */
  resetStream(): void {
    this.#buffer = '';
    this.#scanFrom = 0;
    this.#pendingCr = false;
    this.#data = [];
    this.#type = '';
    this.#idBuffer = this.lastEventId;
  }

  push(chunk: string): SseEvent[] {
    let text = chunk;
    if (this.#pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.#pendingCr = false;
    this.#buffer += text;
    const events: SseEvent[] = [];
    let start = 0;
    const buf = this.#buffer;
    for (let i = this.#scanFrom; i < buf.length; i++) {
      const c = buf.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      const line = buf.slice(start, i);
      if (c === 13) {
        if (i + 1 < buf.length) {
          if (buf.charCodeAt(i + 1) === 10) i++;
        } else {
          this.#pendingCr = true;
        }
      }
      start = i + 1;
      const event = this.#line(line);
      if (event) events.push(event);
    }
    this.#buffer = buf.slice(start);
    this.#scanFrom = this.#buffer.length;
    return events;
  }

  #line(line: string): SseEvent | undefined {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.#data.push(value);
        break;
      case 'event':
        this.#type = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.#idBuffer = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        break;
    }
    return undefined;
  }

  #dispatch(): SseEvent | undefined {
    this.lastEventId = this.#idBuffer;
    const data = this.#data;
    const type = this.#type || 'message';
    this.#data = [];
    this.#type = '';
    if (data.length === 0) return undefined;
    return { id: this.lastEventId, type, data: data.join('\n') };
  }
}

/** Events of a response body, in order; an event cut off by the end of the stream is dropped, as the standard says. */
export async function* readSse(body: ReadableStream<Uint8Array>, parser: SseParser = new SseParser()): AsyncGenerator<SseEvent> {
  // TextDecoder drops a leading byte order mark, as the standard asks.
  const decoder = new TextDecoder('utf-8');
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
  yield* parser.push(decoder.decode());
}

/** The server has no events route (404 or 405, or an answer that is not an event stream): poll instead. */
export class EventsUnavailableError extends Error {
  override name = 'EventsUnavailableError';
}

/** The stream kept dropping before the run ended. */
export class EventsDroppedError extends Error {
  override name = 'EventsDroppedError';
}

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const abortableSleep: Sleep = (ms, signal) => delay(ms, undefined, { signal });

export interface FollowOptions<T> {
  url: string;
  /** Sent with every request (authorisation). */
  headers: Record<string, string>;
  fetch: typeof fetch;
  signal: AbortSignal;
  /** Parses and checks one event's data; throws if it is not the object expected. */
  parse: (data: string) => T;
  isEnded: (value: T) => boolean;
  onUpdate: (value: T) => void;
  /** Failed connections in a row before giving up (an event received resets the count). */
  maxReconnects?: number;
  backoffMs?: (attempt: number) => number;
  sleep?: Sleep;
}

export const DEFAULT_MAX_RECONNECTS = 5;
const MAX_RETRY_MS = 30_000;
const defaultBackoff = (attempt: number) => Math.min(250 * 2 ** attempt, 5000);

const UPDATE_TYPES = new Set(['update', 'message']);

/**
 * Follows an events route until an event carries an ended status, and returns that value.
 * Throws EventsUnavailableError when there is no such route, EventsDroppedError when the stream
 * keeps breaking, ApiRequestError when the server refuses the request (401, 403, other 4xx).
 */
export async function followEvents<T>(o: FollowOptions<T>): Promise<T> {
  const maxReconnects = o.maxReconnects ?? DEFAULT_MAX_RECONNECTS;
  const backoff = o.backoffMs ?? defaultBackoff;
  const sleep = o.sleep ?? abortableSleep;
  const parser = new SseParser();
  let failures = 0;
  let lastProblem = '';
  for (;;) {
    parser.resetStream();
    const connection = new AbortController();
    const signal = AbortSignal.any([o.signal, connection.signal]);
    try {
      const headers: Record<string, string> = { ...o.headers, accept: 'text/event-stream', 'cache-control': 'no-cache' };
      if (parser.lastEventId !== '') headers['last-event-id'] = parser.lastEventId;
      const res = await o.fetch(o.url, { headers, signal });
      if (res.status === 404 || res.status === 405) {
        await res.body?.cancel();
        throw new EventsUnavailableError(`the server has no events route (${res.status})`);
      }
      if (!res.ok) {
        const problem = await problemFromResponse(res);
        // Refusals are final; overload and gateway trouble are worth another try.
        if (res.status < 500 && res.status !== 408 && res.status !== 429) throw new ApiRequestError(problem);
        lastProblem = `HTTP ${res.status}${problem.code ? ` ${problem.code}` : ''}`;
      } else if (!(res.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream') || !res.body) {
        await res.body?.cancel();
        throw new EventsUnavailableError(`the events route answered ${res.headers.get('content-type') ?? 'no content type'}, not an event stream`);
      } else {
        for await (const event of readSse(res.body, parser)) {
          if (!UPDATE_TYPES.has(event.type)) continue;
          const value = o.parse(event.data);
          failures = 0;
          o.onUpdate(value);
          if (o.isEnded(value)) return value;
        }
        lastProblem = 'the stream ended before the run did';
      }
    } catch (err) {
      if (o.signal.aborted) throw o.signal.reason;
      if (err instanceof EventsUnavailableError || err instanceof ApiRequestError || !isConnectionError(err)) throw err;
      lastProblem = describeConnectionError(err);
    } finally {
      connection.abort();
    }
    failures++;
    if (failures > maxReconnects) throw new EventsDroppedError(`the event stream broke ${failures} times in a row (last: ${lastProblem})`);
    // The server's `retry:` is honoured, within reason: this is a build waiting on it.
    await sleep(parser.retryMs !== undefined ? Math.min(parser.retryMs, MAX_RETRY_MS) : backoff(failures - 1), o.signal);
  }
}

/** fetch's network failures are TypeErrors (`fetch failed`, `terminated`) with the socket error as cause. */
function isConnectionError(err: unknown): boolean {
  return err instanceof TypeError || (err instanceof Error && 'code' in err && typeof err.code === 'string');
}

function describeConnectionError(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message;
}

export interface WatchOptions<T> extends Omit<FollowOptions<T>, 'url'> {
  eventsUrl: string;
  /** One GET of the object, for the polling fallback. */
  poll: () => Promise<T>;
  pollIntervalMs?: number;
  /** Says why the watch fell back to polling. */
  notice: (message: string) => void;
}

/** Follows the events route, or polls the object every second when events cannot be had. */
export async function watchUntilEnded<T>(o: WatchOptions<T>): Promise<T> {
  const sleep = o.sleep ?? abortableSleep;
  try {
    return await followEvents({ ...o, url: o.eventsUrl });
  } catch (err) {
    if (err instanceof EventsUnavailableError) o.notice(`live events not available (${err.message}); polling every ${(o.pollIntervalMs ?? 1000) / 1000} s`);
    else if (err instanceof EventsDroppedError) o.notice(`${err.message}; polling instead`);
    else throw err;
  }
  for (;;) {
    const value = await o.poll();
    o.onUpdate(value);
    if (o.isEnded(value)) return value;
    await sleep(o.pollIntervalMs ?? 1000, o.signal);
  }
}
