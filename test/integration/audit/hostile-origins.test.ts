import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBrowserProvider, resolveChromiumPath, type BrowserProvider } from '../../../src/audit/session/browser-provider.ts';
import { openTab, type Tab } from '../../../src/audit/session/page-session.ts';
import { scanUrl } from '../../../src/audit/scan-url.ts';
import { fetchPage, type FetchOutcome } from '../../../src/discovery/fetch-page.ts';
import { readRobots, readSitemaps } from '../../../src/discovery/sitemaps.ts';
import { createTargetPolicy, type TargetPolicy } from '../../../src/security/target-policy.ts';
import type { PageErrorCode } from '../../../src/shared/contracts.ts';
import { drip, head, send, sendThen, startHostileOrigin, type HostileOrigin, type RawAnswer } from '../../helpers/hostile-origin.ts';
import { pollUntil } from '../../helpers/test-env.ts';

// Servers that answer what no HTTP library would send, each scanned through the egress proxy (private
// targets refused, this origin let through) in one tab, as a crawl's slot does, and fetched by
// discovery. The code under test runs in this process, as it does in the worker: an exception
// thrown in a listener or a rejection nobody handles is recorded, and must never happen. Each
// answer ends that page with a page error (or a scan), and the tab scans a plain page afterwards.

const PAGE = '<!doctype html><html lang="en"><head><title>Fine page</title></head><body><main><h1>Fine page</h1><p>Some text.</p></main></body></html>';
const CHUNKED = 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\n\r\n';

type ScanExpected = { kind: 'scanned'; pageTitle: string } | { kind: 'page-error'; code: PageErrorCode; message: RegExp; httpStatus?: number };
type FetchExpected = { kind: FetchOutcome['kind']; code?: string; message?: RegExp; status?: number };

interface HostileCase {
  path: string;
  answer: RawAnswer;
  scan: ScanExpected;
  fetch: FetchExpected;
}

const invalid = (message: RegExp): ScanExpected => ({ kind: 'page-error', code: 'invalid_response', message });
const cut = (message: RegExp): ScanExpected => ({ kind: 'page-error', code: 'connection_failed', message });
const fetchInvalid = (message: RegExp): FetchExpected => ({ kind: 'unreachable', code: 'invalid_response', message });
const fetchCut = (message: RegExp): FetchExpected => ({ kind: 'unreachable', code: 'connection_failed', message });

