import { describe, expect, it } from 'vitest';
import { countsTowardGates, decideGate, type GateIssue, type GateOptions } from '../../../src/cli/gate.ts';
import { failingLines } from '../../../src/cli/output.ts';
import type { AuditIssue } from '../../../src/cli/types.ts';

const issue = (severity: GateIssue['severity'], extra: Partial<GateIssue> = {}): GateIssue => ({ severity, type: 'confirmed', isNew: false, ...extra });
const opts = (o: Partial<GateOptions>): GateOptions => ({ failOn: [], includeNeedsReview: false, ...o });

// Two old confirmed issues (critical, moderate), one new serious, one new minor, and a new critical
// that only needs review.
const ISSUES: GateIssue[] = [
  issue('critical'),
  issue('moderate'),
  issue('serious', { isNew: true }),
  issue('minor', { isNew: true }),
  issue('critical', { isNew: true, type: 'needs_review' }),
];

describe('decideGate', () => {
  it('never fails without --fail-on or --max-issues', () => {
    const d = decideGate(ISSUES, opts({}));
    expect(d).toMatchObject({ passed: true, configured: false, counted: 4, failures: [] });
    expect(d.verdict).toMatch(/not set/);
  });

  it('fails on a severity or worse, naming the rule and the count', () => {
    const serious = decideGate(ISSUES, opts({ failOn: ['serious'] }));
    expect(serious.passed).toBe(false);
    expect(serious.failures).toEqual([{ rule: '--fail-on serious', count: 2, message: '2 confirmed issues are serious or worse' }]);
    expect(serious.verdict).toBe('FAILED: --fail-on serious: 2 confirmed issues are serious or worse');
    expect(decideGate(ISSUES, opts({ failOn: ['critical'] })).failures).toEqual([{ rule: '--fail-on critical', count: 1, message: '1 confirmed issue is critical' }]);
    expect(decideGate(ISSUES, opts({ failOn: ['moderate'] })).failures[0]?.count).toBe(3);
    expect(decideGate(ISSUES, opts({ failOn: ['minor'] })).failures[0]?.count).toBe(4);
    expect(decideGate(ISSUES, opts({ failOn: ['any'] })).failures).toEqual([{ rule: '--fail-on any', count: 4, message: '4 confirmed issues' }]);
  });

  it('passes when no counted issue reaches the severity', () => {
    const d = decideGate([issue('moderate'), issue('minor')], opts({ failOn: ['serious'] }));
    expect(d).toMatchObject({ passed: true, configured: true, counted: 2, failures: [] });
    expect(d.verdict).toBe('passed (--fail-on serious; 2 confirmed issues counted)');
  });

  it('uses the loosest of several severities, and any over them all', () => {
    expect(decideGate(ISSUES, opts({ failOn: ['critical', 'moderate'] })).failures).toEqual([
      { rule: '--fail-on critical,moderate', count: 3, message: '3 confirmed issues are moderate or worse' },
    ]);
    expect(decideGate(ISSUES, opts({ failOn: ['critical', 'any'] })).failures[0]?.count).toBe(4);
  });

  it('restricts counting to new issues with new', () => {
    const d = decideGate(ISSUES, opts({ failOn: ['new', 'serious'] }));
    expect(d.counted).toBe(2);
    expect(d.newOnly).toBe(true);
    expect(d.failures).toEqual([{ rule: '--fail-on new,serious', count: 1, message: '1 new confirmed issue is serious or worse' }]);
    // The old critical issue no longer fails the build: it is not new.
    expect(decideGate(ISSUES, opts({ failOn: ['new', 'critical'] })).passed).toBe(true);
  });

  it('fails on any new issue with new alone', () => {
    expect(decideGate(ISSUES, opts({ failOn: ['new'] })).failures).toEqual([{ rule: '--fail-on new', count: 2, message: '2 new confirmed issues' }]);
    expect(decideGate([issue('critical')], opts({ failOn: ['new'] })).passed).toBe(true);
  });

  it('counts issues against --max-issues: more than n fails, n passes', () => {
    expect(decideGate(ISSUES, opts({ maxIssues: 4 })).passed).toBe(true);
    expect(decideGate(ISSUES, opts({ maxIssues: 3 })).failures).toEqual([{ rule: '--max-issues 3', count: 4, message: '4 confirmed issues, more than 3' }]);
    expect(decideGate([], opts({ maxIssues: 0 })).passed).toBe(true);
    expect(decideGate([issue('minor')], opts({ maxIssues: 0 })).passed).toBe(false);
  });

  it('counts only new issues against --max-issues with new, which then sets no severity rule of its own', () => {
    expect(decideGate(ISSUES, opts({ failOn: ['new'], maxIssues: 2 })).passed).toBe(true);
    expect(decideGate(ISSUES, opts({ failOn: ['new'], maxIssues: 1 })).failures).toEqual([{ rule: '--max-issues 1', count: 2, message: '2 new confirmed issues, more than 1' }]);
  });

  it('reports every rule that failed', () => {
    const d = decideGate(ISSUES, opts({ failOn: ['serious'], maxIssues: 1 }));
    expect(d.failures.map((f) => f.rule)).toEqual(['--fail-on serious', '--max-issues 1']);
    expect(d.verdict).toBe('FAILED: --fail-on serious: 2 confirmed issues are serious or worse; --max-issues 1: 4 confirmed issues, more than 1');
  });

  it('leaves needs_review issues out unless asked to count them', () => {
    const review = [issue('critical', { type: 'needs_review' }), issue('serious', { type: 'needs_review' })];
    expect(decideGate(review, opts({ failOn: ['any'], maxIssues: 0 }))).toMatchObject({ passed: true, counted: 0 });
    const counted = decideGate(review, opts({ failOn: ['critical'], includeNeedsReview: true }));
    expect(counted.failures).toEqual([{ rule: '--fail-on critical', count: 1, message: '1 issue is critical' }]);
    expect(decideGate(ISSUES, opts({ failOn: ['new', 'critical'], includeNeedsReview: true })).failures[0]).toMatchObject({ count: 1, message: '1 new issue is critical' });
  });
});

