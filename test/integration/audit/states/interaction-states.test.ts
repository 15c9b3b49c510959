import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeEngine } from '../../../../src/audit/engines/axe/axe.engine.ts';
import type { FindingDraft } from '../../../../src/shared/findings.ts';
import { openFixtureScanner, type FixtureScanner, type ScannedResult } from '../../../helpers/scan-fixture.ts';
import { manyDisclosuresPage, STATES_PAGE } from '../../../helpers/state-pages.ts';

let scanner: FixtureScanner;
beforeAll(async () => {
  scanner = await openFixtureScanner();
});
afterAll(async () => {
  await scanner?.close();
});

const axeOnly = [axeEngine];
const generous = { maxStates: 10, budgetMs: 60_000 };

/** The findings of `ruleId` on the element whose HTML contains `marker`. */
function on(r: ScannedResult, ruleId: string, marker: string): FindingDraft[] {
  return r.findings.filter((f) => f.ruleId === ruleId && f.elementHtml.includes(marker));
}

describe('interaction states', () => {
  it('finds each barrier behind a menu, a details, a tab, a dialog and a popover once, naming the state that revealed it', async () => {
    const path = '/states.html';
    const r = await scanner.scan(STATES_PAGE, { engines: axeOnly, states: generous, path });

    // The default state's barrier has no state.
    const plain = on(r, 'image-alt', 'photo.png');
    expect(plain).toHaveLength(1);
    expect(plain[0]!.state ?? null).toBeNull();

    const menu = on(r, 'image-alt', 'logo.png');
    expect(menu).toHaveLength(1);
    expect(menu[0]!.state).toEqual({ action: 'click', target: '#menu-button', label: 'Menu' });

    const details = on(r, 'label', 'hidden-field');
    expect(details).toHaveLength(1);
    expect(details[0]!.state).toMatchObject({ action: 'click', label: 'More options' });
    expect(details[0]!.state!.target).toMatch(/summary/);

    const tab = on(r, 'button-name', 'icon-button');
    expect(tab).toHaveLength(1);
    expect(tab[0]!.state).toEqual({ action: 'click', target: '#tab-2', label: 'Second' });

    const dialog = on(r, 'color-contrast', 'faint-text');
    expect(dialog).toHaveLength(1);
    expect(dialog[0]!.state).toEqual({ action: 'click', target: '#open-dialog', label: 'Contact us' });

    const popover = on(r, 'select-name', 'unnamed-select');
    expect(popover).toHaveLength(1);
    expect(popover[0]!.state).toEqual({ action: 'click', target: '#help-button', label: 'Help' });

    // Every finding is one per rule and element, state or not.
    const keys = r.findings.map((f) => `${f.ruleId} ${f.elementSelector}`);
    expect(new Set(keys).size).toBe(keys.length);
    // Never clicked: the form's submit button (though it claims to expand the menu) and a link that navigates.
    const targets = new Set(r.findings.map((f) => f.state?.target).filter(Boolean));
    expect(targets).not.toContain('#send');
    expect(targets).not.toContain('#away');
    expect(on(r, 'image-alt', 'trap.png')).toEqual([]);
    // Nothing was submitted, nothing navigated, and every state was closed without loading the page again.
    expect(scanner.server.hits.filter((h) => h.startsWith('/submit') || h.startsWith('/elsewhere'))).toEqual([]);
    expect(scanner.server.hits.filter((h) => h === path)).toHaveLength(1);
    const run = r.engines.find((e) => e.engine === 'states');
    expect(run?.error).toBeUndefined();
    expect(run?.findings.length).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it('does not repeat a default-state finding on an element a state changed', async () => {
    const page = STATES_PAGE.replace('<button id="menu-button" type="button"', '<button id="menu-button" class="faint" type="button"');
    const r = await scanner.scan(page, { engines: axeOnly, states: generous });
    const contrast = r.findings.filter((f) => f.ruleId === 'color-contrast' && f.elementSelector === '#menu-button');
    expect(contrast).toHaveLength(1);
    expect(contrast[0]!.state ?? null).toBeNull();
    expect(on(r, 'image-alt', 'logo.png')[0]?.state?.target).toBe('#menu-button');
  }, 120_000);

  it('opens a dialog that a command button shows, and closes it again', async () => {
    const path = '/command.html';
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Command</title></head><body><main><h1>Command</h1>
      <button type="button" id="show" commandfor="terms" command="show-modal">Terms</button>
      <dialog id="terms" aria-label="Terms"><p><img src="/terms.png" width="9" height="9"></p><button type="button" commandfor="terms" command="close">Close</button></dialog>
      </main></body></html>`;
    const r = await scanner.scan(page, { engines: axeOnly, states: generous, path });
    expect(on(r, 'image-alt', 'terms.png').map((f) => f.state)).toEqual([{ action: 'click', target: '#show', label: 'Terms' }]);
    expect(scanner.server.hits.filter((h) => h === path)).toHaveLength(1);
  }, 120_000);

  it('waits for what a click fetches before checking it', async () => {
    scanner.server.route('/menu-items', (_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<li><a href="/a"><img src="/fetched.png" width="9" height="9"></a></li>'), 400);
    });
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fetch</title></head><body><main><h1>Fetch</h1>
      <button type="button" id="more" aria-expanded="false" aria-controls="list">More</button><ul id="list"></ul>
      <script>document.getElementById('more').addEventListener('click', async (e) => {
        e.currentTarget.setAttribute('aria-expanded', 'true');
        document.getElementById('list').innerHTML = await (await fetch('/menu-items')).text();
      });</script></main></body></html>`;
    const r = await scanner.scan(page, { engines: axeOnly, states: generous });
    expect(on(r, 'image-alt', 'fetched.png').map((f) => f.state?.target)).toEqual(['#more']);
  }, 120_000);

  it('opens no more states than its count allows', async () => {
    const r = await scanner.scan(manyDisclosuresPage(20), { engines: axeOnly, states: { maxStates: 3, budgetMs: 60_000 } });
    const revealed = r.findings.filter((f) => f.ruleId === 'image-alt');
    expect(revealed.map((f) => f.state?.target)).toEqual(['#d0', '#d1', '#d2']);
  }, 120_000);

  it('stops when its time budget is spent, keeping the default state', async () => {
    const r = await scanner.scan(manyDisclosuresPage(20), { engines: axeOnly, states: { maxStates: 20, budgetMs: 1 } });
    expect(r.findings.filter((f) => f.state)).toEqual([]);
    expect(r.engines.find((e) => e.engine === 'states')?.error).toMatch(/time budget/);
  }, 120_000);

  it('loads the page again when a state changes its address, and goes on with the next state', async () => {
    const path = '/router.html';
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Router</title></head><body><main><h1>Router</h1>
      <button type="button" id="route" aria-expanded="false">Route</button><div id="routed" hidden><img src="/r.png" width="9" height="9"></div>
      <details><summary>More</summary><img src="/more.png" width="9" height="9"></details>
      <script>document.getElementById('route').addEventListener('click', () => { history.pushState({}, '', '/routed'); document.getElementById('routed').hidden = false; });</script>
      </main></body></html>`;
    const r = await scanner.scan(page, { engines: axeOnly, states: generous, path });
    // What the route showed is another address's content, not this page's state.
    expect(on(r, 'image-alt', 'r.png')).toEqual([]);
    expect(on(r, 'image-alt', 'more.png')[0]?.state).toMatchObject({ label: 'More' });
    expect(scanner.server.hits.filter((h) => h === path)).toHaveLength(2);
  }, 120_000);

  it('keeps the default state when a trigger hangs the page', async () => {
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hang</title></head><body><main><h1>Hang</h1>
      <img src="/plain.png" width="9" height="9">
      <button type="button" id="hang" aria-expanded="false">Hang</button>
      <script>document.getElementById('hang').addEventListener('click', () => { for (;;) {} });</script>
      </main></body></html>`;
    const r = await scanner.scan(page, { engines: axeOnly, states: generous });
    expect(on(r, 'image-alt', 'plain.png')).toHaveLength(1);
    expect(r.engines.find((e) => e.engine === 'states')?.error).toMatch(/did not answer|stopped/);
  }, 120_000);

  it('explores nothing when states are off', async () => {
    const r = await scanner.scan(STATES_PAGE, { engines: axeOnly, states: { maxStates: 0, budgetMs: 5000 } });
    expect(r.findings.filter((f) => f.state)).toEqual([]);
    expect(r.engines.map((e) => e.engine)).toEqual(['axe']);
    expect(on(r, 'image-alt', 'photo.png')).toHaveLength(1);
  }, 120_000);
});
