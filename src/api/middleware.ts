import { randomUUID, timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { countRequest, sweepRateLimitWindows } from '../db/repositories/rate-limit.repository.ts';
import type { Logger } from '../logger.ts';
import { ApiError } from './errors.ts';
import type { HonoEnv } from './env.ts';

/** A client's own X-Request-Id is echoed when it looks like an id; anything else gets a fresh UUID. */
export const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** X-Request-Id on every response (the client's, if it sent a sane one) and a JSON access log. */
export function requestContext(logger: Logger): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const sent = c.req.header('x-request-id');
    const requestId = sent && REQUEST_ID.test(sent) ? sent : randomUUID();
    c.set('requestId', requestId);
    c.set('logger', logger.child({ requestId }));
    const start = performance.now();
    await next();
    c.header('X-Request-Id', requestId);
    const ms = Math.round(performance.now() - start);
    logger.info({ requestId, method: c.req.method, path: c.req.path, status: c.res.status, ms }, 'request');
  };
}

/** Bearer keys from API_KEYS; compared in constant time. */
export function bearerAuth(keys: readonly string[]): MiddlewareHandler<HonoEnv> {
  const wanted = keys.map((k) => Buffer.from(k));
  return async (c, next) => {
    if (wanted.length === 0) return next();
    const header = c.req.header('authorization') ?? '';
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    const given = m ? Buffer.from(m[1]!) : undefined;
    const ok = given !== undefined && wanted.some((w) => w.length === given.length && timingSafeEqual(w, given));
    if (!ok) {
      throw new ApiError('unauthorized', m ? 'the API key is not valid' : 'send Authorization: Bearer <api key>', {
        headers: { 'WWW-Authenticate': 'Bearer realm="a11y-audit"' },
      });
    }
    return next();
  };
}

/**
 * The client's address. Behind a proxy (TRUST_PROXY) that is the right-most X-Forwarded-For entry,
 * the one our proxy appended: entries to its left come from the client and may be anything. An
 * entry that is not an IP address is ignored and the connection's address used instead.
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = rightMostForwarded(c.req.header('x-forwarded-for'));
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The last X-Forwarded-For entry when it is a valid IP address (brackets and ports tolerated), in canonical form. */
export function rightMostForwarded(header: string | undefined): string | undefined {
  const last = header?.split(',').at(-1)?.trim();
  if (!last) return undefined;
  const bare = /^\[([^\]]+)\](?::\d+)?$/.exec(last)?.[1] ?? (/^[\d.]+:\d+$/.test(last) ? last.slice(0, last.lastIndexOf(':')) : last);
  return ipaddr.isValid(bare) ? ipaddr.process(bare).toString() : undefined;
}

/**
 * The rate-limit bucket of an address: an IPv4 address (IPv4-mapped IPv6 included) on its own, an
 * IPv6 address by its /64, since one client usually holds a whole /64 and could rotate within it.
 */
export function rateLimitBucket(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

const WINDOW_SECONDS = 3600;

/**
 * Fixed one-hour windows counted in PostgreSQL, so every API process shares one count.
 * The increment is one atomic upsert; old windows are swept now and then.
 */
export function rateLimit(opts: { db: Database; config: Config; name: string; limit: number }): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    if (opts.limit <= 0) return next();
    const bucket = rateLimitBucket(clientIp(c, opts.config.trustProxy));
    const now = Date.now();
    const windowStart = new Date(Math.floor(now / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS * 1000);
    const count = await countRequest(opts.db, `${opts.name}:${bucket}`, windowStart);
    if (Math.random() < 0.01) await sweepRateLimitWindows(opts.db, new Date(now - 2 * WINDOW_SECONDS * 1000));
    const reset = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_SECONDS * 1000 - now) / 1000));
    const headers = {
      'RateLimit-Limit': String(opts.limit),
      'RateLimit-Remaining': String(Math.max(0, opts.limit - count)),
      'RateLimit-Reset': String(reset),
    };
    if (count > opts.limit) {
      throw new ApiError('rate_limited', `at most ${opts.limit} ${opts.name === 'crawl' ? 'crawl starts' : 'requests'} per hour; try again in ${reset} seconds`, {
        headers: { ...headers, 'Retry-After': String(reset) },
      });
    }
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}
