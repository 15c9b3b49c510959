import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * What a hostile origin does with one request: raw bytes on the socket (no HTTP library in the
 * way, so it can send what no library would), then whatever it likes with the connection.
 */
export type RawAnswer = (socket: net.Socket) => void;

export interface HostileOrigin {
  origin: string;
  /** `127.0.0.1:<port>`, for ALLOWED_PRIVATE_HOSTS and the target policy's `allowHosts`. */
  host: string;
  /** Every path requested, in order. */
  hits: string[];
  /** Connections still open whose last request was for `path`. */
  openFor(path: string): number;
  route(path: string, answer: RawAnswer): void;
  close(): Promise<void>;
}

/** Bytes as written: every character one byte (latin1), so a test sends exactly the octets it names. */
const bytes = (text: string) => Buffer.from(text, 'latin1');

/** A head for `body` after the given status line, with `extra` header lines (each ending in CRLF) first. */
export function head(statusLine: string, body: string, extra = ''): string {
  return `${statusLine}\r\n${extra}content-type: text/html; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body, 'latin1')}\r\n\r\n`;
}

/** Sends `text` and closes its end of the connection. */
export function send(text: string): RawAnswer {
  return (socket) => void socket.end(bytes(text));
}

/** Sends `first`, then after `ms` either more bytes (and closes), a reset, or a close. */
export function sendThen(first: string, ms: number, then: string | 'reset' | 'close'): RawAnswer {
  return (socket) => {
    socket.write(bytes(first));
    setTimeout(() => {
      if (socket.destroyed) return;
      if (then === 'reset') socket.resetAndDestroy();
      else if (then === 'close') socket.destroy();
      else socket.end(bytes(then));
    }, ms);
  };
}

/** Sends `first`, then `chunk` every `everyMs` for as long as the connection stays open. */
export function drip(first: string, chunk: string, everyMs: number): RawAnswer {
  return (socket) => {
    socket.write(bytes(first));
    const timer = setInterval(() => {
      if (!socket.destroyed && socket.writable) socket.write(bytes(chunk));
    }, everyMs);
    socket.once('close', () => clearInterval(timer));
  };
}

const NOT_FOUND = '<!doctype html><title>Not found</title><p>Not found</p>';
const notFound = send(head('HTTP/1.1 404 Not Found', NOT_FOUND) + NOT_FOUND);

/** A loopback TCP server that reads HTTP/1.1 request heads and answers each with its path's raw bytes (404 for unknown paths). */
export async function startHostileOrigin(routes: Record<string, RawAnswer> = {}): Promise<HostileOrigin> {
  const table = new Map(Object.entries(routes));
  const hits: string[] = [];
  const sockets = new Set<net.Socket>();
  const lastPath = new Map<net.Socket, string>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => {
      sockets.delete(socket);
      lastPath.delete(socket);
    });
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0 && !socket.destroyed; end = buffered.indexOf('\r\n\r\n')) {
        const requestLine = buffered.slice(0, buffered.indexOf('\r\n'));
        buffered = buffered.slice(end + 4);
        const path = (requestLine.split(' ')[1] ?? '/').split('?')[0]!;
        hits.push(path);
        lastPath.set(socket, path);
        (table.get(path) ?? notFound)(socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    hits,
    openFor: (path) => [...lastPath.values()].filter((p) => p === path).length,
    route: (path, answer) => void table.set(path, answer),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
