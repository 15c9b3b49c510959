import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AXE_BEST_PRACTICE, axeEngine, BEST_PRACTICE_REASON } from '../../../../src/audit/engines/axe/axe.engine.ts';
import { ofRule, openFixtureScanner, type FixtureScanner } from '../../../helpers/scan-fixture.ts';

// axe's best-practice rules with a documented WCAG failure are reported under it (issue 31); the
// others stay out. A page that fails each, and one that passes them all.

let scanner: FixtureScanner;
beforeAll(async () => {
  scanner = await openFixtureScanner();
});
afterAll(async () => {
  await scanner?.close();
});

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Best practice fixture</title></head><body>${body}</body></html>`;

const scan = (body: string) => scanner.scan(page(body), { engines: [axeEngine] });

describe('axe engine: best-practice rules with a documented WCAG failure', () => {
  it('reports an empty heading (1.3.1, 2.4.6) and a positive tabindex (2.4.3) as needing review with the reason, never confirmed, and no landmark rule', async () => {
    // No <main> and no landmarks: axe's `region` and `landmark-one-main` fail, and must stay out.
    const r = await scan(`
      <h1>Shop</h1>
      <h2 id="empty"></h2>
      <p>Text</p>
      <a id="jump" href="#x" tabindex="3">First in the tab order</a>
      <h4 id="skipped">A level skipped</h4>
      <div role="tree" aria-label="Files"><div id="item" role="treeitem" aria-selected="false"></div></div>
    `);
    const empty = ofRule(r, 'empty-heading');
    expect(empty.map((f) => [f.elementSelector, f.type, f.wcagCriterion, f.wcagLevel, f.wcagCriteria])).toEqual([['#empty', 'needs_review', '1.3.1', 'A', ['1.3.1', '2.4.6']]]);
    const tab = ofRule(r, 'tabindex');
    expect(tab.map((f) => [f.elementSelector, f.type, f.wcagCriteria])).toEqual([['#jump', 'needs_review', ['2.4.3']]]);
    expect(tab[0]!.data.review).toBeDefined();
    expect(ofRule(r, 'heading-order').map((f) => [f.elementSelector, f.type, f.wcagCriterion])).toEqual([['#skipped', 'needs_review', '1.3.1']]);
    expect(ofRule(r, 'aria-treeitem-name').map((f) => [f.elementSelector, f.type, f.wcagCriterion])).toEqual([['#item', 'needs_review', '4.1.2']]);
    // A best practice is never a confirmed WCAG failure (issue 43): each says why a person decides.
    for (const f of r.findings.filter((f) => AXE_BEST_PRACTICE[f.ruleId])) {
      expect(f.type, f.ruleId).toBe('needs_review');
      expect((f.data.review as { reason?: string }).reason, f.ruleId).toContain(BEST_PRACTICE_REASON);
    }
    expect((empty[0]!.data.review as { reason: string }).reason).toMatch(/^Heading markup with no text.*best practice/);
    for (const id of ['region', 'landmark-one-main', 'page-has-heading-one']) expect(ofRule(r, id), id).toEqual([]);
  });

  it('reports none of them on a page that passes them', async () => {
    const r = await scan(`
      <main>
        <h1>Shop</h1>
        <h2>Offers</h2>
        <a href="#x" tabindex="0">Offers</a>
        <h3>This week</h3>
        <div role="tree" aria-label="Files"><div role="treeitem" aria-selected="false">notes.txt</div></div>
      </main>
    `);
    for (const id of ['empty-heading', 'tabindex', 'heading-order', 'aria-treeitem-name']) expect(ofRule(r, id), id).toEqual([]);
  });

  it('gives an axe finding every criterion of its tags, then the further ones: an unlabelled field fails 4.1.2 and 3.3.2', async () => {
    const r = await scan(`<main><h1>Search</h1><input id="q" type="text"><a id="empty-link" href="/next"></a></main>`);
    expect(ofRule(r, 'label').map((f) => [f.elementSelector, f.wcagCriterion, f.wcagCriteria])).toEqual([['#q', '4.1.2', ['4.1.2', '3.3.2']]]);
    expect(ofRule(r, 'link-name').map((f) => [f.elementSelector, f.wcagCriterion, f.wcagCriteria])).toEqual([['#empty-link', '2.4.4', ['2.4.4', '4.1.2']]]);
  });
});

describe('axe engine: only the meta refresh that acts is judged', () => {
  const withMeta = (metas: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Refresh</title>${metas}</head><body><main><h1>Refresh</h1></main></body></html>`;

  it('drops a later meta refresh (the first valid one acts) and keeps a later one when the first is not valid', async () => {
    // The first acts (an instant redirect): the 5 s one never runs (ACT bc659a's passed case).
    const inert = await scanner.scan(withMeta('<meta http-equiv="refresh" content="0; https://example.org/"><meta http-equiv="refresh" content="5; https://example.org/">'), { engines: [axeEngine] });
    expect(ofRule(inert, 'meta-refresh')).toEqual([]);
    // "0:" is no valid value, so the 5 s one is the one that acts (ACT bc659a's failed case).
    const acting = await scanner.scan(withMeta('<meta http-equiv="refresh" content="0: https://example.org/"><meta http-equiv="refresh" content="5; https://example.org/">'), { engines: [axeEngine] });
    expect(ofRule(acting, 'meta-refresh').map((f) => f.type)).toEqual(['confirmed']);
  });
});

describe('axe engine: header cells over no data cell at all (ACT d0f69e)', () => {
  it('confirms the headers of a table that has no data cell; a table whose header merely lacks cells below stays as axe says', async () => {
    const r = await scan(`
      <main>
        <table id="only-headers"><thead><tr><th>Foo</th><th>Bar</th></tr></thead></table>
        <table id="outer"><tr><th>Outer</th></tr><tr><th><table><tr><td>Inner cell</td></tr></table></th></tr></table>
        <table id="short"><tr><th>Cities</th><th>Count</th></tr><tr><td>Paris</td></tr></table>
      </main>
    `);
    const found = Object.fromEntries(ofRule(r, 'th-has-data-cells').map((f) => [f.elementSelector, f.type]));
    // axe's rule is about the table: the nested table's data cell is not the outer table's.
    // The short table has data cells: axe's own verdict stands (its header "Count" heads nothing).
    expect(found).toEqual({ '#only-headers': 'confirmed', '#outer': 'confirmed', '#short': 'needs_review' });
    const only = ofRule(r, 'th-has-data-cells').find((f) => f.elementSelector === '#only-headers')!;
    expect(only.wcagCriterion).toBe('1.3.1');
    expect(only.failureSummary).toContain('no data cell at all');
  });
});
