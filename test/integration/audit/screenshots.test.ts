import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserProvider, resolveChromiumPath, type BrowserProvider } from '../../../src/audit/session/browser-provider.ts';
import { openTab } from '../../../src/audit/session/page-session.ts';
import { scanUrl } from '../../../src/audit/scan-url.ts';
import { captureElements, SCREENSHOT_MAX_BYTES, type ScreenshotHook } from '../../../src/audit/screenshots/capture.ts';
import { pngSize } from '../../../src/shared/png-size.ts';
import { createTargetPolicy, type TargetPolicy } from '../../../src/security/target-policy.ts';
import { html, startStaticServer, type StaticServer } from '../../support/static-server.ts';

// Pictures of findings taken in real Chromium: the element outlined in its context, a small PNG,
// the page left as it was; a selector that resolves to nothing gives none, and a page that fights
// the overlay or the scrolling still scans.

const PNG = createRequire(import.meta.url)('png-js') as new (data: Buffer) => { width: number; height: number; decode(fn: (pixels: Buffer) => void): void };

function pixels(image: Buffer): Promise<{ width: number; height: number; data: Buffer }> {
  const png = new PNG(image);
  return new Promise((resolve) => png.decode((data) => resolve({ width: png.width, height: png.height, data })));
}

/** Pixels of the outline's colour (#e6007e), with some tolerance. */
async function outlinePixels(image: Buffer): Promise<number> {
  const { data } = await pixels(image);
  let n = 0;
  for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - 0xe6) < 12 && data[i + 1]! < 20 && Math.abs(data[i + 2]! - 0x7e) < 12) n++;
  return n;
}

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pictures</title>${head}</head><body><main><h1>Pictures</h1>${body}</main></body></html>`;
const filler = '<p>Some text.</p>'.repeat(80);

const everything: ScreenshotHook = { budgetMs: 20_000, pick: (findings) => findings };

describe('screenshots of findings', () => {
  let server: StaticServer;
  let browser: BrowserProvider;
  let policy: TargetPolicy;

  beforeAll(async () => {
    server = await startStaticServer({
      '/plain': html(page(`${filler}<button id="target" style="width:120px;height:40px"></button>${filler}<img id="noalt" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">`)),
      '/noisy': html(
        page(
          `<canvas id="noise" width="1200" height="900"></canvas><button id="nameless"></button>`,
          `<script>addEventListener('DOMContentLoaded', () => { const c = document.getElementById('noise').getContext('2d'); const d = c.createImageData(1200, 900); crypto.getRandomValues(d.data.subarray(0, 65536)); for (let i = 0; i < d.data.length; i += 65536) crypto.getRandomValues(d.data.subarray(i, i + 65536)); for (let i = 3; i < d.data.length; i += 4) d.data[i] = 255; c.putImageData(d, 0, 0); });</script>`,
        ),
      ),
      // Adding anything to the root element starts a script that never yields.
      '/trap': html(
        page(
          `${filler}<button id="nameless"></button>${filler}`,
          `<script>addEventListener('load', () => new MutationObserver(() => { for (;;) {} }).observe(document.documentElement, { childList: true }));</script>`,
        ),
      ),
      // Removes whatever is added to the document, breaks scrolling into view and makes scrolling back slow.
      '/hostile': html(
        page(
          `${filler}<button id="nameless"></button><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">`,
          `<script>
            addEventListener('load', () => {
              new MutationObserver((records) => { for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) n.remove(); })
                .observe(document.documentElement, { childList: true, subtree: true });
              Element.prototype.scrollIntoView = function () { throw new Error('no scrolling here'); };
              window.scrollTo = () => { for (let i = 0; i < 1e7; i++); };
            });
          </script>`,
        ),
      ),
    });
    policy = createTargetPolicy({ allowPrivate: false, allowHosts: [server.host] });
    browser = createBrowserProvider({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH) });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('outlines the element in a small PNG, gives none for a selector that finds nothing, and leaves the page as it was', async () => {
    const tab = await openTab({ browser: await browser.get(), policy, pageLoadTimeoutMs: 10_000 });
    try {
      const loaded = await tab.load(`${server.origin}/plain`);
      if (loaded.kind !== 'loaded') throw new Error(`not loaded: ${JSON.stringify(loaded)}`);
      const p = loaded.page;
      const before = await p.evaluate(() => ({ y: window.scrollY, nodes: document.getElementsByTagName('*').length }));
      const shots = await captureElements(p, ['#target', '#does-not-exist', 'p:nth-child(', '#noalt'], { budgetMs: 20_000 });
      expect([...shots.keys()].sort()).toEqual(['#noalt', '#target']);
      const shot = shots.get('#target')!;
      expect(shot.mime).toBe('image/png');
      expect(shot.image.length).toBeLessThanOrEqual(SCREENSHOT_MAX_BYTES);
      expect(pngSize(shot.image)).toEqual({ width: shot.width, height: shot.height });
      expect(shot.width).toBeLessThanOrEqual(800);
      expect(shot.height).toBeLessThanOrEqual(600);
      // Context around the 120x40 button, and the outline drawn around it.
      expect(shot.width).toBeGreaterThan(120);
      expect(shot.height).toBeGreaterThan(40);
      expect(await outlinePixels(shot.image)).toBeGreaterThan(200);
      // The overlay is gone and the page is scrolled back.
      const after = await p.evaluate(() => ({ y: window.scrollY, nodes: document.getElementsByTagName('*').length }));
      expect(after).toEqual(before);
    } finally {
      await tab.close();
    }
  }, 90_000);

  it('keeps each picture of a noisy page under the byte limit or takes none', async () => {
    const r = await scanUrl(`${server.origin}/noisy`, { browser: await browser.get(), policy, pageLoadTimeoutMs: 10_000, screenshots: everything });
    expect(r.kind).toBe('scanned');
    if (r.kind !== 'scanned') return;
    expect(r.findings.some((f) => f.ruleId === 'button-name')).toBe(true);
    for (const s of r.screenshots ?? []) {
      expect(s.image.length).toBeLessThanOrEqual(SCREENSHOT_MAX_BYTES);
      expect(pngSize(s.image)).not.toBeNull();
    }
  }, 90_000);

  it('scans a page that fights the overlay and scrolling, with its findings intact', async () => {
    const plain = await scanUrl(`${server.origin}/hostile`, { browser: await browser.get(), policy, pageLoadTimeoutMs: 10_000 });
    const r = await scanUrl(`${server.origin}/hostile`, { browser: await browser.get(), policy, pageLoadTimeoutMs: 10_000, screenshots: { ...everything, budgetMs: 5_000 } });
    expect(r.kind).toBe('scanned');
    expect(plain.kind).toBe('scanned');
    if (r.kind !== 'scanned' || plain.kind !== 'scanned') return;
    expect(r.findings.map((f) => `${f.ruleId} ${f.elementSelector}`).sort()).toEqual(plain.findings.map((f) => `${f.ruleId} ${f.elementSelector}`).sort());
    expect(r.findings.length).toBeGreaterThan(0);
    for (const s of r.screenshots ?? []) expect(s.image.length).toBeLessThanOrEqual(SCREENSHOT_MAX_BYTES);
  }, 90_000);

  it('returns the findings of a page that hangs once the outline is added, the pictures\u2019 budget spent', async () => {
    const r = await scanUrl(`${server.origin}/trap`, {
      browser: await browser.get(),
      policy,
      pageLoadTimeoutMs: 10_000,
      deadlineMs: 60_000,
      screenshots: { ...everything, budgetMs: 3_000 },
    });
    expect(r.kind).toBe('scanned');
    if (r.kind !== 'scanned') return;
    expect(r.findings.some((f) => f.ruleId === 'button-name')).toBe(true);
    // The trap went off: no picture could be taken.
    expect(r.screenshots ?? []).toHaveLength(0);
  }, 120_000);

  it('pictures what the hook picks, by rule and element, and nothing without a hook', async () => {
    const url = `${server.origin}/plain`;
    const none = await scanUrl(url, { browser: await browser.get(), policy, pageLoadTimeoutMs: 10_000 });
    expect(none.kind === 'scanned' && none.screenshots).toBeFalsy();
    const r = await scanUrl(url, {
      browser: await browser.get(),
      policy,
      pageLoadTimeoutMs: 10_000,
      screenshots: { budgetMs: 20_000, pick: (findings) => findings.filter((f) => f.ruleId === 'button-name') },
    });
    if (r.kind !== 'scanned') throw new Error('not scanned');
    expect(r.screenshots?.map((s) => [s.ruleId, s.elementSelector])).toEqual([['button-name', '#target']]);
  }, 90_000);
});
