import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindingDraft } from '../../../../src/shared/findings.ts';
import { axeEngine } from '../../../../src/audit/engines/axe/axe.engine.ts';
import type { ScanEngine } from '../../../../src/audit/engines/engine.ts';
import { pixelContrastEngine } from '../../../../src/audit/engines/pixel-contrast/pixel-contrast.engine.ts';
import { solidPngUrl } from '../../../helpers/png.ts';
import { ofRule, openFixtureScanner, type FixtureScanner, type ScannedResult } from '../../../helpers/scan-fixture.ts';

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

  /** An engine that records the page's inline styles after the others ran: nothing may be left changed. */
  const styles: string[] = [];
  const styleWatch: ScanEngine = {
    id: 'style-watch',
    stage: 'CustomChecks',
    async run({ page }) {
      styles.push(await page.evaluate(() => Array.from(document.querySelectorAll('[style]')).map((e) => `${e.id}: ${e.getAttribute('style')}`).join('\n')));
      return { findings: [] };
    },
  };

  it('lets axe decide texts held by a background image that fails to load, in its own run, and puts the image back', async () => {
    styles.length = 0;
    const r = await scan(
      `<div id="holder" style="background:#fff url(/missing-image.png) repeat-x;width:500px"><p id="light" style="color:#999">Too light on white</p><p id="dark" style="color:#222">Dark enough</p></div>`,
      [axeEngine, pixelContrastEngine, styleWatch],
    );
    expect(axeSaid(r).map((f) => [f.elementSelector, f.type])).toEqual([['#light', 'confirmed']]);
    expect(ofRule(r, 'color-contrast').map((f) => [f.elementSelector, f.type, f.data.engine])).toEqual([['#light', 'confirmed', 'axe']]);
    expect(styles[0]).toBe('holder: background:#fff url(/missing-image.png) repeat-x;width:500px\nlight: color:#999\ndark: color:#222');
  });

  it('decides by axe the texts a repeat-x strip or a corner icon does not reach, and measures by pixels the text on the strip', async () => {
    styles.length = 0;
    const strip = solidPngUrl(1, 40, '#222222');
    const icon = solidPngUrl(16, 16, '#000000');
    const r = await scan(
      `<div id="holder" style="background:#fff url(${strip}) repeat-x;width:600px">` +
        `<p id="on" style="color:#fff;margin:0;line-height:40px;font-size:16px">White on the dark strip</p>` +
        `<p id="below-light" style="color:#999">Below the strip, too light</p>` +
        `<p id="below-dark" style="color:#222">Below the strip, dark enough</p>` +
        `<p><a id="iconic" href="/x" style="color:#999;background:url(${icon}) no-repeat right center;padding-right:24px">A link with an icon</a></p></div>`,
      [axeEngine, pixelContrastEngine, styleWatch],
    );
    // axe gave up on all four: an element behind each has a background image.
    expect(axeSaid(r).map((f) => [f.elementSelector, (f.data.review as { messageKey?: string })?.messageKey]).sort()).toEqual(
      [['#below-dark', 'bgImage'], ['#below-light', 'bgImage'], ['#iconic', 'bgImage'], ['#on', 'bgImage']].sort(),
    );
    const found = ofRule(r, 'color-contrast');
    // Decided by axe with the images away: neither reaches those texts.
    expect(found.filter((f) => f.data.backgroundImages).map((f) => [f.elementSelector, f.type]).sort()).toEqual([['#below-light', 'confirmed'], ['#iconic', 'confirmed']]);
    expect(contrastOf(found.find((f) => f.elementSelector === '#below-light')!)).toMatchObject({ fgColor: '#999999', bgColor: '#ffffff' });
    // The text on the strip was measured in pixels and passes; the dark one below passes too.
    expect(found.map((f) => f.elementSelector).sort()).toEqual(['#below-light', '#iconic']);
    expect(styles[0]).not.toMatch(/!important|none/);
  });

  it('leaves texts under a tiled, resized or gradient background to the pixel measurement', async () => {
    const tile = solidPngUrl(8, 8, '#666666');
    const r = await scan(
      `<p id="tiled" style="color:#777;background:#fff url(${tile});width:400px;padding:10px">Grey on a grey tile</p>` +
        `<p id="sized" style="color:#777;background:#fff url(${tile}) no-repeat;background-size:100% 100%;width:400px;padding:10px">Grey on a stretched tile</p>`,
    );
    for (const id of ['#tiled', '#sized']) {
      const f = ofRule(r, 'color-contrast').find((x) => x.elementSelector === id);
      expect(f).toMatchObject({ type: 'confirmed', data: { engine: 'pixel-contrast' } });
      expect(contrastOf(f!).measuredBy).toBe('pixels');
    }
  });

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
