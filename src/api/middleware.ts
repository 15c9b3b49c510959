import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
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
export function rateLimit(opts: { db: Database; config: Config; name: string; limit: number; what: string }): MiddlewareHandler<HonoEnv> {
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
      throw new ApiError('rate_limited', `at most ${opts.limit} ${opts.what} per hour; try again in ${reset} seconds`, {
        headers: { ...headers, 'Retry-After': String(reset) },
      });
    }
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}

/** Probes need no Host check: load balancers and orchestrators call them by a pod's or node's address. */
export const GUARD_OPEN_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);
export const STATE_CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A URL's host name and port, brackets kept off an IPv6 literal. */
function hostAndPort(url: URL): { name: string; port: number } {
  const name = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { name, port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80 };
}

/** An IP address literal as a browser writes it in a Host header (dotted quad, or IPv6 without brackets here). */
function ipLiteral(name: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(name) || (name.includes(':') && ipaddr.IPv6.isValid(name))) return ipaddr.process(name);
  return undefined;
}

/**
 * The Host values an API without API_KEYS answers for, given the port the request came in on:
 * `localhost` and loopback literals on that port, the address or name it is bound to on that port
 * (any IP literal when bound to a wildcard address), and API_ALLOWED_HOSTS entries (`name` on any
 * port, `name:port` on that one). A DNS name is never accepted unless it is one of these, so a page
 * whose name an attacker rebinds to this server's address is refused: its requests carry its own name.
 */
export function hostAccepted(host: { name: string; port: number }, localPort: number, config: Pick<Config, 'host' | 'apiAllowedHosts'>): boolean {
  const name = host.name.toLowerCase();
  for (const entry of config.apiAllowedHosts) {
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry);
    const entryName = m?.[1]?.replace(/^\[|\]$/g, '');
    if (entryName === name && (m?.[2] === undefined || Number(m[2]) === host.port)) return true;
  }
  if (host.port !== localPort) return false;
  if (name === 'localhost') return true;
  const bound = config.host.toLowerCase().replace(/^\[|\]$/g, '');
  const ip = ipLiteral(name);
  if (!ip) return name === bound;
  if (ip.range() === 'loopback') return true;
  const boundIp = ipLiteral(bound);
  if (boundIp?.range() === 'unspecified') return true;
  return boundIp !== undefined && boundIp.kind() === ip.kind() && boundIp.toString() === ip.toString();
}

/**
 * Is this a cross-site browser request? Browsers say so in Sec-Fetch-Site (anything but
 * `same-origin`, or `none` for one the user typed), and older ones in Origin: present and not this
 * API's own origin (host and port as the request's Host names them; `null` is never ours).
 */
export function crossSite(secFetchSite: string | undefined, origin: string | undefined, requestUrl: URL): boolean {
  if (secFetchSite !== undefined && !['same-origin', 'none'].includes(secFetchSite.trim().toLowerCase())) return true;
  if (origin === undefined) return false;
  let from: URL;
  try {
    from = new URL(origin.trim());
  } catch {
    return true;
  }
  if (from.protocol !== 'http:' && from.protocol !== 'https:') return true;
  const a = hostAndPort(from);
  const b = hostAndPort(requestUrl);
  // Behind a TLS proxy the Host carries no port and the origin is https: either default port matches it.
  const samePort = a.port === b.port || (!requestUrl.port && (a.port === 80 || a.port === 443));
  return a.name !== b.name || !samePort;
}

/**
 * An API without API_KEYS trusts whoever reaches it, so it must only be reached on purpose:
 * - a request whose Host is not one this API answers for (see hostAccepted) is 421
 *   `misdirected_request`: a browser page whose DNS name was rebound to this address carries its
 *   own name in Host, so it can read nothing;
 * - a cross-site browser request that changes state (POST, PUT, PATCH, DELETE) is 403 `forbidden`:
 *   body-less ones such as POST …/cancel are "simple" requests a foreign page may send without a
 *   preflight, and the answer need not be readable for the damage to be done.
 * With API_KEYS neither applies: a foreign page cannot send the bearer key.
 */
export function browserGuard(config: Config): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    if (config.apiKeys.length > 0 || GUARD_OPEN_PATHS.has(c.req.path)) return next();
    const url = new URL(c.req.url);
    const host = hostAndPort(url);
    // The port this connection reached (PORT=0 picks one at start). A request that came over no
    // socket (app.request() in tests) has no port to compare: its host name is still checked.
    const localPort = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket?.localPort ?? host.port;
    if (!hostAccepted(host, localPort, config)) {
      throw new ApiError(
        'misdirected_request',
        `this API does not answer for the host ${JSON.stringify(url.host.slice(0, 100))}: use its own address, localhost, or a name in API_ALLOWED_HOSTS`,
      );
    }
    if (STATE_CHANGING_METHODS.has(c.req.method) && crossSite(c.req.header('sec-fetch-site'), c.req.header('origin'), url)) {
      throw new ApiError('forbidden', `a cross-site ${c.req.method} is refused: without API_KEYS only the API's own origin or a non-browser client may change anything`);
    }
    return next();
  };
}
