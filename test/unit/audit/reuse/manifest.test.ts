import { describe, expect, it } from 'vitest';
import { buildManifest, mergeManifests, recheck, type SeenRequest } from '../../../../src/audit/reuse/manifest.ts';
import { auditKey, engineVersion, type AuditSetting } from '../../../../src/audit/reuse/audit-key.ts';
import { reuseMaxAgeMs } from '../../../../src/config.ts';

const PAGE = 'https://example.org/docs/';
const ok = (url: string, extra: Partial<SeenRequest> = {}, response: SeenRequest['response'] = { status: 200, sha256: 'h' + url.length }): SeenRequest => ({
  url,
  method: 'GET',
  resourceType: 'stylesheet',
  mainFrameNavigation: false,
  response,
  ...extra,
});
const doc = (url = PAGE, response: SeenRequest['response'] = { status: 200, etag: '"v1"', sha256: 'doc' }) => ok(url, { resourceType: 'document', mainFrameNavigation: true }, response);

describe('buildManifest', () => {
  it('lists the page first, then every resource once', () => {
    const m = buildManifest(PAGE, [ok('https://cdn.example/a.css'), doc(), ok('https://example.org/x.js'), ok('https://cdn.example/a.css')]);
    expect(m.usable).toBe(true);
    if (!m.usable) return;
    expect(m.entries.map((e) => e.url)).toEqual([PAGE, 'https://cdn.example/a.css', 'https://example.org/x.js']);
    expect(m.entries[0]).toEqual({ url: PAGE, status: 200, etag: '"v1"', sha256: 'doc' });
  });

  it('skips data: and blob: URLs, and keeps a same-page reload as one entry', () => {
    const m = buildManifest(PAGE, [doc(), ok('data:image/png;base64,AAAA'), ok('blob:https://example.org/1'), doc(`${PAGE}#top`)]);
    expect(m).toEqual({ usable: true, entries: [{ url: PAGE, status: 200, etag: '"v1"', sha256: 'doc' }] });
  });

  it('follows the document through its own redirects', () => {
    const m = buildManifest('https://example.org/old', [
      doc('https://example.org/old', { status: 301, location: '/new' }),
      doc('https://example.org/new', { status: 200, sha256: 'n' }),
    ]);
    expect(m.usable).toBe(true);
  });

  it.each<[string, SeenRequest[], RegExp]>([
    ['a POST', [doc(), ok('https://example.org/api', { method: 'POST' })], /POST/],
    ['a failed request', [doc(), ok('https://example.org/a.css', { failed: 'net::ERR_CONNECTION_RESET' })], /failed/],
    ['a request that never ended', [doc(), ok('https://example.org/poll', { pending: true, response: undefined })], /never ended/],
    ['a WebSocket', [doc(), ok('https://example.org/ws', { resourceType: 'websocket' })], /websocket/],
    ['a navigation elsewhere', [doc(), doc('https://example.org/elsewhere')], /navigated/],
    ['an answer with nothing to check it by', [doc(), ok('https://example.org/big.mp4', {}, { status: 200 })], /nothing to check/],
    ['the same URL answering twice otherwise', [doc(), ok('https://example.org/a.css'), ok('https://example.org/a.css', {}, { status: 200, sha256: 'other' })], /differently/],
    ['no document at all', [ok('https://example.org/a.css')], /own document/],
    ['a scheme that is not http(s)', [doc(), ok('ftp://example.org/x')], /not http/],
  ])('is unusable with %s', (_what, seen, reason) => {
    const m = buildManifest(PAGE, seen);
    expect(m.usable).toBe(false);
    if (!m.usable) expect(m.reason).toMatch(reason);
  });

  it('is unusable when the egress proxy refused a request, or past the resource limit', () => {
    expect(buildManifest(PAGE, [doc()], { refusedByProxy: 1 }).usable).toBe(false);
    const many = [doc(), ...Array.from({ length: 5 }, (_, i) => ok(`https://example.org/${i}.png`))];
    expect(buildManifest(PAGE, many, { limit: 5 })).toEqual({ usable: false, reason: 'more than 5 resources' });
    expect(buildManifest(PAGE, many, { limit: 6 }).usable).toBe(true);
  });
});

