import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeEngine } from '../../../../src/audit/engines/axe/axe.engine.ts';
import { ownFinding, type ScanEngine } from '../../../../src/audit/engines/engine.ts';
import { openFixtureScanner, ofRule, type FixtureScanner } from '../../../helpers/scan-fixture.ts';

const page = (body: string, head = '') => `<!doctype html><html lang="en"><head><title>Engines</title>${head}</head><body><main>${body}</main></body></html>`;

describe('the page scan as a sequence of engines', () => {
  let scanner: FixtureScanner;
  beforeAll(async () => {
    scanner = await openFixtureScanner();
  });
  afterAll(async () => {
    await scanner?.close();
  });

  it('runs its own axe even where the page brings a copy of axe or tampers with the loader', async () => {
    const fake = `<script>
      window.axe = { run: () => Promise.resolve({ violations: [], incomplete: [], passes: [] }) };
      try { window.__a11yLoadAxe = () => {}; } catch {}
      try { delete window.__a11yLoadAxe; } catch {}
    </script>`;
    const r = await scanner.scan(page('<img src="/nothing.png" id="no-alt">', fake), { engines: [axeEngine] });
    expect(ofRule(r, 'image-alt')).toMatchObject([{ type: 'confirmed', elementSelector: '#no-alt' }]);
  });

  it('waits for content a script builds after load: after a slow request, after a timer, while the DOM keeps changing', async () => {
    scanner.server.route('/slow-data', (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('late');
      }, 700);
    });
    const slowFetch = page('<div id="out"></div><script>addEventListener("load", () => fetch("/slow-data").then((r) => r.text()).then((t) => { out.innerHTML = `<img src="/x.png" id="${t}">`; }));</script>');
    expect(ofRule(await scanner.scan(slowFetch, { engines: [axeEngine] }), 'image-alt').map((f) => f.elementSelector)).toEqual(['#late']);
    const slowXhr = page('<div id="out"></div><script>addEventListener("load", () => { const x = new XMLHttpRequest(); x.open("GET", "/slow-data"); x.onload = () => { out.innerHTML = `<img src="/x.png" id="${x.responseText}">`; }; x.send(); });</script>');
    expect(ofRule(await scanner.scan(slowXhr, { engines: [axeEngine] }), 'image-alt').map((f) => f.elementSelector)).toEqual(['#late']);
    const timer = page('<div id="out"></div><script>addEventListener("load", () => setTimeout(() => { out.innerHTML = `<img src="/x.png" id="timer">`; }, 60));</script>');
    expect(ofRule(await scanner.scan(timer, { engines: [axeEngine] }), 'image-alt').map((f) => f.elementSelector)).toEqual(['#timer']);
    // Changes every 150 ms for a while after load, then the last piece.
    const busy = page('<div id="out"></div><script>addEventListener("load", () => { let n = 0; const t = setInterval(() => { n++; out.dataset.n = n; if (n === 5) { clearInterval(t); out.innerHTML = `<img src="/x.png" id="last">`; } }, 150); });</script>');
    expect(ofRule(await scanner.scan(busy, { engines: [axeEngine] }), 'image-alt').map((f) => f.elementSelector)).toEqual(['#last']);
  });

  it('checks a page whose request never ends (a long poll) instead of waiting for it', async () => {
    scanner.server.route('/poll', () => {
      // never answers
    });
    const r = await scanner.scan(page('<img src="/x.png" id="here"><script>fetch("/poll").catch(() => {});</script>'), { engines: [axeEngine] });
    expect(ofRule(r, 'image-alt').map((f) => f.elementSelector)).toEqual(['#here']);
  });

  it('reports axe\'s css-orientation-lock violations, which axe leaves off by default', async () => {
    const locked = await scanner.scan(
      page('<p>Content</p>', '<style>@media (orientation: portrait) { html { transform: rotate(90deg); } }</style>'),
      { engines: [axeEngine] },
    );
    expect(ofRule(locked, 'css-orientation-lock')).toMatchObject([{ type: 'confirmed', wcagCriterion: '1.3.4' }]);
    const free = await scanner.scan(page('<p>Content</p>', '<style>@media (orientation: portrait) { p { color: #333; } }</style>'), { engines: [axeEngine] });
    expect(ofRule(free, 'css-orientation-lock')).toEqual([]);
  });

  it('reports a visible label missing from the accessible name as needs review, not as confirmed', async () => {
    const r = await scanner.scan(page('<a href="/x" aria-label="WCAG">ACT rules</a>'), { engines: [axeEngine] });
    expect(ofRule(r, 'label-content-name-mismatch')).toMatchObject([{ type: 'needs_review', wcagCriterion: '2.5.3' }]);
    const ok = await scanner.scan(page('<a href="/x" aria-label="ACT rules home">ACT rules</a>'), { engines: [axeEngine] });
    expect(ofRule(ok, 'label-content-name-mismatch')).toEqual([]);
  });

  it('does not report keyboard reach for a frame made inert by an open modal dialog, and does without the dialog', async () => {
    const frame = `<iframe id="f" title="Links" tabindex="-1" srcdoc="<a href='/'>Home</a>"></iframe>`;
    const behindModal = await scanner.scan(
      page(`${frame}<dialog id="d" aria-label="Notice"><p>Hello</p><button onclick="d.close()">Close</button></dialog><script>d.showModal();</script>`),
      { engines: [axeEngine] },
    );
    expect(ofRule(behindModal, 'frame-focusable-content')).toEqual([]);
    const plainFrame = await scanner.scan(page(frame), { engines: [axeEngine] });
    expect(ofRule(plainFrame, 'frame-focusable-content')).toMatchObject([{ type: 'confirmed', wcagCriterion: '2.1.1' }]);
  });

  it('runs later engines on the same page, tags each finding with its engine and keeps going when an own check throws', async () => {
    const seen: string[] = [];
    const broken: ScanEngine = {
      id: 'broken',
      stage: 'CustomChecks',
      async run() {
        throw new Error('this check cannot handle the page');
      },
    };
    const headingOwn: ScanEngine = {
      id: 'own',
      stage: 'CustomChecks',
      async run({ page: p, earlier }) {
        seen.push(...earlier.map((f) => `${f.data.engine}:${f.ruleId}`));
        const h = await p.evaluate(() => document.querySelector('img')!.outerHTML);
        return {
          findings: [
            // Same element and criterion as axe's image-alt: merged into axe's confirmed finding.
            ownFinding({ ruleId: 'image-hidden-has-alt', type: 'needs_review', severity: 'moderate', criterion: '1.1.1', selector: 'img', html: h, help: 'h', description: 'd', failureSummary: 's' }),
          ],
        };
      },
    };
    const r = await scanner.scan(page('<img src="/a.png">'), { engines: [axeEngine, broken, headingOwn] });
    expect(seen).toContain('axe:image-alt');
    expect(r.engines.map((e) => [e.engine, e.error ?? null])).toEqual([
      ['axe', null],
      ['broken', 'this check cannot handle the page'],
      ['own', null],
    ]);
    const img = r.findings.filter((f) => f.wcagCriterion === '1.1.1');
    expect(img).toHaveLength(1);
    expect(img[0]).toMatchObject({ ruleId: 'image-alt', type: 'confirmed', data: { engine: 'axe', alsoFlaggedBy: ['image-hidden-has-alt'] } });
  });

  it('lets an engine replace earlier findings it measured', async () => {
    const replacing: ScanEngine = {
      id: 'measure',
      stage: 'CustomChecks',
      async run({ earlier }) {
        const target = earlier.find((f) => f.ruleId === 'image-alt')!;
        return {
          supersedes: [{ ruleId: target.ruleId, selector: target.elementSelector }],
          findings: [{ ...target, type: 'needs_review', data: { measured: true } }],
        };
      },
    };
    const r = await scanner.scan(page('<img src="/a.png">'), { engines: [axeEngine, replacing] });
    expect(ofRule(r, 'image-alt')).toMatchObject([{ type: 'needs_review', data: { measured: true, engine: 'measure' } }]);
    // The engine runs keep what each engine said, for the accuracy harness.
    expect(r.engines[0]!.findings.some((f) => f.ruleId === 'image-alt' && f.type === 'confirmed')).toBe(true);
  });

  it('fails the scan when axe itself cannot run', async () => {
    const failing: ScanEngine = { id: 'axe', stage: 'AxeChecks', run: async () => Promise.reject(new Error('axe broke')) };
    await expect(scanner.scan(page('<p>x</p>'), { engines: [failing] })).rejects.toThrow('axe broke');
  });
});
