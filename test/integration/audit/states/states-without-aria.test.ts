import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeEngine } from '../../../../src/audit/engines/axe/axe.engine.ts';
import { createProbe, type Probe } from '../../../../src/audit/states/probe.ts';
import type { FindingDraft } from '../../../../src/shared/findings.ts';
import { openFixtureScanner, type FixtureScanner, type ScannedResult } from '../../../helpers/scan-fixture.ts';

// Issue 43, item 3: states opened by controls that carry no aria state. Bootstrap 5 as its
// documentation writes a modal and an offcanvas panel (data-bs-toggle alone), served from the
// bootstrap package itself; and controls whose own click listener (or onclick) shows content.

const require = createRequire(import.meta.url);
const asset = (file: string) => readFileSync(require.resolve(`bootstrap/dist/${file}`), 'utf8');

let scanner: FixtureScanner;
beforeAll(async () => {
  scanner = await openFixtureScanner();
  scanner.server.route('/bootstrap.min.css', (_q, res) => void res.writeHead(200, { 'content-type': 'text/css' }).end(asset('css/bootstrap.min.css')));
  scanner.server.route('/bootstrap.bundle.min.js', (_q, res) => void res.writeHead(200, { 'content-type': 'text/javascript' }).end(asset('js/bootstrap.bundle.min.js')));
});
afterAll(async () => {
  await scanner?.close();
});

const generous = { maxStates: 10, budgetMs: 60_000 };
const on = (r: ScannedResult, ruleId: string, marker: string): FindingDraft[] => r.findings.filter((f) => f.ruleId === ruleId && f.elementHtml.includes(marker));

const BOOTSTRAP_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bootstrap widgets</title>
<link href="/bootstrap.min.css" rel="stylesheet"></head><body><main class="container"><h1>Widgets</h1>
<button type="button" id="launch" class="btn btn-primary" data-bs-toggle="modal" data-bs-target="#exampleModal">Launch demo modal</button>
<div class="modal fade" id="exampleModal" tabindex="-1" aria-labelledby="exampleModalLabel" aria-hidden="true">
  <div class="modal-dialog"><div class="modal-content">
    <div class="modal-header"><h2 class="modal-title fs-5" id="exampleModalLabel">Modal title</h2>
      <button type="button" class="btn-close" data-bs-dismiss="modal" id="modal-close"></button></div>
    <div class="modal-body"><p>Woo-hoo, you're reading this text in a modal!</p></div>
    <div class="modal-footer"><button type="button" class="btn btn-secondary" data-bs-dismiss="modal">Close</button></div>
  </div></div>
</div>
<a class="btn btn-primary" id="open-panel" data-bs-toggle="offcanvas" href="#offcanvasExample" role="button" aria-controls="offcanvasExample">Link with href</a>
<div class="offcanvas offcanvas-start" tabindex="-1" id="offcanvasExample" aria-labelledby="offcanvasExampleLabel">
  <div class="offcanvas-header"><h2 class="offcanvas-title" id="offcanvasExampleLabel">Offcanvas</h2>
    <button type="button" class="btn-close" data-bs-dismiss="offcanvas" aria-label="Close"></button></div>
  <div class="offcanvas-body"><p>Some text.</p><a href="/offcanvas-target" id="panel-empty-link"></a></div>