describe('recheck', () => {
  const entry = { url: PAGE, status: 200, etag: '"v1"', sha256: 'doc' };
  it('takes a 304 to the validators as unchanged', () => {
    expect(recheck(entry, { kind: 'not-modified' })).toEqual({ same: true, entry });
    expect(recheck({ url: PAGE, status: 200, sha256: 'x' }, { kind: 'not-modified' }).same).toBe(false);
  });
  it('compares a full answer by status and bytes, and keeps its new validators', () => {
    expect(recheck(entry, { kind: 'answered', status: 200, sha256: 'doc', etag: '"v2"' })).toEqual({ same: true, entry: { url: PAGE, status: 200, sha256: 'doc', etag: '"v2"' } });
    expect(recheck(entry, { kind: 'answered', status: 200, sha256: 'changed' }).same).toBe(false);
    expect(recheck(entry, { kind: 'answered', status: 404, sha256: 'doc' }).same).toBe(false);
    expect(recheck(entry, { kind: 'answered', status: 200 }).same).toBe(false);
    expect(recheck(entry, { kind: 'failed', reason: 'timeout' }).same).toBe(false);
  });
  it('takes a full answer with the same strong ETag as unchanged when only validators were recorded, never a weak one', () => {
    const validated = { url: PAGE, status: 200, etag: '"v1"' };
    expect(recheck(validated, { kind: 'answered', status: 200, etag: '"v1"', sha256: 'any' })).toEqual({ same: true, entry: validated });
    expect(recheck(validated, { kind: 'answered', status: 200, etag: '"v2"', sha256: 'any' }).same).toBe(false);
    expect(recheck({ url: PAGE, status: 200, etag: 'W/"v1"' }, { kind: 'answered', status: 200, etag: 'W/"v1"' }).same).toBe(false);
    expect(recheck({ url: PAGE, status: 200, lastModified: 'Tue, 01 Dec 2026 00:00:00 GMT' }, { kind: 'answered', status: 200, lastModified: 'Tue, 01 Dec 2026 00:00:00 GMT' }).same).toBe(false);
  });
  it('compares a redirect by where it leads', () => {
    const r = { url: PAGE, status: 301, location: '/new' };
    expect(recheck(r, { kind: 'answered', status: 301, location: '/new' }).same).toBe(true);
    expect(recheck(r, { kind: 'answered', status: 301, location: '/other' }).same).toBe(false);
  });
});

describe('mergeManifests', () => {
  const a = { usable: true as const, entries: [{ url: PAGE, status: 200, sha256: 'd' }, { url: 'https://example.org/a.css', status: 200, sha256: 'a' }] };
  it('unites the viewports\' manifests, usable only if each is and they agree', () => {
    const b = { usable: true as const, entries: [{ url: PAGE, status: 200, sha256: 'd' }, { url: 'https://example.org/m.css', status: 200, sha256: 'm' }] };
    expect(mergeManifests([a, b])).toMatchObject({ usable: true, entries: [{ url: PAGE }, { url: 'https://example.org/a.css' }, { url: 'https://example.org/m.css' }] });
    expect(mergeManifests([a, { usable: false, reason: 'a POST' }])).toEqual({ usable: false, reason: 'a POST' });
    expect(mergeManifests([a, undefined]).usable).toBe(false);
    expect(mergeManifests([a, { usable: true, entries: [{ url: PAGE, status: 200, sha256: 'other' }] }]).usable).toBe(false);
  });
});

describe('auditKey', () => {
  const setting: AuditSetting = { engines: ['axe', 'reflow'], viewports: ['desktop'], states: null, login: null, judge: null, enricher: 'offline', screenshots: true };
  it('is the same for the same engines and settings', () => {
    expect(auditKey(setting)).toBe(auditKey({ ...setting, engines: ['axe', 'reflow'] }));
    expect(auditKey(setting)).toMatch(/^[0-9a-f]{64}$/);
    // States that do nothing are no states.
    expect(auditKey({ ...setting, states: { maxStates: 0, budgetMs: 5000 } })).toBe(auditKey(setting));
  });
  it.each<[string, Partial<AuditSetting>]>([
    ['another engine set', { engines: ['axe'] }],
    ['other viewports', { viewports: ['desktop', 'mobile'] }],
    ['interaction states', { states: { maxStates: 6, budgetMs: 5000 } }],
    ['a login', { login: '2026-11-01T00:00:00.000Z' }],
    ['a judgement model', { judge: 'gpt-x' }],
    ['another enricher', { enricher: 'gpt-x' }],
    ['pictures off', { screenshots: false }],
  ])('changes with %s', (_what, change) => {
    expect(auditKey({ ...setting, ...change })).not.toBe(auditKey(setting));
  });
  it('changes with the engines\' version', () => {
    expect(auditKey(setting, 'other')).not.toBe(auditKey(setting));
    expect(engineVersion()).toMatch(/axe-core@/);
  });
});

describe('REUSE_MAX_AGE', () => {
  it('reads durations, days, and off', () => {
    expect(reuseMaxAgeMs('30d')).toBe(30 * 86_400_000);
    expect(reuseMaxAgeMs('12h')).toBe(12 * 3_600_000);
    expect(reuseMaxAgeMs('90m')).toBe(90 * 60_000);
    expect(reuseMaxAgeMs('45s')).toBe(45_000);
    expect(reuseMaxAgeMs('7')).toBe(7 * 86_400_000);
    expect(reuseMaxAgeMs('0')).toBe(0);
    expect(reuseMaxAgeMs('off')).toBe(0);
    expect(reuseMaxAgeMs('soon')).toBeUndefined();
    expect(reuseMaxAgeMs('99999d')).toBeUndefined();
  });
});
