import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { isIP } from 'node:net';
import { fetch, type Agent, type Response } from 'undici';
import { pinnedAgent } from '../security/pinned-agent.ts';
import type { TargetPolicy } from '../security/target-policy.ts';
import { normalizeUrl, sameSite } from '../shared/urls.ts';
import { parseRetryAfter, THROTTLE_STATUSES } from '../shared/politeness.ts';

export const USER_AGENT = 'a11y-audit/1.0 (+accessibility audit; discovery)';
/** Bytes of an HTML page read for its links (the scan itself loads the page in the browser). */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const gunzipAsync = promisify(gunzip);

export type FetchOutcome =
  /** `truncated`: the body went past the byte cap and only its start was read. */
  | { kind: 'html'; finalUrl: string; status: number; body: string; truncated?: boolean }
  | { kind: 'not-html'; finalUrl: string; contentType: string }
  /** With `document`: the file's bytes as sent (no more than `maxBytes`), whatever its type. */
  | { kind: 'document'; finalUrl: string; status: number; contentType: string; bytes: Buffer; etag?: string; lastModified?: string }
  | { kind: 'broken'; finalUrl: string; status: number }
  | { kind: 'off-site'; location: string }
  | { kind: 'forbidden'; reason: string }
  /** 429 or 503: the site asks for a pause (`retryAfterMs` when it said how long); the URL is fetched again later. */
  | { kind: 'throttled'; finalUrl: string; status: number; retryAfterMs?: number }
  | { kind: 'unreachable'; finalUrl: string; code: UnreachableCode; message: string };

export type UnreachableCode = 'timeout' | 'http_error' | 'connection_failed' | 'dns_error' | 'connection_refused' | 'too_large' | 'invalid_response' | 'rate_limited';

export interface FetchOptions {
  siteUrl: string;
  policy: TargetPolicy;
  timeoutMs: number;
  retries?: number;
  /** Set for robots.txt and sitemaps: any content type is read. */
  accept?: string;
  /** Bytes read from the wire (default MAX_PAGE_BYTES); past it the body is cut (`truncated`). */
  maxBytes?: number;
  /** Bytes a gzipped body may expand to (default 4 x maxBytes); past it the URL is `too_large`. */
  maxDecodedBytes?: number;
  /** The site's authentication headers (its own, Cookie, Authorization), sent to its origin only. */
  auth?: FetchAuth;
  /**
   * Fetch a document (a PDF) rather than a page: any content type, the body as bytes, and a body
   * past `maxBytes` is `too_large` rather than cut (half a file cannot be audited).
   */
  document?: boolean;
}

/** Request headers of a site's authentication set-up, and the one origin that gets them. */
export interface FetchAuth {
  origin: string;
  headers: Record<string, string>;
}

/** The body up to `cap` bytes; the read stops (and the connection is dropped) past it. */
export async function readCapped(res: Response, cap: number): Promise<{ raw: Buffer; truncated: boolean }> {
  if (!res.body) return { raw: Buffer.alloc(0), truncated: false };
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { raw: Buffer.concat(chunks), truncated: false };
      if (size + value.byteLength > cap) {
        chunks.push(Buffer.from(value.subarray(0, cap - size)));
        return { raw: Buffer.concat(chunks), truncated: true };
      }
      size += value.byteLength;
      chunks.push(Buffer.from(value));
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * A gzip body (a `.xml.gz` sitemap, or a server that compresses without saying so) expanded off
 * the event loop with an output cap, so a gzip bomb costs at most `cap` bytes; other bodies as they are.
 */
export async function decodeBody(raw: Buffer, cap: number): Promise<{ ok: true; text: string } | { ok: false; code: 'too_large' | 'bad_gzip'; message: string }> {
  if (!(raw[0] === 0x1f && raw[1] === 0x8b)) return { ok: true, text: raw.toString('utf8') };
  try {
    return { ok: true, text: (await gunzipAsync(raw, { maxOutputLength: cap })).toString('utf8') };
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      return { ok: false, code: 'too_large', message: `expands to more than ${Math.round(cap / 1024 / 1024)} MiB when decompressed` };
    }
    return { ok: false, code: 'bad_gzip', message: `not valid gzip: ${(err as Error).message}` };
  }
}

