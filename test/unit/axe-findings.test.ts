import { describe, expect, it } from 'vitest';
import { findingsFromAxe, fingerprint, mergeFindings, passedRules, selectorFromTarget, type AxeRuleResult } from '../../src/activities/browser/axe-findings.ts';

const rule = (id: string, tags: string[], nodes: Array<{ target: unknown[]; impact?: string }>, impact = 'serious'): AxeRuleResult => ({
  id,
  impact,
  tags,
  description: `${id} description`,
  help: `${id} help`,
  helpUrl: `https://example.test/${id}`,
  nodes: nodes.map((n) => ({ target: n.target, html: `<x id="${String(n.target[0])}">`, impact: n.impact ?? impact, failureSummary: 'Fix any of the following: x' })),
});

describe('axe results to findings', () => {
  it('makes one draft per failing element and drops rules without an A/AA criterion', () => {
    const drafts = findingsFromAxe(
      [
        rule('image-alt', ['wcag2a', 'wcag111'], [{ target: ['#a'] }, { target: ['#b'] }], 'critical'),
        rule('region', ['cat.keyboard', 'best-practice'], [{ target: ['#c'] }]),
        rule('color-contrast-enhanced', ['wcag2aaa', 'wcag146'], [{ target: ['#d'] }]),
      ],
      'confirmed',
    );
    expect(drafts.map((d) => [d.ruleId, d.elementSelector, d.wcagCriterion, d.wcagLevel, d.severity, d.type])).toEqual([
      ['image-alt', '#a', '1.1.1', 'A', 'critical', 'confirmed'],
      ['image-alt', '#b', '1.1.1', 'A', 'critical', 'confirmed'],
    ]);
  });

  it('falls back to moderate when axe gives no impact, and renames rules on request', () => {
    const r = rule('target-size', ['wcag22aa', 'wcag258'], [{ target: ['#t'] }]);
    r.impact = null;
    r.nodes[0]!.impact = null;
    const [d] = findingsFromAxe([r], 'needs_review', { ruleIdFor: () => 'target-size-mobile', data: { viewport: '390x844' } });
    expect(d).toMatchObject({ ruleId: 'target-size-mobile', severity: 'moderate', type: 'needs_review', data: { viewport: '390x844', engineRuleId: 'target-size' } });
  });

  it('joins frame and shadow DOM selectors', () => {
    expect(selectorFromTarget(['iframe#pay', '#card'])).toBe('iframe#pay >>> #card');
    expect(selectorFromTarget([['my-widget', 'button.close']])).toBe('my-widget >>> button.close');
  });

  it('keeps one issue per element per criterion and notes who else found it', () => {
    const a = findingsFromAxe([rule('target-size', ['wcag22aa', 'wcag258'], [{ target: ['#x'] }])], 'confirmed');
    const b = findingsFromAxe([rule('target-size', ['wcag22aa', 'wcag258'], [{ target: ['#x'] }, { target: ['#y'] }])], 'confirmed', {
      ruleIdFor: () => 'target-size-mobile',
    });
    const merged = mergeFindings([...a, ...b]);
    expect(merged.map((m) => [m.ruleId, m.elementSelector, m.data.alsoFlaggedBy])).toEqual([
      ['target-size', '#x', ['target-size-mobile']],
      ['target-size-mobile', '#y', undefined],
    ]);
    // Same element, different criteria: two issues.
    const c = findingsFromAxe([rule('link-name', ['wcag2a', 'wcag244'], [{ target: ['#x'] }])], 'confirmed');
    expect(mergeFindings([...a, ...c])).toHaveLength(2);
  });

  it('keeps passed rules with their criterion for positive findings', () => {
    expect(passedRules([rule('document-title', ['wcag2a', 'wcag242'], [{ target: ['html'] }]), rule('region', ['best-practice'], [])])).toEqual([
      { ruleId: 'document-title', help: 'document-title help', wcagCriterion: '2.4.2', elements: 1 },
    ]);
  });

  it('fingerprints page, rule and normalised selector', () => {
    const a = fingerprint('https://x.test/', 'image-alt', '#a  >  img');
    expect(a).toBe(fingerprint('https://x.test/', 'image-alt', '#a > img'));
    expect(a).not.toBe(fingerprint('https://x.test/other', 'image-alt', '#a > img'));
    expect(a).not.toBe(fingerprint('https://x.test/', 'role-img-alt', '#a > img'));
  });
});