</div>
</main><script src="/bootstrap.bundle.min.js"></script></body></html>`;

describe('interaction states without aria', () => {
  it("opens Bootstrap's modal and offcanvas, triggered by data-bs-toggle alone, and finds what each holds", async () => {
    const path = '/bootstrap.html';
    const r = await scanner.scan(BOOTSTRAP_PAGE, { engines: [axeEngine], states: generous, path });
    expect(on(r, 'button-name', 'modal-close').map((f) => f.state)).toEqual([{ action: 'click', target: '#launch', label: 'Launch demo modal' }]);
    expect(on(r, 'link-name', 'panel-empty-link').map((f) => f.state)).toEqual([{ action: 'click', target: '#open-panel', label: 'Link with href' }]);
    // Both closed again without loading the page a second time, and nothing navigated.
    expect(scanner.server.hits.filter((h) => h === path)).toHaveLength(1);
    expect(scanner.server.hits.filter((h) => h.startsWith('/offcanvas-target'))).toEqual([]);
    expect(r.engines.find((e) => e.engine === 'states')?.error).toBeUndefined();
  }, 120_000);

  it('opens controls whose own click listener, onclick or a listener on the document shows content, and never one that navigates', async () => {
    const path = '/scripted.html';
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Scripted</title></head><body><main><h1>Scripted</h1>
      <span id="more-toggle" class="toggle">Show details</span>
      <div id="more" style="display:none"><img src="/chart.png" width="20" height="20"></div>
      <div id="legacy" onclick="const p = document.getElementById('legacy-panel'); p.style.display = p.style.display === 'none' ? 'block' : 'none'">Legacy toggle</div>
      <div id="legacy-panel" style="display:none"><input type="text" id="unnamed-field"></div>
      <button type="button" id="delegated">Filters</button>
      <div id="filters" hidden><button type="button" id="icon-only"><svg width="10" height="10"></svg></button></div>
      <div id="away" onclick="location.href = '/elsewhere'">Elsewhere</div>
      <p><a href="#" id="self-link">Scripted</a> <a href="#top" id="to-top">Back to top</a></p>
      <script>
        document.getElementById('more-toggle').addEventListener('click', () => {
          const d = document.getElementById('more');
          d.style.display = d.style.display === 'none' ? 'block' : 'none';
        });
        document.addEventListener('click', (e) => {
          if (e.target.closest('#delegated')) { const f = document.getElementById('filters'); f.hidden = !f.hidden; }
        });
      </script></main></body></html>`;
    const r = await scanner.scan(page, { engines: [axeEngine], states: generous, path });
    expect(on(r, 'image-alt', 'chart.png').map((f) => f.state)).toEqual([{ action: 'click', target: '#more-toggle', label: 'Show details' }]);
    expect(on(r, 'label', 'unnamed-field').map((f) => f.state?.target)).toEqual(['#legacy']);
    expect(on(r, 'button-name', 'icon-only').map((f) => f.state?.target)).toEqual(['#delegated']);
    // The navigating onclick was clicked or not, but nothing left the page.
    expect(scanner.server.hits.filter((h) => h.startsWith('/elsewhere'))).toEqual([]);
    // A fragment link with no listener of its own is an anchor: never opened as a state, so the
    // page's address never changed and it was never loaded again.
    const opened = new Set(r.findings.map((f) => f.state?.target).filter(Boolean));
    expect(opened).not.toContain('#self-link');
    expect(opened).not.toContain('#to-top');
    expect(scanner.server.hits.filter((h) => h === path)).toHaveLength(1);
    // The default state has none of them.
    expect(r.findings.filter((f) => !f.state).map((f) => f.ruleId)).not.toContain('image-alt');
  }, 120_000);

  it("puts the page's local and session storage back after a state", async () => {
    scanner.server.route('/storage.html', (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Storage</title><p>Storage</p>'));
    const { createBrowserProvider, resolveChromiumPath } = await import('../../../../src/audit/session/browser-provider.ts');
    const provider = createBrowserProvider({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH) });
    try {
      const page = await (await provider.get()).newPage();
      await page.goto(`${scanner.server.origin}/storage.html`);
      await page.evaluate(() => {
        localStorage.setItem('theme', 'light');
        sessionStorage.setItem('step', '1');
      });
      const probe = await page.evaluateHandle(createProbe, 1000);
      await probe.evaluate((p: Probe) => p.snapshot());
      await page.evaluate(() => {
        localStorage.setItem('theme', 'dark');
        localStorage.setItem('seen-banner', 'yes');
        sessionStorage.removeItem('step');
      });
      await probe.evaluate((p: Probe) => p.restoreStorage());
      expect(await page.evaluate(() => [{ ...localStorage }, { ...sessionStorage }])).toEqual([{ theme: 'light' }, { step: '1' }]);
    } finally {
      await provider.close();
    }
  }, 60_000);
});
