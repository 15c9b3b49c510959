import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserProvider, resolveChromiumPath, type BrowserProvider } from '../../../src/audit/session/browser-provider.ts';
import { scanUrl } from '../../../src/audit/scan-url.ts';
import { openTab } from '../../../src/audit/session/page-session.ts';
import { createTargetPolicy, type TargetPolicy } from '../../../src/security/target-policy.ts';
import { html, startStaticServer, type StaticServer } from '../../support/static-server.ts';
import { attachSocket, SENDING_WIDGETS_ASSETS, SENDING_WIDGETS_PAGE, type SocketLog } from '../../helpers/sending-widgets.ts';

// The checks that operate a page (keys and clicks on custom controls, choices changed, a form sent
// empty, states opened by a click, pictures) never act on the site: no request they set off
// reaches its server, not even one a timer sends after the check, and the next page on the same
// tab loads normally.

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

const png = (_req: unknown, res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'content-type': 'image/png' });
  res.end(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));
};

describe('operating a page sends nothing to the site', () => {
  let server: StaticServer;
  let socket: SocketLog;
  let browser: BrowserProvider;
  let policy: TargetPolicy;

  beforeAll(async () => {
    const routes: Record<string, import('../../support/static-server.ts').Handler> = {
      '/account': html(page),
      '/plain': html('<!doctype html><html lang="en"><title>Plain</title><main><h1>Plain</h1></main></html>'),
      '/inbox': html(SENDING_WIDGETS_PAGE),
      '/inbox.css': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/css' });
        res.end('body{font:16px sans-serif}');
      },
    };
    for (const asset of SENDING_WIDGETS_ASSETS) if (asset.endsWith('.png')) routes[asset] = png;
    server = await startStaticServer(routes);
    socket = attachSocket(server);
    policy = createTargetPolicy({ allowPrivate: false, allowHosts: [server.host] });
    browser = createBrowserProvider({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH) });
  });
  afterAll(async () => {
    await browser?.close();
    await socket?.close();
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
      expect(r.kind === 'scanned' && r.findings.map((f) => f.ruleId)).toContain('keyboard-activation');
    } finally {
      await tab.close();
    }
  }, 120_000);

  it('opens widgets that send (POST, DELETE, a beacon, a form into a new window, a WebSocket message, a ping) and the server sees only GETs', async () => {
    const tab = await openTab({ browser: await browser.get(), policy, pageLoadTimeoutMs: 8_000 });
    const from = server.requests.length;
    try {
      const r = await scanUrl(`${server.origin}/inbox`, {
        tab,
        policy,
        pageLoadTimeoutMs: 8_000,
        deadlineMs: 90_000,
        states: { maxStates: 10, budgetMs: 30_000 },
        screenshots: { pick: (found) => found.slice(0, 10), budgetMs: 10_000 },
      });
      expect(r.kind).toBe('scanned');
      if (r.kind !== 'scanned') return;
      // A timer or an unload handler any of them set would fire now, or when the tab moves on.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await scanUrl(`${server.origin}/plain`, { tab, policy, pageLoadTimeoutMs: 8_000, deadlineMs: 60_000 });
      const sent = server.requests.slice(from);
      expect(sent.filter((line) => !line.startsWith('GET '))).toEqual([]);
      expect(socket.messages).toEqual([]);
      // Each widget was really opened: the barrier it reveals is reported with the state that revealed it.
      const revealedBy = (marker: string) => r.findings.find((f) => f.elementHtml.includes(marker))?.state?.target;
      expect(revealedBy('bell.png')).toBe('#notifications');
      expect(revealedBy('more.png')).toMatch(/summary/);
      expect(revealedBy('sent.png')).toBe('#tab-send');
      expect(revealedBy('live.png')).toBe('#live');
      expect(revealedBy('close-deleted')).toBe('#delete-draft');
      // The engines that press keys and send forms empty ran on it too.
      expect(r.engines.filter((e) => e.engine === 'keyboard' || e.engine === 'forms').map((e) => e.error ?? 'ok')).toEqual(['ok', 'ok']);
      // Only GETs of what renders the page, and of the page itself (loaded again after operating it).
      const paths = new Set(sent.map((line) => line.slice(4)));
      for (const p of paths) expect(['/inbox', '/plain', '/favicon.ico', '/socket', ...SENDING_WIDGETS_ASSETS]).toContain(p);
    } finally {
      await tab.close();
    }
  }, 150_000);
});
