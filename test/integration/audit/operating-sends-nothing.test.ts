import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserProvider, resolveChromiumPath, type BrowserProvider } from '../../../src/audit/session/browser-provider.ts';
import { scanUrl } from '../../../src/audit/scan-url.ts';
import { openTab } from '../../../src/audit/session/page-session.ts';
import { createTargetPolicy, type TargetPolicy } from '../../../src/security/target-policy.ts';
import { html, startStaticServer, type StaticServer } from '../../support/static-server.ts';

// The checks that operate a page (keys and clicks on custom controls, choices changed, a form sent
// empty) never act on the site: no request they set off reaches its server, not even one a timer
// sends after the check, and the next page on the same tab loads normally.

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Account</title></head><body><main>
<h1>Account</h1>
<div role="button" tabindex="0" id="del" onclick="document.getElementById('status').textContent = 'Deleting…'; fetch('/api/delete-account', { method: 'POST' })">Delete my account</div><p id="status"></p>
<label><input type="checkbox" id="news" onchange="navigator.sendBeacon('/api/newsletter', 'yes')"> Newsletter</label>
<form id="f" action="/api/subscribe" method="post">
  <label for="email">Email *</label><input id="email" name="email" required aria-required="true">
  <button type="submit">Subscribe</button>
</form>
<script>
  document.getElementById('f').addEventListener('submit', (e) => {
    e.preventDefault();
    setTimeout(() => fetch('/api/subscribe-later', { method: 'POST', body: 'x' }), 300);
  });
</script>
</main></body></html>`;

describe('operating a page sends nothing to the site', () => {
  let server: StaticServer;
  let browser: BrowserProvider;
  let policy: TargetPolicy;

  beforeAll(async () => {
    server = await startStaticServer({ '/account': html(page), '/plain': html('<!doctype html><html lang="en"><title>Plain</title><main><h1>Plain</h1></main></html>') });
    policy = createTargetPolicy({ allowPrivate: false, allowHosts: [server.host] });
    browser = createBrowserProvider({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH) });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('keeps every request a key, a click or an empty submission sets off away from the server', async () => {
    const tab = await openTab({ browser: await browser.get(), policy, pageLoadTimeoutMs: 8_000 });
    try {
      const r = await scanUrl(`${server.origin}/account`, { tab, policy, pageLoadTimeoutMs: 8_000, deadlineMs: 60_000 });
      expect(r.kind).toBe('scanned');
      // The same tab, next page: a timer the submit set on the last page would fire now.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const next = await scanUrl(`${server.origin}/plain`, { tab, policy, pageLoadTimeoutMs: 8_000, deadlineMs: 60_000 });
      expect(next).toMatchObject({ kind: 'scanned', pageTitle: 'Plain' });
      expect(server.hits.filter((h) => h.startsWith('/api/'))).toEqual([]);
      // The page was operated (its custom button is reported), so the check did run.
      if (r.kind === 'scanned') expect(r.findings.map((f) => f.ruleId)).toContain('keyboard-activation');
    } finally {
      await tab.close();
    }
  }, 120_000);
});
