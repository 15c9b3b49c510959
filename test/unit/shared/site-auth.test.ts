import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PutSiteAuthBody } from '../../../src/api/schemas/site-auth.schema.ts';
import { describeStep } from '../../../src/audit/session/site-login.ts';
import { basicAuthorization, globMatches, isLoginUrl, onOrigin, summarizeSiteAuth, summarizeStep, typesCharacter, urlMatches, urlsOf, type SiteAuthSetup } from '../../../src/shared/site-auth.ts';

const SETUP: SiteAuthSetup = {
  headers: { 'X-Preview-Token': 'tok-SECRET-1' },
  cookies: [{ name: 'consent', value: 'SECRET-2' }],
  basic: { username: 'stage', password: 'SECRET-3' },
  login: {
    url: 'https://example.org/login',
    steps: [
      { action: 'fill', label: 'Email', value: 'me@example.org' },
      { action: 'fill', selector: '#password', value: 'SECRET-4' },
      { action: 'click', text: 'Sign in' },
      { action: 'waitFor', url: '/account*' },
    ],
    loggedIn: { selector: '#logout' },
  },
};

describe('site authentication set-up', () => {
  it('matches URL patterns against the path or the whole URL', () => {
    expect(urlMatches('/login*', 'https://example.org/login?next=/a')).toBe(true);
    expect(urlMatches('/login', 'https://example.org/login?next=/a')).toBe(false);
    expect(urlMatches('/account/*', 'https://example.org/account/orders')).toBe(true);
    expect(urlMatches('/account/*', 'https://example.org/accounts')).toBe(false);
    expect(urlMatches('https://example.org/*', 'https://example.org/x')).toBe(true);
    expect(urlMatches('https://example.org/*', 'https://example.org.evil/x')).toBe(false);
    // Regex characters are literal.
    expect(urlMatches('/a.b', 'https://example.org/aXb')).toBe(false);
    expect(urlMatches('/a.b', 'https://example.org/a.b')).toBe(true);
  });

  it('matches a star pattern as a backtracking regular expression would, on any pattern and subject', () => {
    const regexMatch = (pattern: string, subject: string) =>
      new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's').test(subject);
    const text = (max: number) => fc.string({ unit: fc.constantFrom('a', 'b', '*', '/', '.'), maxLength: max });
    fc.assert(
      fc.property(text(8), text(12), (pattern, subject) => {
        expect(globMatches(pattern, subject.replaceAll('*', 'c'))).toBe(regexMatch(pattern, subject.replaceAll('*', 'c')));
      }),
      { numRuns: 5000 },
    );
  });

  it('answers a pattern of many stars at once (a backtracking regex took over a minute on it)', () => {
    const path = `/${'a'.repeat(40)}`;
    expect(urlMatches('/*a*a*a*a*a*a*a*a*a*a*a*a*b', `https://example.org${path}`)).toBe(false);
    expect(urlMatches(`/*${'a*'.repeat(200)}b`, `https://example.org/${'a'.repeat(5000)}`)).toBe(false);
    expect(urlMatches('/*a*a*a*a*a*a*a*a*a*a*a*a*', `https://example.org${path}`)).toBe(true);
  });

  it('knows the login form by its pattern, or else by the login URL path', () => {
    expect(isLoginUrl(SETUP, 'https://example.org/login?next=%2F')).toBe(true);
    expect(isLoginUrl(SETUP, 'https://example.org/account')).toBe(false);
    const withPattern = { login: { ...SETUP.login!, loginUrlPattern: '/auth/*' } };
    expect(isLoginUrl(withPattern, 'https://example.org/auth/sign-in')).toBe(true);
    expect(isLoginUrl(withPattern, 'https://example.org/login')).toBe(false);
    expect(isLoginUrl({}, 'https://example.org/login')).toBe(false);
  });

  it('summarizes without a single secret value', () => {
    const summary = summarizeSiteAuth(SETUP);
    const text = JSON.stringify(summary);
    for (const secret of ['SECRET', 'tok-', 'me@example.org']) expect(text).not.toContain(secret);
    expect(summary).toEqual({
      headers: ['X-Preview-Token'],
      cookies: [{ name: 'consent', path: '/' }],
      basic: { username: 'stage', hasPassword: true },
      login: {
        url: 'https://example.org/login',
        steps: [
          { action: 'fill', label: 'Email', hasValue: true },
          { action: 'fill', selector: '#password', hasValue: true },
          { action: 'click', text: 'Sign in' },
          { action: 'waitFor', url: '/account*' },
        ],
        loggedIn: { selector: '#logout' },
        loginUrlPattern: null,
        stepTimeoutMs: 10_000,
      },
    });
    expect(describeStep(SETUP.login!.steps[1]!, 1)).toBe('login step 2 (fill #password)');
    expect(describeStep(SETUP.login!.steps[0]!, 0)).not.toContain('me@example.org');
  });

  it('lists the URLs to hold to the site, and scopes requests to its origin', () => {
    expect(urlsOf({ login: { ...SETUP.login!, steps: [{ action: 'goto', url: 'https://x.example/' }] } })).toEqual([
      { path: 'login.url', url: 'https://example.org/login' },
      { path: 'login.steps.0.url', url: 'https://x.example/' },
    ]);
    expect(onOrigin('https://example.org/a', 'https://example.org')).toBe(true);
    expect(onOrigin('https://example.org:8443/a', 'https://example.org')).toBe(false);
    expect(onOrigin('http://example.org/a', 'https://example.org')).toBe(false);
    expect(onOrigin('https://cdn.example.org/a', 'https://example.org')).toBe(false);
    expect(basicAuthorization({ username: 'a', password: 'b' })).toBe(`Basic ${Buffer.from('a:b').toString('base64')}`);
  });

  it('validates the PUT body strictly', () => {
    expect(PutSiteAuthBody.safeParse(SETUP).success).toBe(true);
    const bad: unknown[] = [
      {},
      { headers: { Host: 'x' } },
      { headers: { cookie: 'a=b' } },
      { headers: { 'Bad Name': 'x' } },
      { headers: { 'X-A': 'line\r\nbreak' } },
      { headers: { 'X-A': '1', 'x-a': '2' } },
      { cookies: [{ name: 'a', value: 'has space' }] },
      { cookies: [{ name: 'a', value: 'v', path: 'no-slash' }] },
      { basic: { username: 'a:b', password: 'x' } },
      { basic: { username: 'a', password: 'x', extra: 1 } },
      { login: { ...SETUP.login, url: 'ftp://example.org/' } },
      { login: { ...SETUP.login, steps: [] } },
      { login: { ...SETUP.login, steps: [{ action: 'fill', value: 'x' }] } },
      { login: { ...SETUP.login, steps: [{ action: 'fill', selector: '#a', label: 'A', value: 'x' }] } },
      { login: { ...SETUP.login, steps: [{ action: 'click' }] } },
      { login: { ...SETUP.login, steps: [{ action: 'waitFor' }] } },
      { login: { ...SETUP.login, steps: [{ action: 'eval', code: '1' }] } },
      { login: { ...SETUP.login, loggedIn: {} } },
      { login: { ...SETUP.login, steps: Array(21).fill({ action: 'click', text: 'x' }) } },
      { headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-${i}`, 'v'])) },
    ];
    for (const b of bad) expect(PutSiteAuthBody.safeParse(b).success, JSON.stringify(b).slice(0, 120)).toBe(false);
  });

  it('keeps a character pressed write-only like a value typed, and names the keys it presses', () => {
    expect(typesCharacter('a')).toBe(true);
    expect(typesCharacter('Shift+7')).toBe(true);
    expect(typesCharacter('Enter')).toBe(false);
    expect(typesCharacter('Shift+Tab')).toBe(false);
    expect(summarizeStep({ action: 'press', key: 'x', selector: '#pin' })).toEqual({ action: 'press', selector: '#pin', hasValue: true });
    expect(summarizeStep({ action: 'press', key: 'Enter' })).toEqual({ action: 'press', key: 'Enter' });
    expect(describeStep({ action: 'press', key: '7', selector: '#pin' }, 2)).toBe('login step 3 (press a character in #pin)');
    expect(describeStep({ action: 'press', key: 'Enter' }, 0)).toBe('login step 1 (press Enter)');
  });
});
