import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from './errors.ts';
import type { HonoEnv } from './env.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

const BODY_METHODS = ['POST', 'PUT', 'PATCH'];
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/;

const tooLarge = (headers?: Record<string, string>) =>
  new ApiError('payload_too_large', `the body must be at most ${MAX_BODY_BYTES} bytes`, { headers });

/**
 * Reads a body as it streams, so a chunked body is counted too, and stops at the first byte past
 * the limit. The rest is never read: the 413 closes the connection instead of waiting for an end
 * that may never come.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge({ Connection: 'close' });
    }
    chunks.push(value);
  }
}

interface Visit {
  value: unknown;
  key?: string;
  parent?: Visit;
}

const pathOf = (v: Visit): string => {
  const keys: string[] = [];
  for (let at: Visit | undefined = v; at?.key !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
};

const flaw = (s: string) =>
  s.includes('\u0000') ? 'must not contain a NUL character (\\u0000)' : s.isWellFormed() ? undefined : 'must not contain an unpaired surrogate';

/**
 * The first string (key or value, in document order) that PostgreSQL would refuse: text cannot hold
 * NUL, and a lone surrogate has no UTF-8 form. Iterative, because JSON.parse accepts nesting far
 * deeper than the call stack.
 */
export function findUnstorableString(root: unknown): { path: string; message: string } | undefined {
  const stack: Visit[] = [{ value: root }];
  for (let v = stack.pop(); v; v = stack.pop()) {
    if (typeof v.value === 'string') {
      const message = flaw(v.value);
      if (message) return { path: pathOf(v), message };
    } else if (v.value !== null && typeof v.value === 'object') {
      const entries = Object.entries(v.value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, value] = entries[i]!;
        const child = { value, key, parent: v };
        const message = flaw(key);
        if (message) return { path: pathOf(child), message: `its key ${message}` };
        stack.push(child);
      }
    }
  }
  return undefined;
}

function parseJson(bytes: Uint8Array): { text: string; value: unknown } {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { text, value: JSON.parse(text) };
  } catch {
    throw new ApiError('invalid_json', 'the request body is not valid JSON');
  }
}

/** Hono keeps promises in bodyCache, though its type says otherwise; the route validator reads the text from there. */
function cacheText(c: Context<HonoEnv>, text: string): void {
  (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
}

/**
 * Bodies: at most 1 MiB (413), JSON only (415), parseable (400 invalid_json), every string storable
 * (400 validation_error). An empty JSON body reads as `{}`, as Hono already reads a request without
 * a content type, so the route's schema names each missing field instead of answering invalid_json.
 */
export function jsonBody(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    if (!BODY_METHODS.includes(c.req.method)) return next();
    if (Number(c.req.header('content-length')) > MAX_BODY_BYTES) throw tooLarge();
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const bytes = await readCapped(c.req.raw.body, MAX_BODY_BYTES);
    if (bytes.byteLength === 0) {
      // Any other empty body stays empty, so the route's own media type check still sees no body.
      cacheText(c, JSON_TYPE.test(type) ? '{}' : '');
      return next();
    }
    if (!JSON_TYPE.test(type)) {
      throw new ApiError('unsupported_media_type', `send the body as application/json, not ${type || 'without a content type'}`);
    }
    const { text, value } = parseJson(bytes);
    const bad = findUnstorableString(value);
    if (bad) {
      const path = bad.path || 'body';
      throw new ApiError('validation_error', `${path}: ${bad.message}`, { errors: [{ path, message: bad.message }] });
    }
    cacheText(c, text);
    return next();
  };
}