const CASES: Record<string, HostileCase> = {
  // The tester's page: Node refuses to write the reason phrase back, and threw in the proxy's listener.
  'a control character in the reason phrase': {
    path: '/reason-control',
    answer: send(head('HTTP/1.1 200 OK\x01', PAGE) + PAGE),
    scan: { kind: 'scanned', pageTitle: 'Fine page' },
    fetch: { kind: 'html', status: 200 },
  },
  'a control character in the reason phrase of a 404': {
    path: '/reason-control-404',
    answer: send(head('HTTP/1.1 404 Not\x01Found', PAGE) + PAGE),
    scan: { kind: 'page-error', code: 'http_error', message: /^HTTP 404 NotFound$/, httpStatus: 404 },
    fetch: { kind: 'broken', status: 404 },
  },
  'a status below 100': {
    path: '/status-99',
    answer: send(head('HTTP/1.1 099 Low', PAGE) + PAGE),
    scan: invalid(/not valid HTTP: status 99, outside 100-599/),
    fetch: fetchInvalid(/not valid HTTP: a status below 100/),
  },
  'a status above 599': {
    path: '/status-600',
    answer: send(head('HTTP/1.1 600 High', PAGE) + PAGE),
    scan: invalid(/not valid HTTP: status 600, outside 100-599/),
    fetch: fetchInvalid(/not valid HTTP: status 600, outside 100-599/),
  },
  'an invalid header name': {
    path: '/header-name',
    answer: send(head('HTTP/1.1 200 OK', PAGE, 'bad header: x\r\n') + PAGE),
    scan: invalid(/not valid HTTP: Invalid header token/),
    fetch: fetchInvalid(/not valid HTTP: Invalid header token/),
  },
  'a control character in a header value': {
    path: '/header-value',
    answer: send(head('HTTP/1.1 200 OK', PAGE, 'x-bad: a\x01b\r\n') + PAGE),
    scan: invalid(/not valid HTTP: Invalid header value char/),
    fetch: fetchInvalid(/not valid HTTP: Invalid header value char/),
  },
  'conflicting Content-Length headers': {
    path: '/content-lengths',
    answer: send(head('HTTP/1.1 200 OK', PAGE, 'content-length: 7\r\n') + PAGE),
    scan: invalid(/not valid HTTP: Duplicate Content-Length/),
    fetch: fetchInvalid(/not valid HTTP: a body whose length does not match its Content-Length/),
  },
  'broken chunked encoding after the headers went out': {
    path: '/chunks',
    answer: sendThen(`${CHUNKED}10\r\n<html><title>x</\r\n`, 150, 'zz\r\nnot a chunk\r\n'),
    scan: invalid(/not valid HTTP: Invalid character in chunk size/),
    fetch: fetchInvalid(/not valid HTTP: Invalid character in chunk size/),
  },
  'a connection reset in the middle of the headers': {
    path: '/reset-in-headers',
    answer: sendThen('HTTP/1.1 200 OK\r\ncontent-type: te', 50, 'reset'),
    scan: cut(/ECONNRESET/),
    fetch: fetchCut(/ECONNRESET/),
  },
  'a body cut short': {
    path: '/cut-body',
    answer: sendThen(head('HTTP/1.1 200 OK', PAGE.repeat(4)) + PAGE.slice(0, 40), 150, 'close'),
    scan: cut(/closed before the whole answer arrived/),
    fetch: fetchCut(/the body could not be read/),
  },
  'no body after the headers': {
    path: '/no-body',
    answer: send(head('HTTP/1.1 200 OK', PAGE)),
    scan: cut(/closed before the whole answer arrived/),
    fetch: fetchCut(/the body could not be read/),
  },
  'garbage instead of HTTP': {
    path: '/garbage',
    answer: send('\x00\xff this is not HTTP at all\r\n\r\n'),
    scan: invalid(/not valid HTTP: Expected HTTP\//),
    fetch: fetchInvalid(/not valid HTTP: Expected HTTP\//),
  },
  'a header that never ends': {
    path: '/endless-header',
    answer: drip('HTTP/1.1 200 OK\r\nx-endless: ', 'a'.repeat(4096), 5),
    scan: invalid(/not valid HTTP: Header overflow/),
    fetch: fetchInvalid(/not valid HTTP: headers larger than the client accepts/),
  },
  'interim (1xx) answers without end': {
    path: '/interim-storm',
    answer: drip('', 'HTTP/1.1 103 Early Hints\r\nlink: </x.css>; rel=preload\r\n\r\n', 2),
    scan: invalid(/not valid HTTP: more than 20 interim \(1xx\) answers/),
    // undici swallows them: only the fetch's own timeout ends it.
    fetch: { kind: 'unreachable', code: 'timeout' },
  },
  'a 101 Switching Protocols to a plain request': {
    path: '/switching-protocols',
    answer: send('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\nxx'),
    scan: invalid(/not valid HTTP: it switched protocols \(101\) on a plain request/),
    fetch: fetchInvalid(/not valid HTTP: it switched protocols \(101\) on a plain request/),
  },
  'a connection closed without a byte': {
    path: '/empty',
    answer: send(''),
    scan: cut(/socket hang up/),
    fetch: fetchCut(/other side closed/),
  },
};

function expectScan(r: Awaited<ReturnType<typeof scanUrl>>, expected: ScanExpected) {
  if (expected.kind === 'scanned') {
    expect(r).toMatchObject({ kind: 'scanned', pageTitle: expected.pageTitle });
    return;
  }
  expect(r).toMatchObject({ kind: 'page-error', error: { code: expected.code, message: expect.stringMatching(expected.message) } });
  if (expected.httpStatus !== undefined) expect(r).toMatchObject({ httpStatus: expected.httpStatus });
}

describe('hostile origins: no answer of a scanned server ends the process', () => {
  let origin: HostileOrigin;
  let browser: BrowserProvider;
  let policy: TargetPolicy;
  let tab: Tab;
  /** What reached the process's last resort: each one would have ended the worker. */
  const escaped: unknown[] = [];
  const onEscape = (err: unknown) => void escaped.push(err);

  beforeAll(async () => {
    process.on('uncaughtException', onEscape);
    process.on('unhandledRejection', onEscape);
    origin = await startHostileOrigin(Object.fromEntries(Object.values(CASES).map((c) => [c.path, c.answer])));
    origin.route('/plain', send(head('HTTP/1.1 200 OK', PAGE) + PAGE));
    // Sends a byte of its headers every 300 ms, for ever.
    origin.route('/slow-header', drip('HTTP/1.1 200 OK\r\nx-slow: ', 'a', 300));
    origin.route('/robots.txt', send(head('HTTP/1.1 099 Low', 'User-agent: *\nDisallow: /\n') + 'User-agent: *\nDisallow: /\n'));
    // The production policy (private targets refused, so every connection of the page goes through
    // the egress proxy) with this origin let through.
    policy = createTargetPolicy({ allowPrivate: false, allowHosts: [origin.host] });
    browser = createBrowserProvider({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH) });
    tab = await openTab({ browser: await browser.get(), policy, pageLoadTimeoutMs: 8_000 });
  });
  // Each test answers for what escaped during it.
  beforeEach(() => void (escaped.length = 0));
  afterAll(async () => {
    await tab?.close();
    await browser?.close();
    await origin?.close();
    process.off('uncaughtException', onEscape);
    process.off('unhandledRejection', onEscape);
  });

  const scan = (path: string) => scanUrl(`${origin.origin}${path}`, { tab, policy, pageLoadTimeoutMs: 8_000, deadlineMs: 30_000 });

  describe('scanned through the egress proxy, one tab for all', () => {
    it.each(Object.entries(CASES))('%s', async (_name, c) => {
      expectScan(await scan(c.path), c.scan);
      expect(escaped).toEqual([]);
      expect(tab.broken).toBe(false);
    }, 60_000);

    it("gives each page its own error when failed pages follow each other in the tab (the last one's error page must not spoil the next)", async () => {
      for (let i = 0; i < 5; i++) {
        expectScan(await scan('/content-lengths'), CASES['conflicting Content-Length headers']!.scan);
        expectScan(await scan('/chunks'), CASES['broken chunked encoding after the headers went out']!.scan);
      }
      expect(escaped).toEqual([]);
    }, 120_000);

    it('lets go of a server whose headers never end once the browser gives up on the page', async () => {
      expectScan(await scan('/slow-header'), { kind: 'page-error', code: 'timeout', message: /Timeout 8000ms exceeded/ });
      // The next page takes the browser away from it; the proxy must not keep the server's end open.
      expectScan(await scan('/plain'), { kind: 'scanned', pageTitle: 'Fine page' });
      await pollUntil(async () => origin.openFor('/slow-header'), (n) => n === 0, { timeoutMs: 5_000 });
      expect(escaped).toEqual([]);
    }, 60_000);

    it('scans a plain page in the same tab after all of them', async () => {
      expectScan(await scan('/plain'), { kind: 'scanned', pageTitle: 'Fine page' });
      expect(tab.pages).toBeGreaterThan(Object.keys(CASES).length);
      expect(escaped).toEqual([]);
    }, 60_000);
  });

  // With private targets allowed there is no proxy: Chromium meets the bytes itself, and its own
  // errors must name the same page errors.
  describe('scanned without the proxy (private targets allowed), one tab for all', () => {
    const DIRECT: Array<[string, ScanExpected]> = [
      ['/status-99', invalid(/^the server answered with status 99, which HTTP does not have$/)],
      ['/status-600', invalid(/^the server answered with status 600, which HTTP does not have$/)],
      ['/garbage', invalid(/ERR_INVALID_HTTP_RESPONSE/)],
      ['/content-lengths', invalid(/ERR_RESPONSE_HEADERS_MULTIPLE_CONTENT_LENGTH/)],
      ['/endless-header', invalid(/ERR_RESPONSE_HEADERS_TOO_BIG/)],
      ['/chunks', invalid(/ERR_INVALID_CHUNKED_ENCODING/)],
      ['/cut-body', cut(/ERR_CONTENT_LENGTH_MISMATCH/)],
      ['/no-body', cut(/ERR_CONTENT_LENGTH_MISMATCH/)],
      ['/plain', { kind: 'scanned', pageTitle: 'Fine page' }],
    ];
    let direct: Tab;
    let open: TargetPolicy;
    beforeAll(async () => {
      open = createTargetPolicy({ allowPrivate: true });
      direct = await openTab({ browser: await browser.get(), policy: open, pageLoadTimeoutMs: 8_000 });
    });
    afterAll(async () => {
      await direct?.close();
    });

    it.each(DIRECT)('%s', async (path, expected) => {
      expectScan(await scanUrl(`${origin.origin}${path}`, { tab: direct, policy: open, pageLoadTimeoutMs: 8_000, deadlineMs: 30_000 }), expected);
      expect(escaped).toEqual([]);
    }, 60_000);
  });

  describe('fetched by discovery', () => {
    it.each(Object.entries(CASES))('%s', async (_name, c) => {
      const url = `${origin.origin}${c.path}`;
      const out = await fetchPage(url, { siteUrl: `${origin.origin}/`, policy, timeoutMs: 2_000, retries: 1 });
      const { message, ...rest } = c.fetch;
      expect(out).toMatchObject(rest);
      if (message) expect(out).toMatchObject({ message: expect.stringMatching(message) });
      expect(escaped).toEqual([]);
    }, 30_000);

    it('reads a robots.txt that is not HTTP as none, and skips sitemaps that are not, naming why', async () => {
      const robots = await readRobots(`${origin.origin}/`, policy, 2_000);
      expect(robots.isAllowed(`${origin.origin}/anything`)).toBe(true);
      const paths = ['/status-99', '/chunks', '/garbage', '/cut-body', '/switching-protocols'];
      const out = await readSitemaps(
        `${origin.origin}/`,
        paths.map((p) => `${origin.origin}${p}`),
        policy,
        { timeoutMs: 2_000, maxUrls: 10 },
      );
      expect(out.urls).toEqual([]);
      const why = Object.fromEntries(out.problems.map((p) => [new URL(p.url).pathname, p.message]));
      expect(why).toMatchObject({
        '/status-99': expect.stringMatching(/not valid HTTP/),
        '/chunks': expect.stringMatching(/not valid HTTP/),
        '/garbage': expect.stringMatching(/not valid HTTP/),
        '/cut-body': expect.stringMatching(/the body could not be read/),
        '/switching-protocols': expect.stringMatching(/not valid HTTP/),
      });
      expect(escaped).toEqual([]);
    }, 60_000);
  });
});
