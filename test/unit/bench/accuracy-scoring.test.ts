import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  actGoals,
  barrierVerdict,
  belongs,
  beyondTemplate,
  buildActMap,
  caseVerdict,
  meanMedian,
  ruleCriteria,
  scoreActView,
  tallyContrast,
  type ActCaseResult,
  type ActRuleInfo,
  type Finding,
} from '../../../bench/accuracy/scoring.ts';

const f = (ruleId: string, criterion: string, type: Finding['type'] = 'confirmed', selector = 'a', extra: Partial<Finding> = {}): Finding => ({ ruleId, criterion, type, selector, ...extra });

describe('ACT rule to WCAG A/AA criteria', () => {
  it('takes primary and secondary wcag criteria, A/AA only', () => {
    expect(
      ruleCriteria('c487ae', {
        'wcag20:4.1.2': { failed: 'not satisfied' },
        'wcag20:2.4.4': { failed: 'not satisfied' },
        'wcag20:2.4.9': { secondary: 'less strict' }, // AAA
        'wcag-technique:G91': {},
      }),
    ).toEqual({ criteria: ['2.4.4', '4.1.2'], source: 'wcag' });
    expect(ruleCriteria('x', { 'wcag20:4.1.1': {}, 'wcag21:1.3.5': {} }).criteria).toEqual(['1.3.5']); // 4.1.1 is gone in 2.2
  });

  it('sorts criteria by number, not as text', () => {
    expect(ruleCriteria('x', { 'wcag21:1.4.12': {}, 'wcag20:1.4.3': {}, 'wcag21:1.4.10': {} }).criteria).toEqual(['1.4.3', '1.4.10', '1.4.12']);
  });

  it('uses techniques when no primary requirement is an A/AA criterion', () => {
    expect(ruleCriteria('4c31df', { 'wcag-technique:G170': {} })).toEqual({ criteria: ['1.4.2'], source: 'technique' });
    expect(ruleCriteria('047fe0', { 'wcag-technique:H69': {} })).toEqual({ criteria: ['2.4.1'], source: 'technique' });
    // captions: only a secondary 1.2.1, its techniques give 1.2.2
    expect(ruleCriteria('f51b46', { 'wcag-technique:G87': {}, 'wcag-technique:H95': {}, 'wcag20:1.2.1': { secondary: 'x' } })).toEqual({
      criteria: ['1.2.1', '1.2.2'],
      source: 'wcag+technique',
    });
    // G8 is for an AAA criterion only; G78 adds 1.2.3 and 1.2.5
    expect(ruleCriteria('1ea59c', { 'wcag-technique:G8': {}, 'wcag-technique:G78': {} }).criteria).toEqual(['1.2.3', '1.2.5']);
  });

  it('ignores techniques when the rule has a primary A/AA criterion', () => {
    expect(ruleCriteria('59796f', { 'wcag20:1.1.1': {}, 'wcag-technique:G88': {} })).toEqual({ criteria: ['1.1.1'], source: 'wcag' });
  });

  it('falls back to the A/AA sibling of an AAA-only rule, then to the subject table', () => {
    expect(ruleCriteria('aizyf1', { 'wcag20:2.4.9': {} })).toEqual({ criteria: ['2.4.4'], source: 'aaa-sibling' });
    expect(ruleCriteria('09o5cg', { 'wcag20:1.4.6': {}, 'wcag-technique:G17': {}, 'wcag20:1.4.3': { secondary: 'x' } }).criteria).toEqual(['1.4.3']);
    expect(ruleCriteria('ebe86a', {})).toEqual({ criteria: ['2.1.2'], source: 'subject' });
    expect(ruleCriteria('ffd0e9', { 'aria12:namecalculation': {} })).toEqual({ criteria: ['1.3.1', '2.4.6'], source: 'subject' });
    expect(ruleCriteria('zzzzzz', null)).toEqual({ criteria: [], source: 'none' });
  });

  const testcases = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'shared', 'corpora', 'act-rules', 'site', 'WAI', 'content-assets', 'wcag-act-rules', 'testcases.json');
  it.skipIf(!existsSync(testcases))('gives every ACT rule of the corpus at least one criterion', () => {
    const cases = (JSON.parse(readFileSync(testcases, 'utf8')) as { testcases: Array<{ ruleId: string; ruleAccessibilityRequirements: Record<string, unknown> | null }> }).testcases;
    const rules = new Map(cases.map((c) => [c.ruleId, c.ruleAccessibilityRequirements]));
    const without = [...rules].filter(([id, req]) => ruleCriteria(id, req).criteria.length === 0).map(([id]) => id);
    expect(without).toEqual([]);
  });
});

