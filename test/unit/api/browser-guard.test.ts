import { describe, expect, it } from 'vitest';
import { crossSite, hostAccepted } from '../../../src/api/middleware.ts';

const at = (host: string) => {
  const url = new URL(`http://${host}/`);
  return { name: url.hostname.replace(/^\[|\]$/g, ''), port: url.port ? Number(url.port) : 80 };
};

describe('hostAccepted: the Host values an API without API_KEYS answers for', () => {
  const loopback = { host: '127.0.0.1', apiAllowedHosts: [] };

  it.each(['127.0.0.1:3000', 'localhost:3000', '127.9.9.9:3000', '[::1]:3000', '[::ffff:127.0.0.1]:3000'])('bound to loopback: accepts %s', (host) => {
    expect(hostAccepted(at(host), 3000, loopback)).toBe(true);
  });

  it.each(['127.0.0.1:3001', 'localhost', 'attacker.example:3000', 'rebind.attacker.example:3000', '192.0.2.1:3000', 'localhost.:3000', 'localhost.attacker.example:3000'])(
    'bound to loopback: refuses %s',
    (host) => expect(hostAccepted(at(host), 3000, loopback)).toBe(false),
  );

  it('bound to a wildcard address: any IP literal on the port, still no name', () => {
    for (const bound of ['0.0.0.0', '::']) {
      const config = { host: bound, apiAllowedHosts: [] };
      expect(hostAccepted(at('192.0.2.1:3000'), 3000, config)).toBe(true);
      expect(hostAccepted(at('[2001:db8::1]:3000'), 3000, config)).toBe(true);
      expect(hostAccepted(at('192.0.2.1:80'), 3000, config)).toBe(false);
      expect(hostAccepted(at('intranet.example:3000'), 3000, config)).toBe(false);
    }
  });

  it('bound to one address or name: that one (and loopback)', () => {
    expect(hostAccepted(at('192.0.2.1:3000'), 3000, { host: '192.0.2.1', apiAllowedHosts: [] })).toBe(true);
    expect(hostAccepted(at('192.0.2.2:3000'), 3000, { host: '192.0.2.1', apiAllowedHosts: [] })).toBe(false);
    expect(hostAccepted(at('audit.lan:3000'), 3000, { host: 'audit.lan', apiAllowedHosts: [] })).toBe(true);
    expect(hostAccepted(at('AUDIT.lan:3000'), 3000, { host: 'audit.lan', apiAllowedHosts: [] })).toBe(true);
  });

  it('API_ALLOWED_HOSTS: a name on any port, name:port on that port only', () => {
    const config = { host: '127.0.0.1', apiAllowedHosts: ['audit.example.org', 'api.example.org:8443', '[2001:db8::5]:443'] };
    expect(hostAccepted(at('audit.example.org'), 3000, config)).toBe(true);
    expect(hostAccepted(at('audit.example.org:9999'), 3000, config)).toBe(true);
    expect(hostAccepted(at('api.example.org:8443'), 3000, config)).toBe(true);
    expect(hostAccepted(at('api.example.org'), 3000, config)).toBe(false);
    expect(hostAccepted(at('[2001:db8::5]:443'), 3000, config)).toBe(true);
    expect(hostAccepted(at('x.audit.example.org'), 3000, config)).toBe(false);
  });
});

describe('crossSite: a browser request from another origin', () => {
  const api = new URL('http://127.0.0.1:3000/api/sites');

  it.each([
    [undefined, undefined, false],
    ['same-origin', undefined, false],
    ['none', undefined, false],
    ['same-site', undefined, true],
    ['cross-site', undefined, true],
    [undefined, 'http://127.0.0.1:3000', false],
    [undefined, 'http://127.0.0.1:3001', true],
    [undefined, 'http://localhost:3000', true],
    [undefined, 'https://127.0.0.1:3000', false],
    [undefined, 'null', true],
    [undefined, 'file://', true],
    ['same-origin', 'http://attacker.example', true],
  ] as const)('Sec-Fetch-Site %s, Origin %s: cross-site %s', (site, origin, expected) => {
    expect(crossSite(site, origin, api)).toBe(expected);
  });

  it('behind a TLS proxy: an https origin matches a Host without a port', () => {
    expect(crossSite(undefined, 'https://audit.example.org', new URL('http://audit.example.org/api'))).toBe(false);
    expect(crossSite(undefined, 'https://evil.example.org', new URL('http://audit.example.org/api'))).toBe(true);
  });
});
