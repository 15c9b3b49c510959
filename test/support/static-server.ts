/**
 * The one loopback HTTP server for test pages and bench corpora (shared by test/ and bench/).
 *
 *   // routes: each path answered by a handler, every request recorded in `hits`
 *   const site = await startStaticServer({ '/': html('<!doctype html>…') });
 *   site.route('/later', html('…'));
 *   // a folder: files with their content types, index.html for folders, byte ranges for media
 *   const corpus = await startStaticServer({}, { root: 'corpus/site', rootRedirect: '/3/index.html' });
 *   await site.close();
 *
 * A request is answered by its route if there is one (matched on the raw path, query aside), else
 * `/` redirects to `rootRedirect` when given, else the file under `root` when given, else 404.
 */
import { createReadStream, statSync, type Stats } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface StaticServerOptions {
  /** A folder to serve files from, for paths no route answers. */
  root?: string;
  /** Where `/` redirects (302) when no route answers it, e.g. a corpus whose home page is deeper. */
  rootRedirect?: string;
  /** The loopback address to listen on (127.0.0.1 by default; 127.0.0.2 and up make other sites). */
  host?: string;
  /** A fixed port (a free one by default). */
  port?: number;
  /**
   * Files are answered as nginx answers them: `ETag` (size and mtime) and `Last-Modified`, and 304 to
   * a matching `If-None-Match` / `If-Modified-Since`, instead of `Cache-Control: no-store`.
   */
  validators?: boolean;
}

export interface StaticServer {
  /** `http://host:port` */
  origin: string;
  /** `host:port` */
  host: string;
  server: Server;
  /** Every path requested, with its query, in order. */
  hits: string[];
  /** Every request as `METHOD /path?query`, in order (what a guest must never send shows here). */
  requests: string[];
  /** Adds or replaces the handler of a path. */
  route(pathname: string, handler: Handler): void;
  /** Closes the server and every connection still open. */
  close(): Promise<void>;
}

const NOT_FOUND = '<!doctype html><html lang="en"><title>Not found</title><p>Not found</p></html>';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.xhtml': 'application/xhtml+xml; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.vtt': 'text/vtt; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.jfif': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.ogv': 'video/ogg',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.pdf': 'application/pdf',
};

export function contentType(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** `bytes=a-b` against a file of `size` bytes: the inclusive range, or null when unsatisfiable or not a single range. */
export function parseRange(header: string, size: number): { start: number; end: number } | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start <= end && start < size ? { start, end } : null;
}

/** A site-relative path (`tests/a b,c.html`) as a URL path, each segment encoded. */
export function urlPath(relative: string): string {
  return '/' + relative.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
}

/** A handler answering a PDF file's bytes, with their length. */
export function pdf(bytes: Buffer, status = 200): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/pdf', 'content-length': String(bytes.length) });
    res.end(bytes);
  };
}

/** A handler answering an HTML page. */
export function html(body: string, status = 200): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(NOT_FOUND);
}

/** The file under `base` a request asks for: 400 for an undecodable path, 403 outside `base`, 404 when missing. */
function serveFile(base: string, pathname: string, req: IncomingMessage, res: ServerResponse, validators = false): void {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    res.writeHead(400).end();
    return;
  }
  let file = path.join(base, decoded);
  if (file !== base && !file.startsWith(base + path.sep)) {
    res.writeHead(403).end();
    return;
  }
  let st: Stats | undefined;
  try {
    st = statSync(file);
    if (st.isDirectory()) {
      file = path.join(file, 'index.html');
      st = statSync(file);
    }
  } catch {
    st = undefined;
  }
  if (!st?.isFile()) return notFound(res);
  const headers: Record<string, string | number> = { 'content-type': contentType(file), 'accept-ranges': 'bytes', 'cache-control': 'no-store' };
  if (validators) {
    delete headers['cache-control'];
    const etag = `"${Math.floor(st.mtimeMs).toString(16)}-${st.size.toString(16)}"`;
    const lastModified = new Date(Math.floor(st.mtimeMs / 1000) * 1000).toUTCString();
    headers.etag = etag;
    headers['last-modified'] = lastModified;
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    if (inm !== undefined ? inm === etag : ims !== undefined && Date.parse(ims) >= Date.parse(lastModified)) {
      res.writeHead(304, { etag, 'last-modified': lastModified }).end();
      return;
    }
  }
  // Byte ranges, so <video> and <audio> load the way they do from a real server.
  const range = req.headers.range ? parseRange(req.headers.range, st.size) : undefined;
  if (range === null) {
    res.writeHead(416, { 'content-range': `bytes */${st.size}` }).end();
    return;
  }
  if (range) {
    res.writeHead(206, { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${st.size}`, 'content-length': range.end - range.start + 1 });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file, range).on('error', () => res.destroy()).pipe(res);
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': st.size });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).on('error', () => res.destroy()).pipe(res);
}

/** Starts the server on `opts.port` (a free port by default) of `opts.host`. */
export async function startStaticServer(routes: Record<string, Handler> = {}, opts: StaticServerOptions = {}): Promise<StaticServer> {
  const host = opts.host ?? '127.0.0.1';
  const base = opts.root === undefined ? undefined : path.resolve(opts.root);
  const table = new Map(Object.entries(routes));
  const hits: string[] = [];
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(url.pathname + url.search);
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const handler = table.get(url.pathname);
    if (handler) {
      try {
        await handler(req, res);
      } catch {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      }
      return;
    }
    if (url.pathname === '/' && opts.rootRedirect) {
      res.writeHead(302, { location: opts.rootRedirect }).end();
      return;
    }
    if (base !== undefined) return serveFile(base, url.pathname, req, res, opts.validators);
    notFound(res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // Media elements keep connections open; do not let them hold the process at the end.
  server.keepAliveTimeout = 2000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    host: `${host}:${port}`,
    server,
    hits,
    requests,
    route: (p, h) => void table.set(p, h),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