/** The policy's reason when the pool's lookup refused the address a name resolved to. */
export function forbiddenReason(err: unknown): string | undefined {
  for (let e: any = err, depth = 0; e && depth < 4; e = e.cause, depth++) if (e.code === 'EFORBIDDEN') return String(e.message);
  return undefined;
}

/**
 * Why undici refused the server's bytes as HTTP, if it did: its parser's errors, headers past its
 * limit, lengths that disagree, a 101 nobody asked for, a body that is not what its encoding says,
 * and the assertion a status below 100 trips in its parser. The same answer on every try.
 */
function invalidHttp(cause: { name?: string; code?: string; message?: string } | undefined): string | undefined {
  const message = cause?.message ?? '';
  if (cause?.name === 'HTTPParserError') return /\((.+)\)\s*$/.exec(message)?.[1] ?? message;
  if (cause?.code === 'UND_ERR_HEADERS_OVERFLOW') return 'headers larger than the client accepts';
  if (cause?.code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return 'a body whose length does not match its Content-Length';
  if (cause?.code === 'UND_ERR_SOCKET' && message === 'bad upgrade') return 'it switched protocols (101) on a plain request';
  if (cause?.code === 'ERR_ASSERTION' && /statusCode >= 100/.test(message)) return 'a status below 100';
  if (cause?.code?.startsWith('Z_')) return `a body that is not what its Content-Encoding says (${message})`;
  return undefined;
}

function networkCode(err: unknown): { code: 'timeout' | 'connection_failed' | 'dns_error' | 'connection_refused' | 'invalid_response'; message: string } {
  const cause = (err as { cause?: { name?: string; code?: string; message?: string } })?.cause;
  const code = cause?.code ?? (err as { code?: string })?.code ?? '';
  const message = cause?.message ?? (err instanceof Error ? err.message : String(err));
  const invalid = invalidHttp(cause);
  if (invalid !== undefined) return { code: 'invalid_response', message: `the answer is not valid HTTP: ${invalid}` };
  if ((err as Error)?.name === 'TimeoutError' || (err as Error)?.name === 'AbortError' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return { code: 'timeout', message: 'no answer in time' };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'dns_error', message };
  if (code === 'ECONNREFUSED') return { code: 'connection_refused', message };
  return { code: 'connection_failed', message };
}

/** A document's body, whole: one past `maxBytes` is `too_large` (its start alone cannot be audited). */
async function readDocument(res: Response, finalUrl: string, contentType: string, maxBytes: number): Promise<FetchOutcome> {
  const declared = Number(res.headers.get('content-length'));
  const tooLarge = (): FetchOutcome => ({ kind: 'unreachable', finalUrl, code: 'too_large', message: `the document is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB (DOCUMENT_MAX_BYTES)` });
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    return tooLarge();
  }
  try {
    const read = await readCapped(res, maxBytes);
    if (read.truncated) return tooLarge();
    const etag = res.headers.get('etag') ?? undefined;
    const lastModified = res.headers.get('last-modified') ?? undefined;
    return { kind: 'document', finalUrl, status: res.status, contentType: contentType || 'unknown', bytes: read.raw, ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
  } catch (err) {
    const n = networkCode(err);
    return { kind: 'unreachable', finalUrl, code: n.code, message: n.code === 'timeout' ? 'the document did not arrive in time' : `the document could not be read: ${n.message}` };
  }
}

/**
 * One plain HTTP GET for discovery (no browser), following redirects by hand so that every hop
 * is held to the target policy and to the site: a redirect off the site is reported, never followed.
 * 5xx and timeouts get `retries` more tries.
 */
export async function fetchPage(url: string, opts: FetchOptions): Promise<FetchOutcome> {
  try {
    return await fetchPageOnce(url, opts);
  } catch (err) {
    // A body that stalls, resets or is cut off mid-way: that URL's failure, never discovery's.
    return { kind: 'unreachable', finalUrl: url, ...networkCode(err) };
  }
}

async function fetchPageOnce(url: string, opts: FetchOptions): Promise<FetchOutcome> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const target = new URL(current);
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    // A name is resolved once, by the pool's lookup, which vets the answer and connects to it; an
    // address in the URL involves no lookup, so it is vetted here.
    if (isIP(target.hostname.replace(/^\[|\]$/g, ''))) {
      const verdict = await opts.policy.pin(target.hostname, port);
      if (verdict.allowed === false) return { kind: 'forbidden', reason: verdict.reason };
    }
    const dispatcher = pinnedAgent(opts.policy, port);
    const outcome = await fetchHop(current, dispatcher, opts);
    if (outcome.kind !== 'redirect') return outcome;
    current = outcome.next;
  }
  return { kind: 'broken', finalUrl: current, status: 310 };
}

