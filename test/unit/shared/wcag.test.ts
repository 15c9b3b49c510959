import { describe, expect, it } from 'vitest';
import { criterionForTags, criterionFromTag, successCriterion, WCAG22_A_AA } from '../../../src/shared/wcag.ts';

describe('axe tag to WCAG mapping', () => {
  it.each([
    ['wcag111', '1.1.1'],
    ['wcag143', '1.4.3'],
    ['wcag1411', '1.4.11'],
    ['wcag2411', '2.4.11'],
    ['wcag258', '2.5.8'],
    ['wcag412', '4.1.2'],
  ])('reads %s as %s', (tag, id) => expect(criterionFromTag(tag)).toBe(id));

  it.each(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa', 'best-practice', 'cat.color', 'section508.22.a', 'EN-9.1.1.1'])(
    'ignores the non-criterion tag %s',
    (tag) => expect(criterionFromTag(tag)).toBeUndefined(),
  );

  it('takes the first A/AA criterion in the rule\'s tag order, with its level', () => {
    expect(criterionForTags(['cat.name-role-value', 'wcag2a', 'wcag244', 'wcag412'])).toMatchObject({ id: '2.4.4', level: 'A' });
    expect(criterionForTags(['cat.color', 'wcag2aa', 'wcag143'])).toMatchObject({ id: '1.4.3', level: 'AA' });
    expect(criterionForTags(['wcag22aa', 'wcag258'])).toMatchObject({ id: '2.5.8', level: 'AA' });
  });

  it('reports no criterion for best practices, AAA-only rules and 4.1.1 (removed in WCAG 2.2)', () => {
    expect(criterionForTags(['cat.keyboard', 'best-practice'])).toBeUndefined();
    expect(criterionForTags(['wcag2aaa', 'wcag146'])).toBeUndefined(); // 1.4.6 Contrast (Enhanced) is AAA
    expect(criterionForTags(['wcag2a', 'wcag411'])).toBeUndefined();
    // ...but an AAA tag before an AA one does not hide the AA criterion.
    expect(criterionForTags(['wcag2aaa', 'wcag146', 'wcag2aa', 'wcag143'])).toMatchObject({ id: '1.4.3' });
  });

  it('holds the 55 WCAG 2.2 A and AA criteria, each once', () => {
    expect(WCAG22_A_AA).toHaveLength(55);
    expect(new Set(WCAG22_A_AA.map((c) => c.id)).size).toBe(55);
    expect(WCAG22_A_AA.filter((c) => c.level === 'A')).toHaveLength(31);
    expect(successCriterion('2.5.8')).toMatchObject({ title: 'Target Size (Minimum)', level: 'AA' });
    expect(successCriterion('4.1.1')).toBeUndefined();
  });
});
