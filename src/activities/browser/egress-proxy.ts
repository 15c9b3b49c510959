import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { PageErrorCode } from '../../shared/contracts.ts';
import type { TargetPolicy } from '../../security/target-policy.ts';

export interface BlockedRequest {
  url: string;
  reason: string;
}

/** What the proxy could not reach, in order, so a failed navigation gets the right error code. */
export interface EgressFailure {
  target: string;
  code: PageErrorCode;
  message: string;
}

export interface EgressProxy {
  /** `http://127.0.0.1:<port>` for the browser context's `proxy.server`. */
  server: string;
  blocked: BlockedRequest[];
  failures: EgressFailure[];
  /** Bytes received from the site so far (all connections); past `maxBytes` every connection is cut. */
  readonly bytes: number;
  /**
   * Starts the next page's account: byte count, blocked requests and failures back to zero. A
   * slot's proxy serves page after page; open connections stay for reuse.
   */
  nextPage(): void;
  close(): Promise<void>;
}

/** Bytes one page may pull through the proxy (document and every sub-resource together). */
export const MAX_PAGE_BYTES = 50 * 1024 * 1024;
/** A connection (tunnel or plain request) with nothing flowing for this long is closed. */
export const IDLE_CONNECTION_MS = 20_000;

/** Header on answers the proxy makes itself, naming the error code. */
export const PROXY_ERROR_HEADER = 'x-a11y-audit-egress';

function failureOf(target: string, err: unknown): EgressFailure {
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return { target, code: 'dns_error', message };
  if (code === 'ECONNREFUSED') return { target, code: 'connection_refused', message };
  if (code === 'ETIMEDOUT') return { target, code: 'timeout', message };
  return { target, code: 'connection_failed', message };
}

const HOP_BY_HOP = new Set(['proxy-authorization', 'proxy-connection', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade']);

/**
 * A forward proxy on loopback for one scan slot's browser context. Every connection the page makes
 * (navigations, each redirect hop, sub-resources, fetch, WebSockets through CONNECT) is resolved
 * here, held to the target policy, and connected to the vetted address, so DNS rebinding cannot
 * slip a private address in between the check and the connection.
 */
export async function startEgressProxy(
  policy: TargetPolicy,
  opts: { connectTimeoutMs?: number; idleMs?: number; maxBytes?: number } = {},
): Promise<EgressProxy> {
  const blocked: BlockedRequest[] = [];
  const failures: EgressFailure[] = [];
  const sockets = new Set<net.Socket>();
  // The proxy's own connection pool: kept alive from page to page of the slot (the same site's
  // server, again and again), never shared with another slot's proxy, and closed with it.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const connectTimeoutMs = opts.connectTimeoutMs ?? 15_000;
  const idleMs = opts.idleMs ?? IDLE_CONNECTION_MS;
  const maxBytes = opts.maxBytes ?? MAX_PAGE_BYTES;
  let bytes = 0;
  let overCap = false;
  /** Counts what the site sends; past the cap, says so once and cuts every connection. */
  const meter = (target: string) => (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > maxBytes && !overCap) {
      overCap = true;
      failures.push({ target, code: 'too_large', message: `the page pulled more than ${Math.round(maxBytes / 1024 / 1024)} MiB; the scanner stopped loading it` });
      for (const s of sockets) s.destroy();
    }
  };

  const server = http.createServer(async (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new Error('only http URLs are proxied in the clear');
    } catch {
      res.writeHead(400, { [PROXY_ERROR_HEADER]: 'browser_error' }).end();
      return;
    }
    const port = Number(url.port || 80);
    const verdict = await policy.pin(url.hostname, port);
    if (verdict.allowed === false) {
      blocked.push({ url: url.href, reason: verdict.reason });
      failures.push({ target: url.host, code: 'forbidden_target', message: `request to ${url.href} refused: ${verdict.reason}` });
      res.writeHead(403, { [PROXY_ERROR_HEADER]: 'forbidden_target', 'content-type': 'text/plain' }).end('refused by the scanner');
      return;
    }
    if (verdict.allowed === 'unresolved') {
      const f = failureOf(url.host, verdict.error);
      failures.push(f);
      res.writeHead(502, { [PROXY_ERROR_HEADER]: f.code }).end();
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
    if (overCap) {
      res.writeHead(502, { [PROXY_ERROR_HEADER]: 'too_large' }).end();
      return;
    }
    // `timeout` is the socket's idle limit: connecting, waiting for the answer, or mid-body.
    const upstream = http.request({
      host: verdict.address ?? url.hostname,
      port,
      method: req.method,
      path: url.pathname + url.search,
      headers,
      setHost: false,
      agent,
      timeout: Math.min(connectTimeoutMs, idleMs),
    });
    upstream.on('response', (up) => {
      if (overCap) return void upstream.destroy();
      const out = Object.fromEntries(Object.entries(up.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
      res.writeHead(up.statusCode ?? 502, up.statusMessage, out as http.OutgoingHttpHeaders);
      up.on('data', meter(url.host));
      up.pipe(res);
    });
    upstream.on('socket', (s) => {
      if (sockets.has(s)) return; // a kept-alive connection, already tracked
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    });
    upstream.on('timeout', () => upstream.destroy(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' })));
    upstream.on('error', (err) => {
      const f = failureOf(url.host, err);
      failures.push(f);
      if (!res.headersSent) res.writeHead(502, { [PROXY_ERROR_HEADER]: f.code }).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });

  server.on('connect', async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    const target = req.url ?? '';
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
    if (!m) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const [, hostname, portText] = m;
    const port = Number(portText);
    const verdict = await policy.pin(hostname!, port);
    if (verdict.allowed === false) {
      blocked.push({ url: `https://${target}/`, reason: verdict.reason });
      failures.push({ target, code: 'forbidden_target', message: `connection to ${target} refused: ${verdict.reason}` });
      client.end(`HTTP/1.1 403 Forbidden\r\n${PROXY_ERROR_HEADER}: forbidden_target\r\n\r\n`);
      return;
    }
    if (verdict.allowed === 'unresolved') {
      const f = failureOf(target, verdict.error);
      failures.push(f);
      client.end(`HTTP/1.1 502 Bad Gateway\r\n${PROXY_ERROR_HEADER}: ${f.code}\r\n\r\n`);
      return;
    }
    if (overCap) {
      client.end(`HTTP/1.1 502 Bad Gateway\r\n${PROXY_ERROR_HEADER}: too_large\r\n\r\n`);
      return;
    }
    const upstream = net.connect({ host: verdict.address ?? hostname!, port, timeout: connectTimeoutMs });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      // A tunnel with nothing flowing for a while is closed, so a resource that never ends cannot hold the page.
      upstream.setTimeout(idleMs);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.on('data', meter(target));
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('timeout', () => {
      if (connected) {
        upstream.destroy();
        client.destroy();
      } else upstream.destroy(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' }));
    });
    upstream.on('error', (err) => {
      const f = failureOf(target, err);
      failures.push(f);
      if (client.writable) client.end(`HTTP/1.1 502 Bad Gateway\r\n${PROXY_ERROR_HEADER}: ${f.code}\r\n\r\n`);
      client.destroy();
    });
  });
  // Plain ws:// upgrades are not tunnelled through CONNECT: refuse them rather than pass them unchecked.
  server.on('upgrade', (_req, socket: net.Socket) => socket.destroy());
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    blocked,
    failures,
    get bytes() {
      return bytes;
    },
    nextPage() {
      bytes = 0;
      overCap = false;
      blocked.length = 0;
      failures.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
