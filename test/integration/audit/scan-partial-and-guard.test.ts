import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserProvider, resolveChromiumPath, type BrowserProvider } from '../../../src/audit/session/browser-provider.ts';
import { scanUrl } from '../../../src/audit/scan-url.ts';
import { createTargetPolicy } from '../../../src/security/target-policy.ts';
import { freePort } from '../../../temporal-dev/dev-server.ts';
import { html, startStaticServer, type StaticServer } from '../../support/static-server.ts';
import { fixtureFile } from '../../helpers/fixture-pages.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../../helpers/test-env.ts';

describe('a scan whose enrichment fails', () => {
  let env: TestEnv;
  let site: StaticServer;
  let attempts = 0;
  beforeAll(async () => {
    site = await startStaticServer({ '/barriers': fixtureFile('pages/barriers.html') });
    env = await createTestEnv({
      overrides: {
        ai: {
          async enrichScan() {
            attempts++;
            throw new Error('the enrichment model is unreachable');
          },
        },
      },
      enrichmentRetry: { maximumAttempts: 2, initialIntervalMs: 50 },
    });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  it('ends completed_partial after its retries, keeping the engine texts and a summary', async () => {
    const res = await env.request('/api/scans', { method: 'POST', json: { url: `${site.origin}/barriers` } });
    const { id } = await res.json();
    const scan = await pollUntil(
      async () => (await env.request(`/api/scans/${id}`)).json(),
      (s) => !['queued', 'running'].includes(s.status),
    );
    expect(scan.status).toBe('completed_partial');
    expect(attempts).toBe(2);
    expect(scan.progress).toBe(100);
    expect(scan.issues).toHaveLength(6);
    const alt = scan.issues.find((i: any) => i.axeRuleId === 'image-alt');
    // The engine's own help text and failure summary, untouched by enrichment.
    expect(alt.description).toMatch(/^Images must have alternative text/);
    expect(alt.fixSuggestion).toMatch(/Fix any of the following/);
    expect(scan.summary.overallScore).toBe(scan.overallScore);
    expect(scan.summary.topPriorities.length).toBeGreaterThan(0);
  });
});

describe('a crawl whose enrichment fails', () => {
  let env: TestEnv;
  let site: StaticServer;
  beforeAll(async () => {
    site = await startStaticServer(
      {
        '/': html('<!doctype html><html lang="en"><title>Home</title><main><h1>Home</h1><p>See <a href="/barriers">the barriers page</a>.</p></main></html>'),
        '/barriers': fixtureFile('pages/barriers.html'),
      },
      { host: '127.0.0.7' },
    );
    env = await createTestEnv({
      overrides: { ai: { enrichCrawlPage: async () => Promise.reject(new Error('the enrichment model is unreachable')) } },
      enrichmentRetry: { maximumAttempts: 2, initialIntervalMs: 50 },
    });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  it('ends completed_partial with every page scanned and the engine texts kept', async () => {
    const s = await (await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } })).json();
    const { crawlId } = await (await env.request(`/api/sites/${s.id}/crawl`, { method: 'POST' })).json();
    const c = await pollUntil(
      async () => (await env.request(`/api/sites/${s.id}/crawls/${crawlId}`)).json(),
      (x) => !['queued', 'running'].includes(x.status),
    );
    expect(c).toMatchObject({ status: 'completed_partial', totalPages: 2, scannedPages: 2, enrichedPages: 0, failedPages: 0, newIssues: 6 });
    const issues = (await (await env.request(`/api/sites/${s.id}/issues?limit=100`)).json()).data;
    expect(issues).toHaveLength(6);
    expect(issues.find((i: any) => i.axeRuleId === 'image-alt').description).toMatch(/^Images must have alternative text/);
  });
});

describe('the browser obeys the target policy (SSRF guard)', () => {
  let browser: BrowserProvider;
  let site: StaticServer;
  let secret: StaticServer;
  beforeAll(async () => {
    secret = await startStaticServer({ '/secret': html('<!doctype html><title>secret</title><p>internal</p>'), '/pixel.gif': html('x') });
    site = await startStaticServer({
      '/public': html(`<!doctype html><html lang="en"><title>Public</title><main><h1>Public</h1>
        <img src="${secret.origin}/pixel.gif" alt="x"><img src="http://169.254.169.254/latest/meta-data/" alt="y">
        <script>fetch('${secret.origin}/secret').catch(() => {}); new Image().src = '${secret.origin}/pixel.gif?js';</script>
        <iframe title="inner" src="${secret.origin}/secret"></iframe></main></html>`),
      '/redirect': (_req, res) => {
        res.writeHead(302, { location: `${secret.origin}/secret` });
        res.end();
      },
    });
    browser = createBrowserProvider({ executablePath: resolveChromiumPath() });
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await secret?.close();
  });

  // Only the fixture site's own host:port counts as public here; everything else on loopback is "internal".
  const policy = () => createTargetPolicy({ allowPrivate: false, allowHosts: [site.host] });

  it('never lets a public page make the scanner fetch a private address', async () => {
    const result = await scanUrl(`${site.origin}/public`, { browser: await browser.get(), policy: policy(), pageLoadTimeoutMs: 10_000 });
    expect(result.kind).toBe('scanned');
    expect(secret.hits).toEqual([]);
    if (result.kind === 'scanned') {
      const blocked = result.blocked.map((b) => new URL(b.url).host);
      expect(blocked).toContain(secret.host);
      expect(blocked).toContain('169.254.169.254');
      // The page itself was scanned normally through the proxy.
      expect(result.pageTitle).toBe('Public');
    }
  });

  it('refuses a redirect to a private address as forbidden_target', async () => {
    const result = await scanUrl(`${site.origin}/redirect`, { browser: await browser.get(), policy: policy(), pageLoadTimeoutMs: 10_000 });
    expect(result).toMatchObject({ kind: 'page-error', error: { code: 'forbidden_target' } });
    expect(secret.hits).toEqual([]);
  });

  it('keeps precise error codes for pages loaded through the guard', async () => {
    const closed = await freePort();
    const guarded = createTargetPolicy({ allowPrivate: false, allowHosts: [site.host, `127.0.0.1:${closed}`] });
    const scan = async (url: string) => scanUrl(url, { browser: await browser.get(), policy: guarded, pageLoadTimeoutMs: 10_000 });
    expect(await scan(`http://127.0.0.1:${closed}/`)).toMatchObject({ kind: 'page-error', error: { code: 'connection_refused' } });
    expect(await scan('http://no-such-host.invalid/')).toMatchObject({ kind: 'page-error', error: { code: 'dns_error' } });
    expect(await scan('https://no-such-host.invalid/')).toMatchObject({ kind: 'page-error', error: { code: 'dns_error' } });
    expect(await scan(`${site.origin}/missing`)).toMatchObject({ kind: 'page-error', error: { code: 'http_error' }, httpStatus: 404 });
  });
});
