import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachClientErrorHandler } from '../../../src/api/client-error.ts';
import { createLogger } from '../../../src/logger.ts';

/** Sends bytes as they are and collects everything the server answers until it closes. */
function rawExchange(port: number, request: Buffer | string): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {}); // a reset after the answer is expected: the server does not read the rest
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

function parse(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: headers['content-type']?.includes('json') ? JSON.parse(body) : body };
}

describe('clientError handler', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer({ headersTimeout: 300, requestTimeout: 400, connectionsCheckingInterval: 100 }, (_req, res) => res.end('ok'));
    attachClientErrorHandler(server, createLogger('test', 'silent'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  function expectProblem(raw: string, status: number, code: string) {
    const res = parse(raw);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.headers['connection']).toBe('close');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(res.body)));
    expect(res.body).toMatchObject({ status, code, type: `/problems/${code.replaceAll('_', '-')}`, requestId: res.headers['x-request-id'] });
    return res.body;
  }

  it('answers 431 for a 64 KB header and for a 20 KB path', async () => {
    expectProblem(await rawExchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`), 431, 'headers_too_large');
    expectProblem(await rawExchange(port, `GET /${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`), 431, 'headers_too_large');
  });

  it.each([
    ['UTF-8 in the path', [0xc3, 0xa9]],
    ['a byte that is not UTF-8', [0xff]],
  ])('answers 400 bad_request for raw non-ASCII bytes in the request line: %s', async (_name, bytes) => {
    const request = Buffer.concat([Buffer.from('GET /caf'), Buffer.from(bytes), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]);
    const body = expectProblem(await rawExchange(port, request), 400, 'bad_request');
    expect(body.detail).toMatch(/not well-formed/);
  });

  it('answers 400 bad_request for other bytes that are not HTTP', async () => {
    expectProblem(await rawExchange(port, 'G\u00c9T / HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'bad_request');
    expectProblem(await rawExchange(port, 'hello\r\n\r\n'), 400, 'bad_request');
  });

  it('answers 408 when the headers do not arrive in time', async () => {
    expectProblem(await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n'), 408, 'request_timeout');
  });

  it('still serves well-formed requests', async () => {
    expect(parse(await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status).toBe(200);
  });
});
