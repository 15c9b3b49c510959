import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage } from '../../../src/discovery/fetch-page.ts';
import { createTargetPolicy } from '../../../src/security/target-policy.ts';

/**
 * Discovery's own HTTP requests resolve a name once, through the target policy, and connect to the
 * address it vetted: a name whose answer is private never reaches the network, and a name the
 * policy maps somewhere (here: an invented name to this loopback server) is reached only there.
 */
describe('discovery connects only to vetted addresses', () => {
  let server: Server;
  let port: number;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.headers.host ?? '');
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><title>x</title></html>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const lookups: string[] = [];
  const resolver = async (host: string) => {
    lookups.push(host);
    if (host === 'nowhere.test') throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return ['127.0.0.1'];
  };

  it('never connects to a name that resolves to a private address, and says why without the address', async () => {
    const policy = createTargetPolicy({ allowPrivate: false, resolver });
    const url = `http://internal.test:${port}/`;
    const out = await fetchPage(url, { siteUrl: url, policy, timeoutMs: 2000, retries: 0 });
    expect(out).toEqual({ kind: 'forbidden', reason: 'internal.test does not resolve to a public address' });
    expect(hits).toEqual([]);
  });

  it('never connects to a name that does not resolve', async () => {
    const policy = createTargetPolicy({ allowPrivate: false, resolver });
    const url = `http://nowhere.test:${port}/`;
    const out = await fetchPage(url, { siteUrl: url, policy, timeoutMs: 2000, retries: 0 });
    expect(out).toMatchObject({ kind: 'unreachable', code: 'dns_error' });
    expect(hits).toEqual([]);
  });

  it('refuses an address in the URL without any lookup', async () => {
    const policy = createTargetPolicy({ allowPrivate: false, resolver });
    lookups.length = 0;
    const url = `http://127.0.0.1:${port}/`;
    expect(await fetchPage(url, { siteUrl: url, policy, timeoutMs: 2000, retries: 0 })).toMatchObject({ kind: 'forbidden' });
    expect(lookups).toEqual([]);
    expect(hits).toEqual([]);
  });

  it('connects to the address the policy resolved, once per connection, keeping the name in Host', async () => {
    const policy = createTargetPolicy({ allowPrivate: false, resolver, allowHosts: [`allowed.test:${port}`] });
    const url = `http://allowed.test:${port}/`;
    lookups.length = 0;
    const out = await fetchPage(url, { siteUrl: url, policy, timeoutMs: 2000, retries: 0 });
    expect(out).toMatchObject({ kind: 'html', status: 200 });
    expect(hits).toEqual([`allowed.test:${port}`]);
    expect(lookups).toEqual(['allowed.test']);
  });
});
