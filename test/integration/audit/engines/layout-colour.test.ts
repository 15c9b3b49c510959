import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeEngine } from '../../../../src/audit/engines/axe/axe.engine.ts';
import { colourEngine } from '../../../../src/audit/engines/colour/colour.engine.ts';
import { reflowEngine } from '../../../../src/audit/engines/reflow/reflow.engine.ts';
import { DESKTOP_VIEWPORT } from '../../../../src/shared/audit-setup.ts';
import { openFixtureScanner, ofRule, type FixtureScanner } from '../../../helpers/scan-fixture.ts';
import { stateAfter } from '../../../helpers/state-after.ts';

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><title>Layout and colour</title><meta name="viewport" content="width=device-width"><style>body { font: 16px/1.4 sans-serif; margin: 8px; }</style>${head}</head><body><main>${body}</main></body></html>`;

const reflow = { engines: [reflowEngine] };
const poem = 'Once upon a midnight dreary, while I pondered, weak and weary, over many a quaint and curious volume of forgotten lore.';
/** Two lines of 16 px text in 420 px at line height 1.2; three with the spacing of 1.4.12. */
const verse = 'Once upon a midnight dreary, while I pondered, weak and weary, over many a quaint and curious';

/** What the reflow engine must put back: the window size, orientation, text spacing and style sheets. */
const layoutState = () => ({
  inner: [innerWidth, innerHeight],
  orientation: screen.orientation.type,
  letterSpacing: getComputedStyle(document.querySelector('p') ?? document.body).letterSpacing,
  sheets: document.adoptedStyleSheets.length,
});

describe('text spacing (1.4.12): the WCAG spacing applied, lost text measured', () => {
  let scanner: FixtureScanner;
  beforeAll(async () => {
    scanner = await openFixtureScanner();
  });
  afterAll(async () => {
    await scanner?.close();
  });

  it('confirms a box of fixed height that cuts off text once the spacing is increased, and passes one that grows', async () => {
    const css = '<style>.box { width: 420px; height: 2.6em; line-height: 1.2; overflow: hidden; }</style>';
    const cut = await scanner.scan(page(`<div class="box">${verse}</div>`, css), reflow);
    expect(ofRule(cut, 'text-spacing-clipped')).toMatchObject([{ type: 'confirmed', wcagCriterion: '1.4.12', elementHtml: expect.stringContaining('class="box"') }]);

    const grows = await scanner.scan(page(`<div class="box">${verse}</div>`, '<style>.box { width: 420px; min-height: 2.6em; line-height: 1.2; overflow: hidden; }</style>'), reflow);
    expect(ofRule(grows, 'text-spacing-clipped')).toEqual([]);
    expect(ofRule(grows, 'text-spacing-overlap')).toEqual([]);
  });

  it('confirms text that spills out of a box of fixed height over the paragraph after it', async () => {
    const css = '<style>.box { width: 420px; height: 2.6em; line-height: 1.2; } .box + p { margin: 0; }</style>';
    const r = await scanner.scan(page(`<div class="box">${verse}</div><p>The paragraph that follows the box.</p>`, css), reflow);
    expect(ofRule(r, 'text-spacing-overlap')).toMatchObject([{ type: 'confirmed', wcagCriterion: '1.4.12', elementHtml: expect.stringContaining('class="box"'), data: { overlaps: 'p' } }]);
    expect(ofRule(r, 'text-spacing-clipped')).toEqual([]);
  });

  it('leaves text cut already without the spacing to the zoom check, and a cut with an ellipsis alone', async () => {
    const r = await scanner.scan(
      page(
        `<div class="always">${poem}</div><div class="ellipsis">${poem}</div>`,
        '<style>.always { width: 200px; height: 2em; overflow: hidden; } .ellipsis { width: 300px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }</style>',
      ),
      reflow,
    );
    expect(ofRule(r, 'text-spacing-clipped')).toEqual([]);
  });
});

describe('orientation (1.3.4): portrait and landscape compared', () => {
  let scanner: FixtureScanner;
  beforeAll(async () => {
    scanner = await openFixtureScanner();
  });
  afterAll(async () => {
    await scanner?.close();
  });

  it('confirms content a script turns a quarter turn in portrait', async () => {
    const r = await scanner.scan(
      page(
        `<p>${poem}</p>`,
        '<script>const turn = () => { document.documentElement.style.transform = innerHeight > innerWidth ? "rotate(90deg)" : ""; }; addEventListener("resize", turn); addEventListener("DOMContentLoaded", turn);</script>',
      ),
      reflow,
    );
    expect(ofRule(r, 'orientation-locked')).toMatchObject([{ type: 'confirmed', wcagCriterion: '1.3.4', data: { kind: 'rotated', orientation: 'portrait' } }]);
  });

  it('confirms a "rotate your device" screen shown in place of the content by screen orientation', async () => {
    const r = await scanner.scan(
      page(
        `<div id="content"><p>${poem}</p><p>${poem}</p></div><div id="rotate" hidden>Please rotate your device to landscape.</div>`,
        '<script>const check = () => { const portrait = screen.orientation.type.startsWith("portrait"); document.getElementById("content").hidden = portrait; document.getElementById("rotate").hidden = !portrait; }; screen.orientation.addEventListener("change", check); addEventListener("resize", check);</script>',
      ),
      reflow,
    );
    expect(ofRule(r, 'orientation-locked')).toMatchObject([{ type: 'confirmed', data: { kind: 'hidden', orientation: 'portrait' } }]);
  });

  it('asks for review of a call to screen.orientation.lock()', async () => {
    const r = await scanner.scan(page(`<p>${poem}</p>`, '<script>screen.orientation.lock("landscape").catch(() => {});</script>'), reflow);
    expect(ofRule(r, 'orientation-locked')).toMatchObject([{ type: 'needs_review', data: { kind: 'locked', locks: ['landscape'], review: { reason: expect.stringContaining('lock') } } }]);
  });

  it('passes a page turned the same way in both orientations, a responsive page, and a page that moves but does not turn', async () => {
    const same = await scanner.scan(page(`<p>${poem}</p>`, '<style>body { transform: rotate(90deg); }</style>'), reflow);
    expect(ofRule(same, 'orientation-locked')).toEqual([]);
    const responsive = await scanner.scan(
      page(`<nav><a href="#a">Home</a> <a href="#b">News</a></nav><p>${poem}</p>`, '<style>@media (orientation: portrait) { nav { display: none; } }</style>'),
      reflow,
    );
    expect(ofRule(responsive, 'orientation-locked')).toEqual([]);
    const moved = await scanner.scan(page(`<p>${poem}</p>`, '<style>@media (orientation: portrait) { body { transform: translateX(100px); } }</style>'), reflow);
    expect(ofRule(moved, 'orientation-locked')).toEqual([]);
  });

  it('puts the viewport, the screen orientation and the styles back', async () => {
    const after: Array<Record<string, unknown>> = [];
    await scanner.scan(page(`<p>${poem}</p>`), { engines: [reflowEngine, stateAfter(after, layoutState)] });
    expect(after[0]).toMatchObject({ viewport: DESKTOP_VIEWPORT, inner: [DESKTOP_VIEWPORT.width, DESKTOP_VIEWPORT.height], orientation: 'landscape-primary', letterSpacing: 'normal', sheets: 0 });
  });
});

describe('colour alone (1.4.1): links in text and form fields', () => {
  let scanner: FixtureScanner;
  beforeAll(async () => {
    scanner = await openFixtureScanner();
  });
  afterAll(async () => {
    await scanner?.close();
  });

  const colour = { engines: [axeEngine, colourEngine] };
  // A background image on the paragraph: axe cannot tell the background and leaves the link undecided.
  const textured = '<style>p { color: #000; background: #fff url("data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs="); } a { color: #3a3a8a; text-decoration: none; }</style>';

  it("confirms a link marked only by a colour under 3:1 against its text, in place of axe's undecided result", async () => {
    const r = await scanner.scan(page(`<p>Read the <a href="#terms">terms of use</a> before you sign up for the service.</p>`, textured), colour);
    expect(ofRule(r, 'link-colour-only')).toMatchObject([{ type: 'confirmed', wcagCriterion: '1.4.1', elementSelector: 'a', data: { decides: 'link-in-text-block' } }]);
    expect(ofRule(r, 'link-in-text-block')).toEqual([]);
  });

  it("withdraws axe's undecided result for a link with another mark (a shadow line under it), and passes underlined links", async () => {
    const shadow = await scanner.scan(
      page(`<p>Read the <a href="#terms" style="box-shadow: 0 2px 0 #3a3a8a">terms of use</a> before you sign up for the service.</p>`, textured),
      colour,
    );
    expect(ofRule(shadow, 'link-colour-only')).toEqual([]);
    expect(ofRule(shadow, 'link-in-text-block')).toEqual([]);
    const underlined = await scanner.scan(page(`<p>Read the <a href="#terms" style="text-decoration: underline">terms of use</a> before you sign up.</p>`, textured), colour);
    expect(ofRule(underlined, 'link-colour-only')).toEqual([]);
  });

  it('asks for review of a link on a line of its own in a paragraph, marked only by a colour under 3:1', async () => {
    const r = await scanner.scan(page(`<p>Some text about the service<br><a href="#more">More about it</a></p>`, '<style>p { color: #000; } a { color: #3a3a8a; text-decoration: none; }</style>'), colour);
    expect(ofRule(r, 'link-colour-only')).toMatchObject([{ type: 'needs_review', elementSelector: 'a', data: { review: { reason: expect.stringContaining('line of its own') } } }]);
    const nav = await scanner.scan(page(`<ul><li><a href="#a">Home</a></li><li><a href="#b">News</a></li></ul>`, '<style>a { color: #3a3a8a; text-decoration: none; }</style>'), colour);
    expect(ofRule(nav, 'link-colour-only')).toEqual([]);
  });

  const form = (a: string, b: string, c: string) =>
    `<form><label>Passport number <input name="a" class="${a}"></label><label>Name on passport <input name="b" class="${b}"></label><label>Date of expiry <input name="c" class="${c}"></label><button>Send</button></form>`;
  const errCss = '<style>label { display: block; } input { border: 1px solid #767676; } .err { border-color: #d4351c; background: #fde8e8; }</style>';

  it('asks for review of fields set apart from the others only by a red border and background', async () => {
    const r = await scanner.scan(page(form('err', '', 'err'), errCss), colour);
    expect(ofRule(r, 'field-colour-only')).toMatchObject([
      { type: 'needs_review', wcagCriterion: '1.4.1', elementSelector: 'input[name="a"]' },
      { type: 'needs_review', elementSelector: 'input[name="c"]' },
    ]);
  });

  it('passes fields whose error is also said in text or shown by a thicker border, and a form whose fields all look alike', async () => {
    const said = await scanner.scan(
      page(
        '<form><label>Passport number <input name="a" class="err" aria-describedby="e1"></label><span id="e1">Error: enter your passport number</span><label>Name <input name="b"></label></form>',
        errCss,
      ),
      colour,
    );
    expect(ofRule(said, 'field-colour-only')).toEqual([]);
    const thick = await scanner.scan(page(form('err', '', ''), errCss.replace('.err {', '.err { border-width: 4px;')), colour);
    expect(ofRule(thick, 'field-colour-only')).toEqual([]);
    const alike = await scanner.scan(page(form('', '', ''), errCss), colour);
    expect(ofRule(alike, 'field-colour-only')).toEqual([]);
  });
});
