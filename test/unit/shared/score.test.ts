import { describe, expect, it } from 'vitest';
import { SEVERITIES, ISSUE_TYPES } from '../../../src/shared/contracts.ts';
import { meanScore, pageScore, type ScoredFinding } from '../../../src/shared/score.ts';

const f = (ruleId: string, severity: ScoredFinding['severity'], type: ScoredFinding['type'] = 'confirmed'): ScoredFinding => ({ ruleId, severity, type });

describe('page score', () => {
  it('is 100 with no issues', () => expect(pageScore([])).toBe(100));

  it('deducts per failing rule, not per element', () => {
    expect(pageScore([f('image-alt', 'critical')])).toBe(80);
    expect(pageScore(Array.from({ length: 50 }, () => f('image-alt', 'critical')))).toBe(80);
  });

  it('follows the documented formula', () => {
    // (1 - 0.20) * (1 - 0.12) * (1 - 0.06) * (1 - 0.02) = 0.6485...
    expect(pageScore([f('a', 'critical'), f('b', 'serious'), f('c', 'moderate'), f('d', 'minor')])).toBe(65);
    // A rule that only needs review weighs a quarter.
    expect(pageScore([f('a', 'critical', 'needs_review')])).toBe(95);
    // A rule takes the weight of its worst finding.
    expect(pageScore([f('a', 'minor'), f('a', 'critical', 'needs_review'), f('a', 'serious')])).toBe(88);
  });

  it('stays within 0..100 however many rules fail', () => {
    const many = Array.from({ length: 200 }, (_, i) => f(`r${i}`, 'critical'));
    expect(pageScore(many)).toBe(0);
  });

  it('never rises when an issue is added (randomised sequences)', () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let run = 0; run < 300; run++) {
      const findings: ScoredFinding[] = [];
      let last = pageScore(findings);
      for (let step = 0; step < 25; step++) {
        findings.push(f(`rule-${rand(8)}`, SEVERITIES[rand(4)]!, ISSUE_TYPES[rand(2)]!));
        const next = pageScore(findings);
        expect(next).toBeLessThanOrEqual(last);
        last = next;
      }
    }
  });
});

describe('mean score', () => {
  it('is the rounded mean, or null without pages', () => {
    expect(meanScore([])).toBeNull();
    expect(meanScore([100, 80, 71])).toBe(84);
  });
});
