import { describe, expect, it } from 'vitest';
import { axeCriteria, findingsFromAxe, mergeFindings, type AxeRuleResult } from '../../../../src/audit/findings/findings.ts';
import type { FindingDraft } from '../../../../src/shared/findings.ts';
import { criteriaForTags, criteriaOfLevel, lowestLevel, wcagCriteria } from '../../../../src/shared/wcag.ts';

// Every criterion a finding fails (issue 31): the primary first, then the further ones.

describe('wcagCriteria and levels', () => {
  it('keeps A/AA criteria in order, each once, and drops AAA ones and 4.1.1', () => {
    expect(wcagCriteria(['4.1.2', '1.3.1', '4.1.2', '2.4.9', '4.1.1', '3.3.2'])).toEqual(['4.1.2', '1.3.1', '3.3.2']);
    expect(criteriaForTags(['cat.forms', 'wcag2a', 'wcag244', 'wcag412', 'wcag249', 'ACT'])).toEqual(['2.4.4', '4.1.2']);
  });

  it('takes the lowest level: A when any criterion is an A one', () => {
    expect(lowestLevel(['2.4.6', '1.3.1'])).toBe('A');
    expect(lowestLevel(['2.4.6', '1.4.3'])).toBe('AA');
    expect(lowestLevel([])).toBeUndefined();
    expect(criteriaOfLevel('AA')).toContain('2.4.6');
    expect(criteriaOfLevel('AA')).not.toContain('1.3.1');
  });
});

const rule = (id: string, tags: string[]): AxeRuleResult => ({
  id,
  tags,
  impact: 'serious',
  description: 'd',
  help: 'h',
  nodes: [{ target: [`#${id}`], html: '<x></x>', impact: 'serious' }],
});

describe('axe findings criteria', () => {
  it('gives every A/AA tag of the rule in its order, then the table\'s further criteria', () => {
    expect(axeCriteria('link-name', ['cat.name-role-value', 'wcag2a', 'wcag244', 'wcag412'])).toEqual(['2.4.4', '4.1.2']);
    expect(axeCriteria('label', ['cat.forms', 'wcag2a', 'wcag412'])).toEqual(['4.1.2', '3.3.2']);
    expect(axeCriteria('area-alt', ['wcag2a', 'wcag244', 'wcag412'])).toEqual(['2.4.4', '4.1.2', '1.1.1']);
    // image-alt fails 1.1.1 (F65) and nothing more.
    expect(axeCriteria('image-alt', ['cat.text-alternatives', 'wcag2a', 'wcag111'])).toEqual(['1.1.1']);
  });

  it('reports a best-practice rule only where the catalogue lists its documented failure', () => {
    expect(axeCriteria('empty-heading', ['cat.name-role-value', 'best-practice'])).toEqual(['1.3.1', '2.4.6']);
    expect(axeCriteria('tabindex', ['cat.keyboard', 'best-practice'])).toEqual(['2.4.3']);
    expect(axeCriteria('region', ['cat.keyboard', 'best-practice'])).toEqual([]);
    expect(axeCriteria('identical-links-same-purpose', ['wcag2aaa', 'wcag249'])).toEqual([]);
  });

  it('makes drafts with the criteria, the primary as wcagCriterion and the lowest level', () => {
    const drafts = findingsFromAxe([rule('empty-heading', ['best-practice']), rule('region', ['best-practice']), rule('label', ['wcag2a', 'wcag412'])], 'confirmed');
    expect(drafts.map((d) => [d.ruleId, d.wcagCriterion, d.wcagLevel, d.wcagCriteria])).toEqual([
      ['empty-heading', '1.3.1', 'A', ['1.3.1', '2.4.6']],
      ['label', '4.1.2', 'A', ['4.1.2', '3.3.2']],
    ]);
  });
});

describe('image controls without a name (issue 43)', () => {
  const withHtml = (id: string, tags: string[], html: string): AxeRuleResult => ({ ...rule(id, tags), nodes: [{ target: [`#${id}`], html, impact: 'serious' }] });
  it('adds 1.1.1 to an image link or image button with no name, and not to an empty text link', () => {
    const tags = ['wcag2a', 'wcag244', 'wcag412'];
    const criteria = (id: string, t: string[], html: string) => findingsFromAxe([withHtml(id, t, html)], 'confirmed').map((d) => [d.wcagCriterion, d.wcagCriteria]);
    expect(criteria('link-name', tags, '<a href="/home"><img src="logo.png" alt=""></a>')).toEqual([['2.4.4', ['2.4.4', '4.1.2', '1.1.1']]]);
    expect(criteria('link-name', tags, '<a href="/x"><svg viewBox="0 0 9 9"></svg></a>')).toEqual([['2.4.4', ['2.4.4', '4.1.2', '1.1.1']]]);
    expect(criteria('button-name', ['wcag2a', 'wcag412'], '<button><span role="img" class="icon"></span></button>')).toEqual([['4.1.2', ['4.1.2', '1.1.1']]]);
    expect(criteria('link-name', tags, '<a href="/next"></a>')).toEqual([['2.4.4', ['2.4.4', '4.1.2']]]);
    expect(criteria('button-name', ['wcag2a', 'wcag412'], '<button class="imgage-like"> </button>')).toEqual([['4.1.2', ['4.1.2']]]);
  });
});

describe('mergeFindings with criteria', () => {
  const draft = (ruleId: string, criteria: string[], selector = 'h2'): FindingDraft => ({
    ruleId,
    type: 'confirmed',
    severity: 'moderate',
    wcagCriterion: criteria[0]!,
    wcagLevel: lowestLevel(criteria)!,
    wcagCriteria: criteria,
    elementSelector: selector,
    elementHtml: '<h2></h2>',
    engineHelp: '',
    engineDescription: '',
    failureSummary: '',
    helpUrl: null,
    data: {},
  });

  it('merges by the primary criterion and joins the further criteria of the drafts merged in', () => {
    const [one, ...rest] = mergeFindings([draft('own-empty-heading', ['1.3.1']), draft('empty-heading', ['1.3.1', '2.4.6'])]);
    expect(rest).toEqual([]);
    expect(one).toMatchObject({ ruleId: 'own-empty-heading', wcagCriterion: '1.3.1', wcagCriteria: ['1.3.1', '2.4.6'], wcagLevel: 'A', data: { alsoFlaggedBy: ['empty-heading'] } });
  });

  it('keeps drafts whose primaries differ apart, even where their further criteria overlap', () => {
    const merged = mergeFindings([draft('label', ['4.1.2', '3.3.2'], 'input'), draft('form-placeholder-only', ['3.3.2'], 'input')]);
    expect(merged.map((d) => d.ruleId)).toEqual(['label', 'form-placeholder-only']);
  });
});
