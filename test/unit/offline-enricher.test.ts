import { describe, expect, it } from 'vitest';
import { describeFinding, summarise, type EnrichableFinding } from '../../src/activities/ai/offline-enricher.ts';

const finding = (over: Partial<EnrichableFinding> = {}): EnrichableFinding => ({
  id: 'f1',
  ruleId: 'image-alt',
  type: 'confirmed',
  severity: 'critical',
  wcagCriterion: '1.1.1',
  wcagLevel: 'A',
  elementSelector: '#logo',
  engineHelp: 'Images must have alternative text',
  engineDescription: 'Ensures <img> elements have alternate text',
  failureSummary: 'Fix any of the following:\n  Element does not have an alt attribute',
  ...over,
});

describe('offline enricher', () => {
  it('explains who is affected, the criterion, and how to fix this element', () => {
    const t = describeFinding(finding());
    expect(t.description).toContain('Screen reader users');
    expect(t.description).toContain('WCAG 1.1.1 Non-text Content (Level A)');
    expect(t.fixSuggestion).toContain('alt attribute');
    expect(t.fixSuggestion).toContain('#logo');
    expect(t.fixSuggestion).toContain('Element does not have an alt attribute');
    expect(describeFinding(finding({ type: 'needs_review' })).description).toContain('a person should confirm');
  });

  it('summarises with priorities worst first and positive findings only for criteria without issues', () => {
    const s = summarise({
      pageTitle: 'Home',
      url: 'https://x.test/',
      score: 72,
      findings: [
        finding(),
        finding({ id: 'f2', elementSelector: '#hero' }),
        finding({ id: 'f3', ruleId: 'color-contrast', severity: 'serious', wcagCriterion: '1.4.3', wcagLevel: 'AA', engineHelp: 'Elements must meet minimum color contrast ratio thresholds' }),
      ],
      passes: [
        { ruleId: 'document-title', help: 'Documents must have <title> element', wcagCriterion: '2.4.2', elements: 1 },
        { ruleId: 'image-alt', help: 'Images must have alternative text', wcagCriterion: '1.1.1', elements: 4 },
      ],
    });
    expect(s.overallScore).toBe(72);
    expect(s.summary).toContain('"Home" scores 72/100');
    expect(s.topPriorities.map((p) => [p.wcagCriterion, p.severity, p.issueCount])).toEqual([
      ['1.1.1', 'critical', 2],
      ['1.4.3', 'serious', 1],
    ]);
    expect(s.positiveFindings.map((p) => p.wcagCriterion)).toEqual(['2.4.2']);
  });

  it('says plainly when nothing was found', () => {
    const s = summarise({ pageTitle: null, url: 'https://x.test/', score: 100, findings: [], passes: [] });
    expect(s.summary).toContain('no WCAG 2.2 A or AA failures');
    expect(s.topPriorities).toEqual([]);
  });
});