describe('a finding belongs to a case\'s rule', () => {
  const actMap = buildActMap([['link-name', ['c487ae']], ['aria-hidden-focus', ['6cfa84']]], [['link-purpose', ['5effbb', 'fd3a94']]]);
  const crit = new Set(['2.4.4', '4.1.2']);

  it('by criterion', () => {
    expect(belongs(f('anything', '4.1.2'), 'c487ae', crit, actMap)).toBe(true);
    expect(belongs(f('anything', '1.1.1'), 'c487ae', crit, actMap)).toBe(false);
  });

  it('by the engine\'s own ACT declaration, also for rules merged into the finding', () => {
    expect(belongs(f('link-purpose', '1.3.1'), 'fd3a94', new Set(['9.9.9']), actMap)).toBe(true);
    expect(belongs(f('other', '1.3.1', 'confirmed', 'a', { also: ['link-name'] }), 'c487ae', new Set(), actMap)).toBe(true);
    expect(buildActMap([['r', []]]).has('r')).toBe(false);
  });

  it('takes the strongest outcome among the findings that belong', () => {
    expect(caseVerdict([f('a', '2.4.4', 'needs_review'), f('b', '4.1.2')], 'c487ae', crit, actMap).outcome).toBe('confirmed');
    expect(caseVerdict([f('a', '2.4.4', 'needs_review'), f('b', '1.1.1')], 'c487ae', crit, actMap)).toMatchObject({ outcome: 'needs_review', hits: [{ ruleId: 'a' }] });
    expect(caseVerdict([f('b', '1.1.1')], 'c487ae', crit, actMap).outcome).toBeNull();
  });
});

describe('ACT view scores', () => {
  const rules = new Map<string, ActRuleInfo>([
    ['c487ae', { id: 'c487ae', name: 'Link has name', criteria: ['2.4.4', '4.1.2'], source: 'wcag' }],
    ['5effbb', { id: '5effbb', name: 'Link in context', criteria: ['2.4.4'], source: 'wcag' }],
  ]);
  const actMap = buildActMap([['aria-hidden-focus', ['6cfa84']], ['link-name', ['c487ae']]]);
  const c = (ruleId: string, expected: ActCaseResult['expected'], service: Finding[], extra: Partial<ActCaseResult> = {}): ActCaseResult => ({
    ruleId,
    expected,
    path: `/${ruleId}/${Math.random()}.html`,
    views: { service },
    ...extra,
  });
  const cases: ActCaseResult[] = [
    c('c487ae', 'failed', [f('link-name', '4.1.2')]),
    c('c487ae', 'failed', [f('own', '2.4.4', 'needs_review')]),
    c('c487ae', 'failed', [f('image-alt', '1.1.1')]), // not about the rule: missed
    c('c487ae', 'failed', [], { error: 'http_error' }), // page error: missed
    c('c487ae', 'passed', [f('own', '2.4.4', 'needs_review')]),
    c('c487ae', 'inapplicable', [f('aria-hidden-focus', '4.1.2')]), // real failure of another ACT rule
    c('c487ae', 'passed', [f('link-name', '4.1.2')]), // the rule's own false positive
    c('c487ae', 'passed', []),
    c('5effbb', 'failed', [f('own', '2.4.4', 'needs_review')]),
    c('5effbb', 'failed', []),
    c('zzzzzz', 'failed', [f('x', '2.4.4')]), // rule not selected: ignored
  ];
  const s = scoreActView('service', cases, rules, actMap);

  it('counts failed cases as confirmed, needs_review or missed, and passing cases as FP or NR', () => {
    expect(s.rules.find((r) => r.ruleId === 'c487ae')).toEqual({
      ruleId: 'c487ae',
      failed: 4,
      passing: 4,
      confirmed: 1,
      needsReview: 1,
      missed: 2,
      falsePositives: 2,
      nrOnPassing: 1,
      explainedFalsePositives: 1,
    });
    expect(s.totals).toMatchObject({ failed: 6, flagged: 3, confirmed: 1, falsePositives: 2, nrOnPassing: 1, passing: 4, nrOnPassingPct: 25 });
    expect(s.falsePositiveList.map((x) => [x.ruleId, x.declares])).toEqual([
      ['aria-hidden-focus', ['6cfa84']],
      ['link-name', ['c487ae']],
    ]);
    expect(s.nrOnPassingByRule).toEqual({ own: 1 });
  });

  it('reads a view that a case lacks as no findings', () => {
    expect(scoreActView('axe-core', cases, rules, actMap).totals).toMatchObject({ flagged: 0, missed: 6, falsePositives: 0 });
  });

  it('turns totals into the issue\'s goals', () => {
    const goals = actGoals(s);
    expect(goals.map((g) => g.pass)).toEqual([false, false, false, false, false, false, null]);
    expect(goals.find((g) => g.name.startsWith('5effbb'))?.value).toBe('1 of 2 (50%)');
    expect(goals.find((g) => g.name.startsWith('fd3a94'))?.value).toBe('not run');
  });
});

