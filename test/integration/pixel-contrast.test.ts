import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindingDraft } from '../../src/activities/browser/axe-findings.ts';
import { axeEngine } from '../../src/activities/browser/engines/axe.engine.ts';
import type { ScanEngine } from '../../src/activities/browser/engines/engine.ts';
import { pixelContrastEngine } from '../../src/activities/browser/engines/pixel-contrast.engine.ts';
import { ofRule, openFixtureScanner, type FixtureScanner, type ScannedResult } from '../helpers/scan-fixture.ts';

/** A background image (SVG data URL, so axe cannot read its colours) of the given shapes. */
const svg = (body: string, w = 400, h = 60) =>
  `url(data:image/svg+xml,${encodeURIComponent(`<svg xmlns='http://www.w3.org/2000/svg' width='${w}' height='${h}'>${body}</svg>`).replace(/'/g, '%27')})`;
const picture = (colour: string) => svg(`<rect width='100%' height='100%' fill='${colour}'/>`);
const halves = svg(`<rect width='200' height='60' fill='black'/><rect x='200' width='200' height='60' fill='white'/>`);

const page = (body: string) => `<!doctype html><html lang="en"><head><title>Pixel contrast</title></head><body><main>${body}</main></body></html>`;

interface Contrast {
  fgColor: string;
  bgColor: string;
  contrastRatio: number;
  expectedContrastRatio: string;
  ratioRange: [number, number];
  measuredBy: string;
  samples: number;
}
const contrastOf = (f: FindingDraft) => f.data.contrast as Contrast;