describe('countsTowardGates', () => {
  it('filters by type, then by newness when new is set', () => {
    expect(countsTowardGates(issue('minor'), opts({}))).toBe(true);
    expect(countsTowardGates(issue('minor', { type: 'needs_review' }), opts({}))).toBe(false);
    expect(countsTowardGates(issue('minor', { type: 'needs_review' }), opts({ includeNeedsReview: true }))).toBe(true);
    expect(countsTowardGates(issue('minor'), opts({ failOn: ['new'] }))).toBe(false);
    expect(countsTowardGates(issue('minor', { isNew: true }), opts({ failOn: ['new'] }))).toBe(true);
  });
});

describe('failingLines', () => {
  const audit = (severity: GateIssue['severity'], page: string, isNew = false): AuditIssue => ({
    id: page,
    pageUrl: `https://example.org${page}`,
    type: 'confirmed',
    severity,
    wcagCriterion: '1.1.1',
    wcagLevel: 'A',
    wcagCriteria: ['1.1.1'],
    ruleId: 'image-alt',
    selector: 'img',
    elementHtml: '<img>',
    description: '',
    fixSuggestion: '',
    helpUrl: null,
    isNew,
  });

  it('lists the worst first, at most ten, and says how many more', () => {
    const many = [audit('minor', '/m'), audit('critical', '/c', true), ...Array.from({ length: 10 }, (_, i) => audit('serious', `/s${i}`))];
    const lines = failingLines(many);
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('  critical image-alt (WCAG 1.1.1, new) on https://example.org/c at img');
    expect(lines.slice(1, 10).every((l) => l.includes('serious'))).toBe(true);
    expect(lines[10]).toBe('  … and 2 more (see the reports)');
    expect(failingLines([])).toEqual([]);
  });
});
