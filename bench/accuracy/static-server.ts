// A static file server for the accuracy corpora, on loopback: the content types test pages need
// (HTML, CSS, scripts, images, SVG, media, WebVTT), 404 for what is missing, byte ranges for
// media (so <video> and <audio> load the way they do from a real server).
import { createReadStream, statSync, type Stats } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

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

export interface StaticSite {
  origin: string;
  server: Server;
  close(): Promise<void>;
}

/** Serves `root` on 127.0.0.1 on a free port. */
export async function serveStatic(root: string): Promise<StaticSite> {
  const base = path.resolve(root);
  const server = createServer((req, res) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    let file = path.join(base, pathname);
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
    if (!st?.isFile()) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html lang="en"><title>Not found</title><h1>Not found</h1></html>');
      return;
    }
    const headers: Record<string, string | number> = { 'content-type': contentType(file), 'accept-ranges': 'bytes', 'cache-control': 'no-store' };
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
  });
  // Media elements keep connections open; do not let them hold the process at the end.
  server.keepAliveTimeout = 2000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    server,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A site-relative path (`tests/a b,c.html`) as a URL path, each segment encoded. */
export function urlPath(relative: string): string {
  return '/' + relative.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
}