/** One request of `fetchPage`: an outcome, or the next same-site hop of a redirect. */
async function fetchHop(current: string, dispatcher: Agent, opts: FetchOptions): Promise<FetchOutcome | { kind: 'redirect'; next: string }> {
  let res: Response | undefined;
  let failure: FetchOutcome | undefined;
  for (let attempt = 0; attempt <= (opts.retries ?? 1); attempt++) {
    try {
      res = await fetch(current, {
        dispatcher,
        redirect: 'manual',
        signal: AbortSignal.timeout(opts.timeoutMs),
        headers: {
          // Checked per hop: a redirect to another origin (a sibling host) does not carry them.
          ...(opts.auth && new URL(current).origin === opts.auth.origin ? opts.auth.headers : {}),
          'user-agent': USER_AGENT,
          accept: opts.accept ?? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
        },
      });
      // undici takes any three digits for a status (below 100 it throws, see invalidHttp).
      if (res.status > 599) {
        await res.body?.cancel().catch(() => {});
        return { kind: 'unreachable', finalUrl: current, code: 'invalid_response', message: `the answer is not valid HTTP: status ${res.status}, outside 100-599` };
      }
      if (THROTTLE_STATUSES.has(res.status)) {
        // Not the page's answer: the site asks for a pause. The caller waits and tries again later.
        const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
        await res.body?.cancel().catch(() => {});
        return { kind: 'throttled', finalUrl: current, status: res.status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
      }
      if (res.status >= 500) {
        failure = { kind: 'unreachable', finalUrl: current, code: 'http_error', message: `HTTP ${res.status}` };
        await res.body?.cancel().catch(() => {});
        res = undefined;
      } else break;
    } catch (err) {
      const refused = forbiddenReason(err);
      if (refused !== undefined) return { kind: 'forbidden', reason: refused };
      const n = networkCode(err);
      failure = { kind: 'unreachable', finalUrl: current, ...n };
      if (n.code === 'dns_error' || n.code === 'connection_refused' || n.code === 'invalid_response') break;
    }
    if (attempt < (opts.retries ?? 1)) await new Promise((r) => setTimeout(r, 300 * (attempt + 1)));
  }
  if (!res) return failure!;
  if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
    await res.body?.cancel().catch(() => {});
    const next = normalizeUrl(res.headers.get('location')!, current);
    if (!next) return { kind: 'broken', finalUrl: current, status: res.status };
    if (!sameSite(next, opts.siteUrl)) return { kind: 'off-site', location: next };
    return { kind: 'redirect', next };
  }
  if (res.status >= 400) {
    await res.body?.cancel().catch(() => {});
    return { kind: 'broken', finalUrl: current, status: res.status };
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (opts.document) return readDocument(res, current, type, opts.maxBytes ?? MAX_PAGE_BYTES);
  if (opts.accept === undefined && type !== 'text/html' && type !== 'application/xhtml+xml') {
    await res.body?.cancel().catch(() => {});
    return { kind: 'not-html', finalUrl: current, contentType: type || 'unknown' };
  }
  const maxBytes = opts.maxBytes ?? MAX_PAGE_BYTES;
  let read: { raw: Buffer; truncated: boolean };
  try {
    read = await readCapped(res, maxBytes);
  } catch (err) {
    const n = networkCode(err);
    const message = n.code === 'timeout' ? 'the body did not arrive in time' : n.code === 'invalid_response' ? n.message : `the body could not be read: ${n.message}`;
    return { kind: 'unreachable', finalUrl: current, code: n.code, message };
  }
  const decoded = await decodeBody(read.raw, opts.maxDecodedBytes ?? maxBytes * 4);
  if (!decoded.ok) {
    return { kind: 'unreachable', finalUrl: current, code: decoded.code === 'too_large' ? 'too_large' : 'connection_failed', message: decoded.message };
  }
  return { kind: 'html', finalUrl: current, status: res.status, body: decoded.text, ...(read.truncated ? { truncated: true } : {}) };
}