describe('pixel contrast engine', () => {
  let scanner: FixtureScanner;
  beforeAll(async () => {
    scanner = await openFixtureScanner();
  });
  afterAll(async () => {
    await scanner?.close();
  });

  const scan = (body: string, engines: readonly ScanEngine[] = [axeEngine, pixelContrastEngine]) => scanner.scan(page(body), { engines });
  /** axe's own findings on the page, before the pixel engine measured them. */
  const axeSaid = (r: ScannedResult) => r.engines.find((e) => e.engine === 'axe')!.findings.filter((f) => f.ruleId === 'color-contrast');

  it('drops axe\'s doubt when text over an image passes everywhere', async () => {
    const r = await scan(`<p style="color:#fff;background:#000 ${picture('#222')};width:400px;padding:10px">White text over a dark picture</p>`);
    expect(axeSaid(r).map((f) => [f.type, (f.data.review as { messageKey?: string })?.messageKey])).toEqual([['needs_review', 'bgImage']]);
    expect(ofRule(r, 'color-contrast')).toEqual([]);
  });

  it('confirms text over an image that fails everywhere, with the measured ratio, on the same selector', async () => {
    const r = await scan(`<p style="color:#777;background:#fff ${picture('#666')};width:400px;padding:10px">Grey text over a grey picture</p>`);
    const [f] = ofRule(r, 'color-contrast');
    expect(f).toMatchObject({ type: 'confirmed', elementSelector: axeSaid(r)[0]!.elementSelector, wcagCriterion: '1.4.3' });
    expect(contrastOf(f!)).toMatchObject({ fgColor: '#777777', bgColor: '#666666', contrastRatio: 1.28, expectedContrastRatio: '4.5:1', ratioRange: [1.28, 1.28], measuredBy: 'pixels' });
    expect(contrastOf(f!).samples).toBeGreaterThan(500);
    expect(f!.failureSummary).toMatch(/1\.28:1/);
  });

  it('leaves text over a half-black, half-white image for review, with the range it straddles', async () => {
    const r = await scan(
      `<p style="color:#aaa;background:#777 ${halves} no-repeat;width:400px;height:60px;margin:0;line-height:60px;font-size:20px">Light grey text crossing both halves here</p>`,
    );
    const [f] = ofRule(r, 'color-contrast');
    expect(f?.type).toBe('needs_review');
    const c = contrastOf(f!);
    expect(c.ratioRange[0]).toBeLessThan(4.5);
    expect(c.ratioRange[1]).toBeGreaterThan(4.5);
    expect(c.bgColor).toBe('#ffffff');
    expect(f!.data.engine).toBe('pixel-contrast');
    expect(f!.data.review).toMatchObject({ messageKey: 'bgStraddles' });
  });

  it('measures text over a gradient only where the text is', async () => {
    const pass = await scan(`<p style="color:#333;background:linear-gradient(to right, #fff, #00f);width:500px">Some text in a human language</p>`);
    expect(axeSaid(pass)[0]?.type).toBe('needs_review');
    expect(ofRule(pass, 'color-contrast')).toEqual([]);
    const fail = await scan(`<p style="color:#aaa;background:linear-gradient(to right, #fff, #00f);width:300px">Some text in English</p>`);
    expect(ofRule(fail, 'color-contrast').map((f) => f.type)).toEqual(['confirmed']);
  });

  it('measures text over an overlapping semi-transparent box, and does not trust text under a veil', async () => {
    const behind = await scan(
      `<div style="position:relative;width:400px;height:60px;background:#fff ${picture('#fff')}"><div style="position:absolute;inset:0;background:rgba(0,0,0,.75)"></div><p style="position:relative;color:#fff;margin:0;padding:10px">White text over a dark veil on white</p></div>`,
    );
    expect(axeSaid(behind).length).toBe(1);
    expect(ofRule(behind, 'color-contrast')).toEqual([]);
    // Black text under a 75% white veil shows as light grey: never dropped as a pass.
    const veiled = await scan(
      `<div style="position:relative;width:400px;background:#fff ${picture('#fff')}"><p style="color:#000;margin:0;padding:10px">Black text under a milky veil</p><div style="position:absolute;inset:0;background:rgba(255,255,255,.75)"></div></div>`,
    );
    const [f] = ofRule(veiled, 'color-contrast');
    expect(f?.type).toBe('needs_review');
    expect(contrastOf(f!).ratioRange[0]).toBeLessThan(2);
    expect(f!.data.review).toMatchObject({ messageKey: 'fgUncertain' });
  });

  it('applies 3:1 to large text (24px, or 18.66px bold) and 4.5:1 to the rest', async () => {
    const grey = (style: string, text: string) => `<p style="color:#888;background:#000 ${picture('#fff')};${style}">${text}</p>`;
    const r = await scan(
      grey('font-size:24px', 'Large grey text') +
        grey('font-size:16px', 'Normal grey text') +
        grey('font-size:18.66px;font-weight:700', 'Bold 14pt grey text') +
        grey('font-size:18px;font-weight:700', 'Bold 18px grey text'),
    );
    expect(axeSaid(r).length).toBe(4);
    const found = ofRule(r, 'color-contrast');
    expect(found.map((f) => [f.elementSelector, f.type, contrastOf(f).expectedContrastRatio])).toEqual([
      ['p:nth-child(2)', 'confirmed', '4.5:1'],
      ['p:nth-child(4)', 'confirmed', '4.5:1'],
    ]);
    expect(contrastOf(found[0]!).contrastRatio).toBe(3.54);
  });

  it('confirms translucent text (colour alpha, or opacity) from what it shows', async () => {
    const r = await scan(
      `<p style="color:rgba(0,0,0,.3);background:#000 ${picture('#fff')}">Faint text on a white picture</p><div style="background:#000 ${picture('#fff')}"><p style="color:#000;opacity:.3">Faded text on a white picture</p></div>`,
    );
    const found = ofRule(r, 'color-contrast');
    expect(found.map((f) => f.type)).toEqual(['confirmed', 'confirmed']);
    expect(contrastOf(found[0]!).contrastRatio).toBe(2.09);
    expect(contrastOf(found[1]!).contrastRatio).toBeLessThan(2.5);
  });

  it('measures text far below the first screen', async () => {
    const r = await scan(`<div style="height:3000px"></div><p style="color:#777;background:#fff ${picture('#666')}">Grey text far down</p>`);
    expect(ofRule(r, 'color-contrast').map((f) => [f.type, f.data.engine])).toEqual([['confirmed', 'pixel-contrast']]);
  });

  it('leaves axe\'s finding alone when the text is covered, or in a frame', async () => {
    const covered = await scan(
      `<div style="position:relative"><p style="color:#777;background:#fff ${picture('#666')};padding:10px;margin:0">Covered grey text</p><div style="position:absolute;inset:0;background:#123"></div></div>`,
    );
    expect(ofRule(covered, 'color-contrast').map((f) => [f.type, f.data.engine])).toEqual([['needs_review', 'axe']]);
    scanner.server.route('/framed-text.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page(`<p style="color:#777;background:#fff ${picture('#666')}">Grey text in a frame</p>`));
    });
    const framed = await scan(`<iframe title="framed" src="/framed-text.html"></iframe>`);
    expect(ofRule(framed, 'color-contrast').map((f) => [f.elementSelector, f.type, f.data.engine])).toEqual([['iframe >>> p', 'needs_review', 'axe']]);
  });

  it('leaves the text alone when the page moves between the two captures', async () => {
    // The page reacts to the text being hidden by inserting a banner above it: the captures no longer line up.
    const r = await scan(
      `<p id="t" style="color:#777;background:#fff ${picture('#666')}">Grey text that moves</p><script>new MutationObserver(() => document.body.prepend(Object.assign(document.createElement('div'), { style: 'height:50px' }))).observe(document.getElementById('t'), { attributes: true });</script>`,
    );
    expect(ofRule(r, 'color-contrast').map((f) => [f.type, f.data.engine])).toEqual([['needs_review', 'axe']]);
  });

  it('measures text in a shadow root', async () => {
    const r = await scan(
      `<div id="host"></div><script>document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<p style="color:#777;background:#fff ${picture('#666')}">Grey text in a shadow root</p>';</script>`,
    );
    expect(ofRule(r, 'color-contrast').map((f) => [f.elementSelector, f.type, f.data.engine])).toEqual([['#host >>> p', 'confirmed', 'pixel-contrast']]);
  });

  it('keeps very short failing content for review: it may be an icon', async () => {
    const r = await scan(`<span style="color:#999;background:#000 ${picture('#fff')}">x</span>`);
    const [f] = ofRule(r, 'color-contrast');
    expect(f?.type).toBe('needs_review');
    expect(f?.data.review).toMatchObject({ messageKey: 'maybeIcon' });
  });

  it('puts the page back as it found it', async () => {
    let after: unknown;
    const probe: ScanEngine = {
      id: 'probe',
      stage: 'CustomChecks',
      async run({ page: p }) {
        after = await p.evaluate(() => {
          const el = document.querySelector('p')!;
          return { style: el.getAttribute('style'), color: getComputedStyle(el).color, fill: getComputedStyle(el).webkitTextFillColor, left: Object.keys(window).filter((k) => k.startsWith('__a11yPixel')) };
        });
        return { findings: [] };
      },
    };
    const style = `color: rgb(119, 119, 119); transition: color 2s; background: #fff ${picture('#666')}`;
    await scan(`<p style="${style}">Grey text that fades slowly</p>`, [axeEngine, pixelContrastEngine, probe]);
    expect(after).toEqual({ style, color: 'rgb(119, 119, 119)', fill: 'rgb(119, 119, 119)', left: [] });
  });
});
