import { randomUUID, timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { ApiError } from './errors.ts';
import type { HonoEnv } from './env.ts';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

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

export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const fwd = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (fwd) return fwd;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

const WINDOW_SECONDS = 3600;

/**
 * Fixed one-hour windows counted in PostgreSQL, so every API process shares one count.
 * The increment is one atomic upsert; old windows are swept now and then.
 */
export function rateLimit(opts: { db: Database; config: Config; name: string; limit: number }): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    if (opts.limit <= 0) return next();
    const ip = clientIp(c, opts.config.trustProxy);
    const now = Date.now();
    const windowStart = new Date(Math.floor(now / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS * 1000);
    const row = await opts.db
      .insertInto('rate_limit_windows')
      .values({ key: `${opts.name}:${ip}`, window_start: windowStart, count: 1 })
      .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ count: sql`rate_limit_windows.count + 1` }))
      .returning('count')
      .executeTakeFirstOrThrow();
    if (Math.random() < 0.01) {
      await opts.db.deleteFrom('rate_limit_windows').where('window_start', '<', new Date(now - 2 * WINDOW_SECONDS * 1000)).execute();
    }
    const reset = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_SECONDS * 1000 - now) / 1000));
    const headers = {
      'RateLimit-Limit': String(opts.limit),
      'RateLimit-Remaining': String(Math.max(0, opts.limit - row.count)),
      'RateLimit-Reset': String(reset),
    };
    if (row.count > opts.limit) {
      throw new ApiError('rate_limited', `at most ${opts.limit} requests per hour; try again in ${reset} seconds`, {
        headers: { ...headers, 'Retry-After': String(reset) },
      });
    }
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}
