import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanEngine } from '../../../../src/audit/engines/engine.ts';
import { keyboardEngine } from '../../../../src/audit/engines/keyboard/keyboard.engine.ts';
import { openFixtureScanner, ofRule, type FixtureScanner } from '../../../helpers/scan-fixture.ts';

// Operating a page with keys (issue 31): each check of keyboard-activation, hover-only,
// dialog-focus, dialog-escape and change-on-input on a page that fails and one that passes,
// and the longer keyboard traps the walk once missed.

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><title>Operating with keys</title><style>body { font: 16px/1.4 sans-serif; }</style>${head}</head><body>${body}</body></html>`;

const kbd = { engines: [keyboardEngine] };

describe('keyboard engine: operating controls with keys', () => {
  let scanner: FixtureScanner;
  beforeAll(async () => {
    scanner = await openFixtureScanner();
  });
  afterAll(async () => {
    await scanner?.close();
  });

  it('confirms a custom button no key activates, and asks for review of a link-button that ignores Space (2.1.1)', async () => {
    const r = await scanner.scan(
      page(
        '<main><p id="out">Off</p><a href="#" role="button" id="b1" onclick="event.preventDefault(); out.textContent = out.textContent === \'On\' ? \'Off\' : \'On\'">Toggle</a>' +
          '<div role="button" tabindex="0" id="b2" onclick="out.textContent += \'!\'">Add</div></main>',
      ),
      kbd,
    );
    const found = ofRule(r, 'keyboard-activation');
    expect(found).toHaveLength(2);
    expect(found.find((f) => f.elementSelector === '#b2')).toMatchObject({ type: 'confirmed', wcagCriterion: '2.1.1' });
    expect(found.find((f) => f.elementSelector === '#b1')).toMatchObject({ type: 'needs_review', data: { space: false, enter: true } });
  });

  it('passes a custom button that takes Enter and Space, and native buttons', async () => {
    const r = await scanner.scan(
      page(
        '<main><p id="out">Off</p><div role="button" tabindex="0" onclick="out.textContent += \'!\'" onkeydown="if (event.key === \'Enter\' || event.key === \' \') { event.preventDefault(); this.click(); }">Add</div>' +
          '<button onclick="out.textContent += \'?\'">Native</button> <span role="button" tabindex="0">Does nothing at all</span></main>',
      ),
      kbd,
    );
    expect(ofRule(r, 'keyboard-activation')).toEqual([]);
  });

  it('asks for review of a sub-menu and a tooltip that only the mouse pointer shows (2.1.1, F54)', async () => {
    const r = await scanner.scan(
      page(
        '<nav><ul><li id="products"><a href="/products">Products</a><ul><li><a href="/p/1">Phones</a></li><li><a href="/p/2">Tablets</a></li></ul></li></ul></nav>' +
          '<main><p>Price <span id="vat" onmouseover="tip.hidden = false" onmouseout="tip.hidden = true">(incl. VAT)</span></p><div id="tip" hidden role="tooltip">VAT is 20% of the price before tax.</div></main>',
        '<style>nav ul ul { display: none; } nav li:hover > ul { display: block; }</style>',
      ),
      kbd,
    );
    const found = ofRule(r, 'hover-only');
    expect(found.every((f) => f.type === 'needs_review' && f.wcagCriterion === '2.1.1')).toBe(true);
    expect(found.map((f) => [f.elementSelector, f.data.controls]).sort()).toEqual([
      ['#products', true],
      ['#vat', false],
    ]);
  });

  it('waits for a sub-menu that a :hover style shows after a delay, on a page with no pointer script', async () => {
    const r = await scanner.scan(
      page(
        '<nav><ul><li id="more"><a href="/more">More</a><ul><li><a href="/m/1">Archive</a></li></ul></li></ul></nav><main><p>Text</p></main>',
        '<style>nav ul ul { visibility: hidden; transition: visibility 0s 100ms; } nav li:hover > ul { visibility: visible; }</style>',
      ),
      kbd,
    );
    expect(ofRule(r, 'hover-only').map((f) => [f.elementSelector, f.type, f.data.controls])).toEqual([['#more', 'needs_review', true]]);
  });

  it('passes hover content that focus shows too, and a heading\'s permalink', async () => {
    const r = await scanner.scan(
      page(
        '<nav><ul><li><a href="/products">Products</a><ul><li><a href="/p/1">Phones</a></li></ul></li></ul><div class="m2"><a href="/s">Services</a><div class="sub2"><a href="/s/1">Repair</a></div></div></nav>' +
          '<main><div id="sec"><h2>Section <a class="headerlink" href="#sec">¶</a></h2></div>' +
          '<p>Price <button aria-describedby="tip" onmouseover="tip.hidden = false" onmouseout="tip.hidden = true" onfocus="tip.hidden = false" onblur="tip.hidden = true">VAT?</button></p><div id="tip" hidden role="tooltip">VAT is 20%.</div></main>',
        '<style>nav ul ul, .sub2 { display: none; } nav li:hover > ul, nav li:focus-within > ul { display: block; } .m2:hover .sub2 { display: block; } .m2 a:focus + .sub2 { display: block; }' +
          ' .headerlink { visibility: hidden; } h2:hover > .headerlink { visibility: visible; }</style>',
      ),
      kbd,
    );
    expect(ofRule(r, 'hover-only')).toEqual([]);
  });

  it('loads a page again after operating it, but not after only pointing at it and focusing it', async () => {
    // The page counts its loads in this tab (sessionStorage outlives a reload); an engine after
    // the keyboard's reads the count.
    let loads = 0;
    const counted: ScanEngine = {
      id: 'loads-counted',
      stage: 'CustomChecks',
      run: async ({ page: p }) => ((loads = await p.evaluate(() => Number(sessionStorage.getItem('loads')))), { findings: [] }),
    };
    const count = '<script>sessionStorage.setItem("loads", String(Number(sessionStorage.getItem("loads")) + 1));</script>';
    const hoverOnly = page(
      '<nav><ul><li><a href="/products">Products</a><ul><li><a href="/p/1">Phones</a></li></ul></li></ul></nav><main><p>Text</p></main>' + count,
      '<style>nav ul ul { display: none; } nav li:hover > ul { display: block; }</style>',
    );
    const r = await scanner.scan(hoverOnly, { engines: [keyboardEngine, counted] });
    expect(ofRule(r, 'hover-only')).toHaveLength(1);
    expect(loads).toBe(1);
    const operated = page('<main><p id="out">Off</p><div role="button" tabindex="0" id="b2" onclick="out.textContent += \'!\'">Add</div></main>' + count);
    const r2 = await scanner.scan(operated, { engines: [keyboardEngine, counted] });
    expect(ofRule(r2, 'keyboard-activation')).toHaveLength(1);
    expect(loads).toBe(2);
  });

  it('asks for review of a modal dialog focus does not enter, Tab leaves and Escape does not close, with its close "×" Tab cannot reach', async () => {
    const after: Array<Record<string, unknown>> = [];
    const state: ScanEngine = {
      id: 'state-after',
      stage: 'CustomChecks',
      async run({ page: p }) {
        after.push(await p.evaluate(() => ({ hidden: (document.getElementById('dlg') as HTMLElement).hidden })));
        return { findings: [] };
      },
    };
    const r = await scanner.scan(
      page(
        '<main><a href="#top">Top</a> <button id="open" aria-haspopup="dialog" onclick="dlg.hidden = false">Open</button> <a href="#after">After</a>' +
          '<div id="dlg" role="dialog" aria-modal="true" aria-label="Info" hidden style="position:fixed;top:20%;left:20%;width:50%;background:#fff;border:1px solid">' +
          '<p>Hello</p><a href="#more">More</a> <span class="close" onclick="dlg.hidden = true" style="cursor:pointer">×</span></div></main>',
      ),
      { engines: [keyboardEngine, state] },
    );
    expect(ofRule(r, 'dialog-focus')).toMatchObject([{ type: 'needs_review', wcagCriterion: '2.4.3', elementSelector: '#dlg', data: { tabLeaves: true, focusAfterOpen: 'outside' } }]);
    expect(ofRule(r, 'dialog-escape')).toMatchObject([{ type: 'needs_review', wcagCriterion: '2.1.1', elementSelector: '#dlg', data: { unreachableInside: 1 } }]);
    expect(ofRule(r, 'interactive-not-focusable')).toMatchObject([{ elementSelector: 'span', elementHtml: expect.stringContaining('×'), data: { inDialog: true } }]);
    // The dialog left open was put away: the engines after this one see the page as it loaded.
    expect(after[0]).toEqual({ hidden: true });
  });

  it('passes a <dialog> opened with showModal (focus moves in, stays in, Escape closes), and one that manages focus itself', async () => {
    const native = await scanner.scan(
      page(
        '<main><a href="#top">Top</a> <button aria-haspopup="dialog" onclick="dlg.showModal()">Open</button> <a href="#after">After</a>' +
          '<dialog id="dlg" aria-label="Info"><p>Hello</p><a href="#more">More</a> <button onclick="dlg.close()">Close</button></dialog></main>',
      ),
      kbd,
    );
    const scripted = await scanner.scan(
      page(
        '<main><button aria-haspopup="dialog" id="open">Open</button> <a href="#after">After</a>' +
          '<div id="dlg" role="dialog" aria-modal="true" aria-label="Info" hidden><button id="first">OK</button> <button id="last" onclick="shut()">Close</button></div></main>' +
          '<script>const d = document.getElementById("dlg"), first = document.getElementById("first"), last = document.getElementById("last");' +
          'function shut() { d.hidden = true; document.getElementById("open").focus(); }' +
          'document.getElementById("open").onclick = () => { d.hidden = false; first.focus(); };' +
          'd.addEventListener("keydown", (e) => { if (e.key === "Escape") return shut(); if (e.key !== "Tab") return;' +
          ' if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); } else if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); } });</script>',
      ),
      kbd,
    );
    for (const r of [native, scripted]) {
      expect(ofRule(r, 'dialog-focus')).toEqual([]);
      expect(ofRule(r, 'dialog-escape')).toEqual([]);
      expect(ofRule(r, 'interactive-not-focusable')).toEqual([]);
    }
  });

  it('asks for review of choices whose change by the keyboard navigates, sends a form or opens a window (3.2.2, F36, F37)', async () => {
    const r = await scanner.scan(
      page(
        '<main><label>Go to <select id="s" onchange="location.href = this.value"><option value="/a">A</option><option value="/b">B</option></select></label>' +
          '<form action="/x"><fieldset><legend>Size</legend><label><input type="radio" name="r" value="1" checked onchange="this.form.submit()">S</label>' +
          '<label><input type="radio" name="r" value="2" onchange="this.form.submit()">L</label></fieldset></form>' +
          '<label><input id="help" type="checkbox" onclick="window.open(\'/popup\')"> Help</label></main>',
      ),
      kbd,
    );
    const found = ofRule(r, 'change-on-input');
    expect(found.every((f) => f.type === 'needs_review' && f.wcagCriterion === '3.2.2')).toBe(true);
    expect(found.map((f) => f.data.kind).sort()).toEqual(['checkbox', 'radio', 'select']);
    expect(r.finalUrl).toMatch(/\/page-\d+\.html$/);
  });

  it('passes a select with a Go button and a check box that shows more options', async () => {
    const r = await scanner.scan(
      page(
        '<main><form action="/x"><label>Go to <select><option value="/a">A</option><option value="/b">B</option></select></label><button>Go</button>' +
          '<label><input type="checkbox" onchange="document.getElementById(\'more\').hidden = !this.checked"> More</label><p id="more" hidden>More options</p></form></main>',
      ),
      kbd,
    );
    expect(ofRule(r, 'change-on-input')).toEqual([]);
  });
});

describe('keyboard engine: focus order against what is shown (2.4.3)', () => {
  let scanner: FixtureScanner;
  beforeAll(async () => {
    scanner = await openFixtureScanner();
  });
  afterAll(async () => {
    await scanner?.close();
  });

  it('asks for review once where Tab jumps back and forth across a line (a link floated right between two others, F1)', async () => {
    const r = await scanner.scan(
      page(
        '<main><div class="nav"><a class="first" href="#1">First link</a> <a class="second" href="#2">Second link</a> <a class="third" href="#3">Third link</a></div></main>',
        '<style>.nav a { margin-left: .75em; } .first { float: left; } .second { float: right; }</style>',
      ),
      kbd,
    );
    expect(ofRule(r, 'focus-order-visual')).toMatchObject([{ type: 'needs_review', wcagCriterion: '2.4.3', elementSelector: '.second', data: { kind: 'jump' } }]);
  });

  it('passes a line, a list, a wrapping row and a grid read down its columns', async () => {
    const r = await scanner.scan(
      page(
        '<main><p><a href="#1">One</a> <a href="#2">Two</a> <a href="#3">Three</a></p>' +
          '<div class="grid"><a href="#g1">G1</a><a href="#g2">G2</a><a href="#g3">G3</a><a href="#g4">G4</a></div>' +
          '<ul><li><a href="#x">x</a></li><li><a href="#y">y</a></li><li><a href="#z">z</a></li></ul>' +
          '<div style="display:flex;flex-wrap:wrap;width:200px"><a href="#w1" style="width:90px">W1</a><a href="#w2" style="width:90px">W2</a><a href="#w3" style="width:90px">W3</a></div></main>',
        '<style>.grid { display: grid; grid-template-rows: repeat(2, 40px); grid-auto-flow: column; gap: 10px; }</style>',
      ),
      kbd,
    );
    expect(ofRule(r, 'focus-order-visual')).toEqual([]);
  });
});

describe('keyboard traps the walk once missed (2.1.2)', () => {
  let scanner: FixtureScanner;
  beforeAll(async () => {
    scanner = await openFixtureScanner();
  });
  afterAll(async () => {
    await scanner?.close();
  });

  it('finds a loop of six controls that Tab and Shift+Tab go round', async () => {
    const buttons = Array.from({ length: 6 }, (_, i) => `<button id="b${i}">B${i}</button>`).join('');
    const r = await scanner.scan(
      page(
        `<main><a href="#0">Start</a><div id="box">${buttons}</div><a href="#9">End</a></main>` +
          '<script>const box = document.getElementById("box"), first = document.getElementById("b0"), last = document.getElementById("b5");' +
          'box.addEventListener("keydown", (e) => { if (e.key !== "Tab") return;' +
          ' if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); } else if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); } });</script>',
      ),
      kbd,
    );
    // Outside any dialog, with nothing that names a way out: the trap of F10.
    expect(ofRule(r, 'keyboard-trap')).toMatchObject([{ type: 'confirmed', wcagCriterion: '2.1.2', data: { loop: 6 } }]);
  });

  it('finds a trap past the walk\'s cap, among the elements that listen to blur', async () => {
    const links = Array.from({ length: 230 }, (_, i) => `<a href="#l${i}">L${i}</a>`).join(' ');
    const r = await scanner.scan(page(`<main>${links} <button onblur="this.focus()">Stuck</button> <a href="#end">End</a></main>`), kbd);
    expect(ofRule(r, 'keyboard-trap')).toMatchObject([{ type: 'confirmed', elementSelector: 'button' }]);
  });
});
