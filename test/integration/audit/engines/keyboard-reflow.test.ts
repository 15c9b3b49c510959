import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyboardEngine } from '../../../../src/audit/engines/keyboard/keyboard.engine.ts';
import { reflowEngine } from '../../../../src/audit/engines/reflow/reflow.engine.ts';
import { DESKTOP_VIEWPORT } from '../../../../src/shared/audit-setup.ts';
import { openFixtureScanner, ofRule, type FixtureScanner } from '../../../helpers/scan-fixture.ts';
import { stateAfter } from '../../../helpers/state-after.ts';

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><title>Keyboard and reflow</title><style>body { font: 16px/1.4 sans-serif; }</style>${head}</head><body><main>${body}</main></body></html>`;

const kbd = { engines: [keyboardEngine] };
const reflow = { engines: [reflowEngine] };

/** What the keyboard and reflow engines must put back: focus, scroll position, focus(), text size. */
const pageState = () => ({
  active: document.activeElement?.tagName,
  scrollX,
  scrollY,
  focusPatched: HTMLElement.prototype.focus.toString().includes('[native code]') === false,
  fontSize: getComputedStyle(document.querySelector('p') ?? document.body).fontSize,
});

describe('keyboard checks (2.1.2, 2.4.7, 2.1.1) with real key presses', () => {
  let scanner: FixtureScanner;
  beforeAll(async () => {
    scanner = await openFixtureScanner();
  });
  afterAll(async () => {
    await scanner?.close();
  });

  it('confirms a keyboard trap: a script sends focus back to the element whatever key is pressed', async () => {
    const refocus = await scanner.scan(
      page('<a href="#a">First</a> <button onblur="setTimeout(() => this.focus(), 10)">Stuck</button> <a href="#b">Last</a>'),
      kbd,
    );
    expect(ofRule(refocus, 'keyboard-trap')).toMatchObject([{ type: 'confirmed', wcagCriterion: '2.1.2', elementSelector: 'button' }]);

    const swallowed = await scanner.scan(
      page(
        '<ul><li><a class="trap" href="#t">trap</a></li><li><a href="#h">honey</a></li></ul>' +
          '<script>document.querySelector(".trap").addEventListener("keydown", (e) => e.preventDefault());</script>',
      ),
      kbd,
    );
    expect(ofRule(swallowed, 'keyboard-trap')).toMatchObject([{ type: 'confirmed', elementSelector: '.trap' }]);
  });

  it('finds no trap on an ordinary page, where focus can leave by a key the page names, or where Escape closes a dialog', async () => {
    const plain = await scanner.scan(page('<a href="#1">One</a> <button>Two</button> <input aria-label="Three"> <div tabindex="0">Four</div>'), kbd);
    expect(ofRule(plain, 'keyboard-trap')).toEqual([]);

    const named = await scanner.scan(
      page(
        '<p>Press Ctrl+M to leave the buttons.</p><a id="l1" href="#1">Link 1</a>' +
          '<button id="b1" onblur="trap && document.getElementById(\'b2\').focus()" onkeydown="out(event)">Button 1</button>' +
          '<button id="b2" onblur="trap && document.getElementById(\'b1\').focus()" onkeydown="out(event)">Button 2</button>' +
          '<a id="l2" href="#2">Link 2</a>' +
          '<script>var trap = true; function out(e) { if (e.ctrlKey && e.keyCode === 77) { trap = false; document.getElementById("l2").focus(); } }</script>',
      ),
      kbd,
    );
    expect(ofRule(named, 'keyboard-trap')).toEqual([]);

    const dialog = await scanner.scan(
      page(
        '<a href="#x">Before</a><div id="dlg" role="dialog" aria-modal="true" aria-label="Dialog"><input id="first" aria-label="Name"><button id="last">Close</button></div><a href="#y">After</a>' +
          '<script>const d = document.getElementById("dlg");' +
          'd.addEventListener("keydown", (e) => { if (e.key === "Escape") { d.hidden = true; return; } if (e.key !== "Tab") return;' +
          ' const f = document.getElementById("first"), l = document.getElementById("last");' +
          ' if (!e.shiftKey && document.activeElement === l) { e.preventDefault(); f.focus(); } else if (e.shiftKey && document.activeElement === f) { e.preventDefault(); l.focus(); } });</script>',
      ),
      kbd,
    );
    expect(ofRule(dialog, 'keyboard-trap')).toEqual([]);
  });

  it('confirms focus going round several elements that cut the page off, and asks for review where a dialog or a way out may explain it', async () => {
    const loop = (b2 = 'Button 2') =>
      '<button id="b1" onblur="document.getElementById(\'b2\').focus()">Button 1</button>' +
      `<button id="b2" onblur="document.getElementById('b1').focus()">${b2}</button>`;
    const r = await scanner.scan(page(`<a href="#1">Link 1</a>${loop()}<a href="#2">Link 2</a>`), kbd);
    expect(ofRule(r, 'keyboard-trap')).toMatchObject([{ type: 'confirmed', data: { loop: 2 } }]);
    const inDialog = await scanner.scan(page(`<a href="#1">Link 1</a><div role="dialog" aria-label="Offer">${loop()}</div><a href="#2">Link 2</a>`), kbd);
    expect(ofRule(inDialog, 'keyboard-trap')).toMatchObject([{ type: 'needs_review', data: { loop: 2 } }]);
    const withClose = await scanner.scan(page(`<a href="#1">Link 1</a>${loop('Close')}<a href="#2">Link 2</a>`), kbd);
    expect(ofRule(withClose, 'keyboard-trap')).toMatchObject([{ type: 'needs_review', data: { loop: 2 } }]);
    // At the page's start, Shift+Tab may take focus out to the browser's own controls.
    const atStart = await scanner.scan(page(`${loop()}<a href="#2">Link 2</a>`), kbd);
    expect(ofRule(atStart, 'keyboard-trap')).toMatchObject([{ type: 'needs_review', data: { loop: 2 } }]);
  });

  it('confirms a focus indicator that is invisible, and passes outlines, other styles and changes elsewhere on the page', async () => {
    const none = await scanner.scan(page('<a class="x" href="#1">Hidden focus</a> <button>Normal</button>', '<style>.x:focus { outline: none; }</style>'), kbd);
    expect(ofRule(none, 'focus-visible')).toMatchObject([{ type: 'confirmed', wcagCriterion: '2.4.7', elementHtml: expect.stringContaining('Hidden focus') }]);

    const shown = await scanner.scan(
      page(
        '<a href="#1">Browser outline</a> <a class="bg" href="#2">Background</a> ' +
          '<span id="ind" style="display:inline-block;width:1em;height:1em"></span> <a class="x" href="#3" onfocus="ind.style.background=\'navy\'" onblur="ind.style.background=\'\'">Indicator beside</a>',
        '<style>.bg:focus { outline: none; background: #ffd500; } .x:focus { outline: none; }</style>',
      ),
      kbd,
    );
    expect(ofRule(shown, 'focus-visible')).toEqual([]);
  });

  it('only asks for review for a text field whose focus shows only as a text cursor', async () => {
    const r = await scanner.scan(page('<label>Name <input class="x"></label>', '<style>.x:focus { outline: none; }</style>'), kbd);
    expect(ofRule(r, 'focus-visible')).toMatchObject([{ type: 'needs_review' }]);
  });

  it('finds things that look clickable but that Tab cannot reach: confirmed for a mouse-only control, else needs review', async () => {
    const r = await scanner.scan(
      page(
        '<div id="a" onclick="void 0">Open chat</div>' +
          '<span role="button">Menu</span>' +
          '<div id="c" class="fake">Listener</div>' +
          '<div id="dup" class="fake">Read the card</div>' +
          '<div id="card" class="card"><h2>Card</h2><a href="#c">Read the card</a></div>' +
          '<button>Real button</button>' +
          '<script>for (const id of ["c", "dup", "card"]) document.getElementById(id).addEventListener("click", () => {});</script>',
        '<style>.fake { cursor: pointer; }</style>',
      ),
      kbd,
    );
    const found = ofRule(r, 'interactive-not-focusable');
    expect(found.every((f) => f.wcagCriterion === '2.1.1')).toBe(true);
    // Its own listener, a pointer and text no reachable control bears: a mouse-only control (F42).
    // Without a pointer (#a), without a listener (span), or with a link that says the same (#dup): review.
    expect(Object.fromEntries(found.map((f) => [f.elementSelector, f.type]))).toEqual({ '#a': 'needs_review', '#c': 'confirmed', '#dup': 'needs_review', span: 'needs_review' });
  });

  it('finds elements a tabindex puts in the tab order with no role: confirmed when a script listens to their clicks (F59), else needs review (issue 43)', async () => {
    const r = await scanner.scan(
      page(
        '<div id="r1" tabindex="0">Just some text</div>' +
          '<div id="r2" tabindex="0">Save</div>' +
          '<div id="r3" tabindex="0" role="button">OK</div>' +
          '<div id="r4" tabindex="0" style="overflow: auto; height: 40px">' + '<p>Line of text</p>'.repeat(10) + '</div>' +
          '<span id="r5" tabindex="-1">Skip target</span>' +
          '<main id="r6" tabindex="0"><p>Main</p></main>' +
          '<a id="r7" href="/w3c"><span tabindex="0">W3C Website</span></a>' +
          '<script>document.getElementById("r2").addEventListener("click", () => {});</script>',
      ),
      kbd,
    );
    const found = ofRule(r, 'focusable-no-role');
    expect(Object.fromEntries(found.map((f) => [f.elementSelector, f.type]))).toEqual({ '#r1': 'needs_review', '#r2': 'confirmed' });
    expect(found.every((f) => f.wcagCriterion === '4.1.2')).toBe(true);
    expect(ofRule(r, 'interactive-not-focusable').map((f) => f.elementSelector)).not.toContain('#r2');
  });

  it('puts focus, scroll position and the page\'s focus method back', async () => {
    const after: Array<Record<string, unknown>> = [];
    await scanner.scan(page(`${'<p>Text</p>'.repeat(80)}<a href="#z">Far down</a>`), { engines: [keyboardEngine, stateAfter(after, pageState)] });
    expect(after[0]).toMatchObject({ active: 'BODY', scrollX: 0, scrollY: 0, focusPatched: false });
  });
});

describe('zoom and reflow checks (1.4.4, 1.4.10) by resizing the viewport', () => {
  let scanner: FixtureScanner;
  beforeAll(async () => {
    scanner = await openFixtureScanner();
  });
  afterAll(async () => {
    await scanner?.close();
  });

  const poem = 'Once upon a midnight dreary, while I pondered, weak and weary, over many a quaint and curious volume of forgotten lore.';

  it('confirms text a fixed-height box cuts off at 200% zoom but not at 100%; needs review when it is cut at 100% too', async () => {
    const zoomOnly = await scanner.scan(page(`<div class="box">${poem}</div>`, '<style>.box { height: 3em; overflow: hidden; width: 60%; }</style>'), reflow);
    expect(ofRule(zoomOnly, 'text-clipped-zoom')).toMatchObject([{ type: 'confirmed', wcagCriterion: '1.4.4', elementHtml: expect.stringContaining('class="box"'), data: { cutAt100: false } }]);

    const always = await scanner.scan(page(`<div class="box">${poem}</div>`, '<style>.box { height: 2em; overflow: hidden; width: 200px; }</style>'), reflow);
    expect(ofRule(always, 'text-clipped-zoom')).toMatchObject([{ type: 'needs_review', data: { cutAt100: true } }]);
  });

  it('passes the exceptions: one line with an ellipsis, a box one line high, a scrolling box, visually hidden text', async () => {
    const r = await scanner.scan(
      page(
        `<div class="ellipsis">${poem}</div><div class="line">${poem}</div><div class="scroll">${poem} ${poem}</div>` +
          '<a href="/">Next<span class="sr-only"> chapter: the raven</span></a>',
        '<style>.ellipsis { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; } .line { height: 20px; line-height: 20px; overflow: hidden; }' +
          ' .scroll { height: 2em; overflow: auto; width: 50%; } .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }</style>',
      ),
      reflow,
    );
    expect(ofRule(r, 'text-clipped-zoom')).toEqual([]);
  });

  it('asks for review of text the browser\'s larger text size cuts off (a line height fixed in px)', async () => {
    const r = await scanner.scan(page(`<p class="resize">${poem}</p>`, '<style>.resize { font-size: 1rem; width: 600px; line-height: 24px; max-height: 64px; overflow: hidden; }</style>'), reflow);
    expect(ofRule(r, 'text-clipped-zoom')).toMatchObject([{ type: 'needs_review', data: { zoom: '200% text size' } }]);
  });

  it('confirms a fixed-width layout that scrolls sideways at 320 px, and reports where the overflow starts', async () => {
    const r = await scanner.scan(page(`<div class="wrap"><p>${poem}</p><p>${poem}</p></div>`, '<style>.wrap { width: 960px; }</style>'), reflow);
    expect(ofRule(r, 'reflow-horizontal-scroll')).toMatchObject([{ type: 'confirmed', wcagCriterion: '1.4.10', elementHtml: expect.stringContaining('class="wrap"') }]);
  });

  it('leaves two-dimensional content to review, and passes it in its own scrolling box and a fluid page', async () => {
    const table = `<table><tr>${'<td>cell&nbsp;value</td>'.repeat(12)}</tr></table>`;
    const bare = await scanner.scan(page(`<p>${poem}</p>${table}`), reflow);
    expect(ofRule(bare, 'reflow-horizontal-scroll')).toMatchObject([{ type: 'needs_review', elementSelector: 'table', data: { twoDimensional: true } }]);

    const wrapped = await scanner.scan(page(`<p>${poem}</p><div style="overflow-x:auto">${table}</div><pre style="overflow-x:auto">${'x'.repeat(200)}</pre>`), reflow);
    expect(ofRule(wrapped, 'reflow-horizontal-scroll')).toEqual([]);

    const fluid = await scanner.scan(page(`<p>${poem}</p><img alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" style="max-width:100%;width:900px">`), reflow);
    expect(ofRule(fluid, 'reflow-horizontal-scroll')).toEqual([]);
  });

  it('confirms a paragraph wider than the box it scrolls in', async () => {
    const r = await scanner.scan(page(`<div class="box"><p class="wide">${poem}</p></div>`, '<style>.box { overflow: scroll; } .wide { width: 100em; }</style>'), reflow);
    expect(ofRule(r, 'reflow-horizontal-scroll')).toMatchObject([{ type: 'confirmed', elementHtml: expect.stringContaining('class="wide"'), data: { scrollsInBox: true } }]);
  });

  it('puts the viewport, the text size and the scroll position back', async () => {
    const after: Array<Record<string, unknown>> = [];
    await scanner.scan(page(`<p>${poem}</p>`), { engines: [reflowEngine, stateAfter(after, pageState)] });
    expect(after[0]).toMatchObject({ viewport: DESKTOP_VIEWPORT, scrollX: 0, scrollY: 0, fontSize: '16px' });
  });
});
