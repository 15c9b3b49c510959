import { describe, expect, it } from 'vitest';
import { createTargetPolicy, isForbiddenAddress } from '../../../src/security/target-policy.ts';

describe('address classification', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.100.100.200',
    '0.0.0.0', '255.255.255.255', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::1', '::ffff:127.0.0.1',
    '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '2002:7f00:1::', 'not-an-ip',
  ])('forbids %s', (ip) => expect(isForbiddenAddress(ip)).toBe(true));

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows public %s', (ip) =>
    expect(isForbiddenAddress(ip)).toBe(false),
  );

  // IPv6 forms that carry an IPv4 address, written as a URL's host gives them (canonical hex) and
  // as typed; each with a private and a public IPv4 inside.
  it.each([
    ['IPv4-compatible ::/96', ['::7f00:1', '::127.0.0.1', '::a00:1', '::a9fe:a9fe', '::808:808', '::8.8.8.8', '0:0:0:0:0:0:c0a8:101']],
    ['IPv4-translated ::ffff:0:0:0/96', ['::ffff:0:7f00:1', '::ffff:0:808:808']],
    ['NAT64 64:ff9b::/96', ['64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '64:ff9b::808:808']],
    ['local-use NAT64 64:ff9b:1::/48', ['64:ff9b:1::7f00:1', '64:ff9b:1:7f00:1::', '64:ff9b:1::808:808']],
    ['6to4 2002::/16', ['2002:7f00:1::', '2002:a9fe:a9fe::1', '2002:808:808::1']],
    ['Teredo 2001::/32', ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:0:a00:1::', '2001::1']],
  ])('forbids %s whatever IPv4 address it carries', (_range, ips) => {
    for (const ip of ips) expect([ip, isForbiddenAddress(ip)]).toEqual([ip, true]);
  });

  it('decides an IPv4-mapped address as the IPv4 address it maps, in either text form', () => {
    for (const ip of ['::ffff:7f00:1', '::ffff:a00:1', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1', '::ffff:100.100.100.200']) expect([ip, isForbiddenAddress(ip)]).toEqual([ip, true]);
    for (const ip of ['::ffff:808:808', '::ffff:93.184.215.14']) expect([ip, isForbiddenAddress(ip)]).toEqual([ip, false]);
  });

  it('still allows public IPv6 next to those prefixes', () => {
    for (const ip of ['1::7f00:1', '2001:4860:4860::8888', '2003::1', '64:ff9c::1']) expect([ip, isForbiddenAddress(ip)]).toEqual([ip, false]);
  });
});

describe('target policy', () => {
  const resolver = async (host: string) =>
    ({ 'public.test': ['93.184.215.14'], 'rebind.test': ['93.184.215.14', '10.0.0.5'], 'meta.test': ['169.254.169.254'] })[host] ??
    Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
  const policy = createTargetPolicy({ allowPrivate: false, resolver });

  it('allows names that resolve only to public addresses', async () => {
    expect(await policy.check('https://public.test/page')).toEqual({ allowed: true });
    expect(await policy.pin('public.test', 443)).toEqual({ allowed: true, address: '93.184.215.14' });
  });

  it('refuses a name when any of its addresses is private', async () => {
    const rebind = await policy.check('http://rebind.test/');
    expect(rebind).toMatchObject({ allowed: false, reason: 'rebind.test does not resolve to a public address' });
    // The answer never names the internal address a name points at.
    expect(JSON.stringify(rebind)).not.toContain('10.0.0.5');
    const meta = await policy.check('http://meta.test/');
    expect(meta).toMatchObject({ allowed: false });
    expect(JSON.stringify(meta)).not.toContain('169.254');
    expect(JSON.stringify(await policy.pin('meta.test', 80))).not.toContain('169.254');
  });

  it('refuses private literals and local names without asking DNS', async () => {
    for (const url of ['http://127.0.0.1:3000/', 'http://[::1]/', 'http://localhost/', 'http://app.localhost/', 'http://metadata.google.internal/',
      'http://[::127.0.0.1]/', 'http://[::a9fe:a9fe]/latest/', 'http://[::ffff:127.0.0.1]:3000/', 'http://[64:ff9b::10.0.0.1]/', 'http://[2002:a00:1::]/']) {
      expect((await policy.check(url)).allowed).toBe(false);
    }
  });

  it('refuses names that do not resolve', async () => {
    expect(await policy.check('http://nowhere.invalid/')).toEqual({ allowed: false, reason: 'nowhere.invalid does not resolve to a public address' });
    expect((await policy.pin('nowhere.invalid', 80)).allowed).toBe('unresolved');
  });

  it('allows everything when private targets are allowed, and listed host:ports always', async () => {
    const open = createTargetPolicy({ allowPrivate: true, resolver });
    expect(await open.check('http://127.0.0.1/')).toEqual({ allowed: true });
    const listed = createTargetPolicy({ allowPrivate: false, resolver, allowHosts: ['127.0.0.1:8080'] });
    expect(await listed.check('http://127.0.0.1:8080/')).toEqual({ allowed: true });
    expect((await listed.check('http://127.0.0.1:8081/')).allowed).toBe(false);
  });
});
