import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage } from '../../../src/discovery/fetch-page.ts';
import { createTargetPolicy } from '../../../src/security/target-policy.ts';

const MB = 1024 * 1024;

/** A document is fetched whole or not at all: past the byte cap it is `too_large`, never half-read. */
describe('fetching a document (a PDF) a site links to', () => {
  let server: Server;
  let origin: string;
  let sent = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/small.pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7\n%%EOF\n');
      } else if (path === '/declared-200mb.pdf') {
        // Says 200 MB up front: refused on its headers.
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(200 * MB) });
        res.write(Buffer.alloc(64 * 1024));
      } else if (path === '/streamed-200mb.pdf') {
        // 200 MB in chunks with no length: read up to the cap, then the connection is dropped.
        res.writeHead(200, { 'content-type': 'application/pdf' });
        const chunk = Buffer.alloc(MB, 0x20);
        let left = 200;
        const pump = () => {
          while (left > 0) {
            left--;
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => (left = 0));
        pump();
      } else if (path === '/gzip-bomb.pdf') {
        // 100 MB of spaces, 100 KB on the wire: the cap counts what it expands to.
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(100 * MB, 0x20)));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const policy = createTargetPolicy({ allowPrivate: true });
  const fetchDocument = (path: string, maxBytes = 50 * MB) =>
    fetchPage(`${origin}${path}`, { siteUrl: `${origin}/`, policy, timeoutMs: 20_000, retries: 0, accept: 'application/pdf', maxBytes, document: true });

  it('gives a document\'s bytes and type whole', async () => {
    const out = await fetchDocument('/small.pdf');
    expect(out).toMatchObject({ kind: 'document', status: 200, contentType: 'application/pdf' });
    if (out.kind === 'document') expect(out.bytes.toString('latin1')).toBe('%PDF-1.7\n%%EOF\n');
  });

  it('refuses a file that declares more than the cap without reading it', async () => {
    expect(await fetchDocument('/declared-200mb.pdf')).toMatchObject({ kind: 'unreachable', code: 'too_large', message: expect.stringMatching(/larger than 50 MiB \(DOCUMENT_MAX_BYTES\)/) });
  });

  it('stops reading a 200 MB stream at the cap and drops the connection', async () => {
    sent = 0;
    expect(await fetchDocument('/streamed-200mb.pdf')).toMatchObject({ kind: 'unreachable', code: 'too_large' });
    // The server stopped well short of 200 MB (what the socket buffers took beyond the cap aside).
    expect(sent).toBeLessThan(120 * MB);
  });

  it('counts a compressed body by what it expands to', async () => {
    expect(await fetchDocument('/gzip-bomb.pdf', 10 * MB)).toMatchObject({ kind: 'unreachable', code: 'too_large' });
  });
});
