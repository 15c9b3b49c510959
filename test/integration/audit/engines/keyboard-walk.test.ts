import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright';
import { CHROMIUM_ARGS, resolveChromiumPath } from '../../../../src/audit/session/browser-provider.ts';
import { keyboardEngine } from '../../../../src/audit/engines/keyboard/keyboard.engine.ts';
import { analyseWalk } from '../../../../src/audit/engines/keyboard/focus-walk.ts';
import { KEY_EVENTS, keyListenersOf, listenerIds } from '../../../../src/audit/engines/keyboard/page-facts.ts';
import { fastWalk, tabWalk, type TabWalk } from '../../../../src/audit/engines/keyboard/presses.ts';
import { installProbe, probe } from '../../../../src/audit/engines/keyboard/probe.ts';
import { openFixtureScanner, ofRule, type FixtureScanner } from '../../../helpers/scan-fixture.ts';
import { html, startStaticServer, type StaticServer } from '../../../support/static-server.ts';

// The keyboard walk priced per element (issue 42): focus moved along the order the platform's
// rules give, real Tab presses only where the page could make a press do something else. The
// order it reaches must be the one real presses reach, and every case where moving focus alone
// would miss what a real press shows must still be found.

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><title>Tab order</title><style>body { font: 16px/1.4 sans-serif; }</style>${head}</head><body>${body}</body></html>`;

describe('the computed Tab order is the order real Tab presses reach', () => {
  let server: StaticServer;
  let browser: Browser;
  let n = 0;
  beforeAll(async () => {
    server = await startStaticServer();
    browser = await chromium.launch({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH), args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Element ids (or tag names) in the order a walk first reaches them, and the walk's figures. */
  async function walked(body: string, computed: boolean): Promise<{ order: string[]; walk: TabWalk }> {
    const path = `/walk-${++n}-${computed ? 'computed' : 'real'}.html`;
    server.route(path, html(body));
    const context = await browser.newContext();
    const p: Page = await context.newPage();
    try {
      await p.goto(`${server.origin}${path}`);
      const cdp = await context.newCDPSession(p);
      await p.evaluate(installProbe);
      await probe(p, (k) => k.blur());
      let walk: TabWalk;
      if (computed) {
        const l = await listenerIds(p, cdp, { keys: KEY_EVENTS });
        walk = await tabWalk(p, cdp, 60, keyListenersOf(l));
      } else {
        const positions = await fastWalk(p, cdp, 60);
        walk = { positions, pressed: positions.length };
      }
      const ids = analyseWalk(walk.positions).order;
      const order = await probe(p, (k, list: number[]) => list.map((id) => k.el(id)?.id || k.el(id)?.localName || '?'), ids);
      return { order, walk };
    } finally {
      await context.close();
    }
  }

  async function expectSameOrder(body: string, expected: string[]): Promise<TabWalk> {
    const computed = await walked(body, true);
    const real = await walked(body, false);
    expect(real.order).toEqual(expected);
    expect(computed.order).toEqual(expected);
    return computed.walk;
  }

  it('follows tabindex, radio groups, disabled and hidden controls, summaries and editing hosts without pressing more than the first key', async () => {
    const w = await expectSameOrder(
      page(
        '<a id="a" href="#">a</a><button id="pos2" tabindex="2">2</button><span id="pos1" tabindex="1">1</span><span id="neg" tabindex="-1">-1</span>' +
          '<input type="radio" name="g" id="g1"><input type="radio" name="g" id="g2"><input type="radio" name="h" id="h1"><input type="radio" name="h" id="h2" checked>' +
          '<fieldset disabled><input id="off" aria-label="off"></fieldset><button id="dis" disabled>x</button><input type="hidden" id="hid">' +
          '<a id="none" href="#" style="display:none">none</a><a id="vh" href="#" style="visibility:hidden">vh</a><div inert><a id="inert" href="#">inert</a></div>' +
          '<details id="d1"><summary id="s1">closed</summary><a id="inside" href="#">inside</a></details><details open><summary id="s2">open</summary><a id="shown" href="#">shown</a></details>' +
          '<div id="ce" contenteditable="true">edit <b>me</b></div><button id="dc" style="display:contents">contents</button>' +
          '<a id="empty" href="#"></a><a id="clear" href="#" style="opacity:0">clear</a><svg width="20" height="20"><a id="svg" href="#s"><rect width="9" height="9"/></a></svg><a id="z" href="#">z</a>',
      ),
      ['pos1', 'pos2', 'a', 'g1', 'h2', 's1', 's2', 'shown', 'ce', 'empty', 'clear', 'svg', 'z'],
    );
    expect(w.pressed).toBe(1);
  });

  it('stops on a scrolling box with nothing focusable in it, as Chromium does', async () => {
    await expectSameOrder(
      page(
        '<a id="a" href="#">a</a><div id="s1" style="overflow:auto;height:40px"><p style="height:200px">x</p></div>' +
          '<div id="s2" style="overflow:auto;height:40px"><span tabindex="-1" style="display:block;height:200px">y</span></div>' +
          '<div style="overflow:hidden;height:40px"><p style="height:200px">hidden overflow</p></div>' +
          `<pre id="pre" style="overflow:auto;width:100px">${'x'.repeat(300)}</pre><pre style="overflow:auto;width:100px">${'x'.repeat(300)} <a id="inpre" href="#">l</a></pre><a id="b" href="#">b</a>`,
      ),
      ['a', 's1', 's2', 'pre', 'inpre', 'b'],
    );
  });

  it('reaches what focus reveals, follows a roving tabindex and a script that moves focus on focus', async () => {
    const w = await expectSameOrder(
      page(
        '<nav><a id="menu" href="#">Menu</a><ul class="sub"><li><a id="sub1" href="#">Sub 1</a></li><li><a id="sub2" href="#">Sub 2</a></li></ul></nav>' +
          '<div id="bar"><button id="r1">One</button><button id="r2">Two</button><button id="r3">Three</button></div>' +
          '<a id="skip" href="#" onfocus="document.getElementById(\'last\').focus()">Skip</a><a id="skipped" href="#">Skipped</a><a id="last" href="#">Last</a>' +
          '<script>const bs = [...document.querySelectorAll("#bar button")]; bs.forEach((b, i) => { b.tabIndex = i ? -1 : 0; b.addEventListener("focus", () => bs.forEach((o) => (o.tabIndex = o === b ? 0 : -1))); });</script>',
        '<style>nav .sub { visibility: hidden; } nav:focus-within .sub { visibility: visible; }</style>',
      ),
      ['menu', 'sub1', 'sub2', 'r1', 'last'],
    );
    expect(w.pressed).toBe(1);
  });

  it('presses real keys where a script listens to them, and from the start where the document does', async () => {
    const own = await walked(page('<a id="a" href="#">a</a><a id="k" href="#" onkeydown="">k</a><a id="b" href="#">b</a><a id="c" href="#">c</a>'), true);
    expect(own.order).toEqual(['a', 'k', 'b', 'c']);
    expect(own.walk.pressed).toBe(2);
    const everywhere = await walked(page('<a id="a" href="#">a</a><a id="b" href="#">b</a><script>document.addEventListener("keydown", () => {});</script>'), true);
    expect(everywhere.order).toEqual(['a', 'b']);
    expect(everywhere.walk.pressed).toBe(everywhere.walk.positions.length);
    expect(everywhere.walk.why).toMatch(/document listens to keys/);
    // What a key handler adds while a real press is sent is in the order the walk goes on with.
    const added = await expectSameOrder(
      page(
        '<a id="a" href="#">a</a><a id="k" href="#" onkeydown="if (!window.added) { window.added = 1; const n = document.createElement(\'a\'); n.id = \'added\'; n.href = \'#\'; n.textContent = \'added\'; document.body.append(n); }">k</a><a id="b" href="#">b</a>',
      ),
      ['a', 'k', 'b', 'added'],
    );
    expect(added.pressed).toBe(2);
  });
});

describe('what moving focus alone would miss, the walk still finds', () => {
  let scanner: FixtureScanner;
  const kbd = { engines: [keyboardEngine] };
  beforeAll(async () => {
    scanner = await openFixtureScanner();
  });
  afterAll(async () => {
    await scanner?.close();
  });

  it('a trap a document-level key handler makes (no listener on the element)', async () => {
    const r = await scanner.scan(
      page(
        '<a href="#1">One</a><a id="stuck" href="#2">Stuck</a><a href="#3">Three</a>' +
          '<script>document.addEventListener("keydown", (e) => { if (e.key === "Tab" && document.activeElement.id === "stuck") e.preventDefault(); });</script>',
      ),
      kbd,
    );
    expect(ofRule(r, 'keyboard-trap')).toMatchObject([{ type: 'confirmed', elementSelector: '#stuck' }]);
  });

  it('a trap a key handler on an ancestor makes, in the middle of many links', async () => {
    const links = (from: number) => Array.from({ length: 30 }, (_, i) => `<a href="#l${from + i}">Link ${from + i}</a>`).join(' ');
    const r = await scanner.scan(
      page(`<p>${links(0)}</p><div id="box" onkeydown="if (event.key === 'Tab') event.preventDefault()"><button id="held">Held</button></div><p>${links(30)}</p>`),
      kbd,
    );
    expect(ofRule(r, 'keyboard-trap')).toMatchObject([{ type: 'confirmed', elementSelector: '#held' }]);
  });

  it('a trap inside a shadow tree, which the computed order leaves to real presses', async () => {
    const r = await scanner.scan(
      page(
        '<a href="#1">One</a><x-field></x-field><a href="#3">Three</a>' +
          '<script>customElements.define("x-field", class extends HTMLElement { connectedCallback() { const s = this.attachShadow({ mode: "open" }); s.innerHTML = "<button id=\\"in\\">Inside</button>"; s.getElementById("in").addEventListener("blur", (e) => e.target.focus()); } });</script>',
      ),
      kbd,
    );
    expect(ofRule(r, 'keyboard-trap')).toMatchObject([{ type: 'confirmed' }]);
  });
});
