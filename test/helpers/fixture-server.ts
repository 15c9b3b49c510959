import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface FixtureServer {
  origin: string;
  host: string;
  /** Every path requested, in order. */
  hits: string[];
  route(pathname: string, handler: Handler): void;
  close(): Promise<void>;
}

export function html(body: string, status = 200): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
}

export function fixtureFile(rel: string): Handler {
  return html(readFileSync(path.join(FIXTURES, rel), 'utf8'));
}

/** A loopback HTTP server for test pages; unknown paths answer 404. */
export async function startFixtureServer(routes: Record<string, Handler> = {}, host = '127.0.0.1'): Promise<FixtureServer> {
  const table = new Map(Object.entries(routes));
  const hits: string[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(url.pathname + url.search);
    const handler = table.get(url.pathname);
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Not found</title><p>Not found</p>');
      return;
    }
    try {
      await handler(req, res);
    } catch {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    host: `${host}:${port}`,
    hits,
    route: (p, h) => void table.set(p, h),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