describe('GDS barrier found beyond the template', () => {
  const template = [f('region', '1.3.1', 'needs_review', 'body'), f('color-contrast', '1.4.3', 'needs_review', '.footer a')];

  it('compares by rule + criterion + selector, or strictly by rule + criterion', () => {
    const page = [f('color-contrast', '1.4.3', 'needs_review', 'main p'), f('region', '1.3.1', 'needs_review', 'body')];
    expect(beyondTemplate(page, template, false).map((x) => x.selector)).toEqual(['main p']);
    expect(beyondTemplate(page, template, true)).toEqual([]);
  });

  it('ignores findings under criteria outside WCAG 2.2 A/AA', () => {
    expect(beyondTemplate([f('x', '1.4.6', 'confirmed', 'p'), f('y', '4.1.1', 'confirmed', 'p')], [], false)).toEqual([]);
  });

  it('is found on the barrier page or a linked example page, confirmed first', () => {
    const v = barrierVerdict([[f('a', '2.4.4', 'needs_review', 'main a')], [f('html-has-lang', '3.1.1', 'confirmed', 'html')]], template, false);
    expect(v).toEqual({ outcome: 'confirmed', rules: ['html-has-lang 3.1.1', 'a 2.4.4 (NR)'], criteria: { '3.1.1': true, '2.4.4': false } });
    expect(barrierVerdict([template], template, false)).toEqual({ outcome: null, rules: [], criteria: {} });
  });
});

describe('ipython contrast tally', () => {
  it('follows axe needs_review findings by selector and lists lost confirmed ones', () => {
    const t = tallyContrast([
      {
        url: '/3/a.html',
        axe: [
          f('color-contrast', '1.4.3', 'needs_review', 'p.a'),
          f('color-contrast', '1.4.3', 'needs_review', 'p.b'),
          f('color-contrast', '1.4.3', 'needs_review', 'p.c'),
          f('color-contrast', '1.4.3', 'needs_review', 'p.d'),
          f('color-contrast', '1.4.3', 'confirmed', 'p.e'),
          f('color-contrast', '1.4.3', 'confirmed', 'p.f'),
        ],
        service: [
          f('pixel-contrast', '1.4.3', 'confirmed', 'p.a', { engine: 'pixel' }),
          f('color-contrast', '1.4.3', 'needs_review', 'p.c', { engine: 'axe' }),
          f('color-contrast', '1.4.3', 'confirmed', 'p.e', { engine: 'axe' }),
          f('color-contrast', '1.4.3', 'needs_review', 'p.f', { engine: 'axe' }),
          f('pixel-contrast', '1.4.3', 'needs_review', 'p.new', { engine: 'pixel' }),
        ],
      },
    ]);
    expect(t.before).toEqual({ needsReview: 4, confirmed: 2 });
    expect(t.after).toEqual({ needsReview: 3, confirmed: 2 });
    expect(t.nrReductionPct).toBe(25);
    expect(t.axeNr).toEqual({ becameConfirmed: 1, dropped: 2, stayNeedsReview: 1 });
    expect(t.becameConfirmedBy).toEqual({ pixel: 1 });
    expect(t.confirmedLost).toEqual([{ url: '/3/a.html', selector: 'p.f', now: 'needs_review' }]);
    expect(t.newInService).toEqual({ confirmed: 0, needsReview: 1 });
  });

  it('reports no reduction when there was nothing to reduce', () => {
    expect(tallyContrast([]).nrReductionPct).toBe(0);
  });
});

describe('timing figures', () => {
  it('gives mean, median, p95 and max', () => {
    expect(meanMedian([4, 1, 3, 2])).toEqual({ n: 4, mean: 3, median: 3, p95: 4, max: 4 });
    expect(meanMedian([5])).toMatchObject({ mean: 5, median: 5 });
    expect(meanMedian([])).toMatchObject({ n: 0, mean: 0 });
  });
});
