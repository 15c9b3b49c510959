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
    for (const url of ['http://127.0.0.1:3000/', 'http://[::1]/', 'http://localhost/', 'http://app.localhost/', 'http://metadata.google.internal/']) {
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
