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
  /** The URL of a plain-HTTP request (tunnels have none), so the document's own failure can be told from a sub-resource's. */
  url?: string;
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

/** Interim (1xx) answers one request may get before its real answer; past it the server is only stalling. */
export const MAX_INTERIM_ANSWERS = 20;

function failureOf(target: string, err: unknown): EgressFailure {
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  const message = err instanceof Error ? err.message : String(err);
  // llhttp refused the bytes (status line, headers, lengths, chunks): the server's fault, every time.
  if (code.startsWith('HPE_')) return invalidAnswer(target, (err as { reason?: string }).reason ?? message);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return { target, code: 'dns_error', message };
  if (code === 'ECONNREFUSED') return { target, code: 'connection_refused', message };
  if (code === 'ETIMEDOUT') return { target, code: 'timeout', message };
  return { target, code: 'connection_failed', message };
}

/** An answer the proxy does not pass on because it is not valid HTTP: that request's error (a page error), never a thrown one. */
function invalidAnswer(target: string, why: string): EgressFailure {
  return { target, code: 'invalid_response', message: `the answer of ${target} is not valid HTTP: ${why}` };
}

/** Final statuses HTTP has; Node itself passes 100-999 (and chokes below 100). */
function isHttpStatus(status: number | undefined): status is number {
  return status !== undefined && Number.isInteger(status) && status >= 100 && status <= 599;
}

/**
 * The reason phrase without the characters Node refuses to send (control characters): it carries
 * no meaning, browsers ignore it, and a byte in it must not cost the page (nor throw in writeHead).
 */
function cleanReason(reason: string | undefined): string | undefined {
  return reason?.replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
}

/**
 * Answers the browser from the proxy itself. Never throws: the browser may be gone, and an answer
 * that cannot be written ends its connection instead.
 */
function answer(res: http.ServerResponse, status: number, headers: http.OutgoingHttpHeaders, body?: string): void {
  try {
    if (res.headersSent) res.destroy();
    else res.writeHead(status, headers).end(body);
  } catch {
    res.destroy();
  }
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

  /** One plain-HTTP request of the page: vetted, then sent to the vetted address and its answer relayed. */
  async function forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new Error('only http URLs are proxied in the clear');
    } catch {
      answer(res, 400, { [PROXY_ERROR_HEADER]: 'browser_error' });
      return;
    }
    const port = Number(url.port || 80);
    const verdict = await policy.pin(url.hostname, port);
    if (verdict.allowed === false) {
      blocked.push({ url: url.href, reason: verdict.reason });
      failures.push({ target: url.host, code: 'forbidden_target', message: `request to ${url.href} refused: ${verdict.reason}`, url: url.href });
      answer(res, 403, { [PROXY_ERROR_HEADER]: 'forbidden_target', 'content-type': 'text/plain' }, 'refused by the scanner');
      return;
    }
    if (verdict.allowed === 'unresolved') {
      const f = { ...failureOf(url.host, verdict.error), url: url.href };
      failures.push(f);
      answer(res, 502, { [PROXY_ERROR_HEADER]: f.code });
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
    if (overCap) {
      answer(res, 502, { [PROXY_ERROR_HEADER]: 'too_large' });
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
    upstream.on('socket', (s) => {
      if (sockets.has(s)) return; // a kept-alive connection, already tracked
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    });
    upstream.on('timeout', () => upstream.destroy(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' })));
    relay(url, upstream, res);
    req.pipe(upstream);
  }

  /**
   * Passes the server's answer on to the browser. Whatever the server sends (a status or header
   * Node refuses to write, a parse error, a body that breaks off, interim answers without end)
   * ends as this request's failure, recorded once: a 502 with the error header while nothing was
   * sent yet, else a cut connection. None of it may throw in a listener, which would end the worker.
   */
  function relay(url: URL, upstream: http.ClientRequest, res: http.ServerResponse): void {
    /** The request has ended one way or another: later events (a late reset, our own destroy) change nothing. */
    let settled = false;
    const fail = (f: EgressFailure) => {
      if (settled) return;
      settled = true;
      // Past the byte cap every connection is cut on purpose, and the cap has said why.
      if (!overCap) failures.push({ ...f, url: url.href });
      answer(res, 502, { [PROXY_ERROR_HEADER]: f.code });
      upstream.destroy();
    };
    // The browser went away (it navigated on, or the tab closed): the server's answer is no longer
    // wanted, and a server that never ends it must not hold a connection of the slot's proxy.
    res.on('close', () => {
      if (settled) return;
      settled = true;
      upstream.destroy();
    });
    let interim = 0;
    upstream.on('information', () => {
      if (++interim > MAX_INTERIM_ANSWERS) fail(invalidAnswer(url.host, `more than ${MAX_INTERIM_ANSWERS} interim (1xx) answers`));
    });
    // Node drops a 101 to a plain request without a word, which would leave the browser waiting.
    upstream.on('upgrade', (_up, socket: net.Socket) => {
      socket.destroy();
      fail(invalidAnswer(url.host, 'it switched protocols (101) on a plain request'));
    });
    upstream.on('response', (up) => {
      // `up` emits 'error' only when it has a listener: a body cut short (closed or reset before its end).
      up.on('error', () => fail({ target: url.host, code: 'connection_failed', message: `the connection to ${url.host} closed before the whole answer arrived` }));
      up.on('end', () => void (settled = true));
      if (overCap) return fail({ target: url.host, code: 'too_large', message: 'past the byte cap' });
      const status = up.statusCode;
      if (!isHttpStatus(status)) return fail(invalidAnswer(url.host, `status ${status ?? 'missing'}, outside 100-599`));
      const out = Object.fromEntries(Object.entries(up.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
      try {
        res.writeHead(status, cleanReason(up.statusMessage), out as http.OutgoingHttpHeaders);
      } catch (err) {
        return fail(invalidAnswer(url.host, `a header the scanner cannot pass on (${(err as Error).message})`));
      }
      up.on('data', meter(url.host));
      up.pipe(res);
    });
    upstream.on('error', (err) => fail(failureOf(url.host, err)));
  }

  const server = http.createServer((req, res) => {
    // The browser's side: a request it drops is nobody's error, and must not throw.
    req.on('error', () => {});
    res.on('error', () => {});
    forward(req, res).catch((err: unknown) => {
      const f = { ...failureOf(req.headers.host ?? '', err), url: req.url };
      failures.push(f);
      answer(res, 502, { [PROXY_ERROR_HEADER]: f.code });
    });
  });

  /** One CONNECT of the page (https, wss): vetted, then a tunnel to the vetted address. */
  async function tunnel(target: string, client: net.Socket, head: Buffer): Promise<void> {
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
    if (!m) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const [, hostname, portText] = m;
    const port = Number(portText);
    const verdict = await policy.pin(hostname!, port);
    if (client.destroyed) return; // the browser gave up meanwhile
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
    // The browser closed its end: the server's end goes too, rather than wait for the idle limit.
    client.on('close', () => upstream.destroy());
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
  }

  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    const target = req.url ?? '';
    tunnel(target, client, head).catch((err: unknown) => {
      failures.push(failureOf(target, err));
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
