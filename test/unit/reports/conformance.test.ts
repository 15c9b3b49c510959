import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINES } from '../../../src/audit/engines/index.ts';
import { conformance, documentConformance, FULLY_AUTOMATED_CRITERIA, NEEDS_A_PERSON, worksWell } from '../../../src/reports/conformance.ts';
import type { CriterionResult, IssueGroup } from '../../../src/reports/report-model.ts';
import { OWN_CHECKS } from '../../../src/shared/audit-setup.ts';

const criterion = (id: string, result: CriterionResult['result'], rules: string[] = [], issues = 0): CriterionResult => ({
  id,
  title: `Criterion ${id}`,
  level: 'A',
  principle: 'Perceivable',
  result,
  rules,
  issues,
  pages: 0,
});

const group = (ruleId: string, sc: string, severity: IssueGroup['severity'], type: IssueGroup['type'], pageUrl: string, selector: string): IssueGroup =>
  ({
    ruleId,
    title: `${ruleId} fails`,
    wcagCriterion: sc,
    wcagCriteria: [sc],
    severity,
    type,
    examples: [{ pageUrl, selector, html: '<x>', state: null, viewport: null, screenshotUrl: null }],
  }) as unknown as IssueGroup;

describe('what a conformance report may state from automated evidence', () => {
  const criteria = [
    criterion('1.1.1', 'fails', ['image-alt']),
    criterion('1.3.1', 'fails', ['label']),
    criterion('2.4.1', 'passed', ['bypass']),
    criterion('1.2.4', 'not_checked'),
    criterion('2.4.2', 'not_checked'),
    criterion('1.4.3', 'needs_review', ['color-contrast'], 2),
  ];
  const groups = [
    group('image-alt', '1.1.1', 'critical', 'confirmed', 'http://a.example/', '#logo'),
    group('label', '1.3.1', 'serious', 'confirmed', 'http://a.example/form', '#name'),
    group('color-contrast', '1.4.3', 'serious', 'needs_review', 'http://a.example/', 'p'),
  ];
  const rows = conformance(
    criteria,
    groups,
    [
      { criterion: '1.1.1', issues: 4, pages: 3 },
      { criterion: '1.3.1', issues: 1, pages: 1 },
    ],
    3,
  );
  const row = (id: string) => rows.find((r) => r.id === id)!;

  it('does not support a criterion confirmed failing on every page, with the count and the worst example', () => {
    expect(row('1.1.1')).toMatchObject({ conformance: 'does-not-support', confirmedIssues: 4, pagesAffected: 3, pagesAudited: 3 });
    expect(row('1.1.1').remarks).toMatch(/^4 confirmed issues on every page audited \(3 pages\)\. Worst: image-alt fails \(critical, rule image-alt\) at http:\/\/a\.example\/, element #logo\.$/);
  });

  it('partially supports one failing on some pages', () => {
    expect(row('1.3.1')).toMatchObject({ conformance: 'partially-supports', pagesAffected: 1 });
    expect(row('1.3.1').remarks).toContain('1 confirmed issue on 1 of 3 pages audited');
    expect(row('1.3.1').examples).toEqual([expect.objectContaining({ ruleId: 'label', selector: '#name' })]);
  });

  it('never says supports on checks that decide only part of a criterion (2.4.1 bypass passes on any page with a heading)', () => {
    expect(FULLY_AUTOMATED_CRITERIA.size).toBe(0);
    expect(rows.map((r) => r.conformance)).not.toContain('supports');
    expect(row('2.4.1')).toMatchObject({ conformance: 'not-evaluated' });
    expect(row('2.4.1').remarks).toMatch(/No automated failure \(bypass\)\..*a person must confirm it/);
    expect(worksWell('2.4.1')).toBe(false);
  });

  it('is not evaluated, needing a person, where no automated check ran, and where findings only need review', () => {
    expect(row('1.2.4')).toMatchObject({ conformance: 'not-evaluated', remarks: NEEDS_A_PERSON });
    // A criterion with rules none of which applied to the pages (no title element anywhere, say).
    expect(row('2.4.2')).toMatchObject({ conformance: 'not-evaluated' });
    expect(row('2.4.2').remarks).toMatch(/^Needs a person: no automated check applied to the pages audited \(its rules: .*document-title/);
    expect(row('1.4.3')).toMatchObject({ conformance: 'not-evaluated' });
    expect(row('1.4.3').remarks).toBe('No confirmed failure; 2 findings need review by a person (color-contrast).');
  });
});

describe('the documents (PDFs) audited, as their own component', () => {
  const criteria = [criterion('1.3.1', 'fails', ['pdf-untagged', 'label']), criterion('3.1.1', 'passed', ['html-has-lang']), criterion('2.1.1', 'passed', ['keyboard-activation'])];
  const groups = [
    group('label', '1.3.1', 'serious', 'confirmed', 'http://a.example/form', '#name'),
    group('pdf-untagged', '1.3.1', 'serious', 'confirmed', 'http://a.example/files/minutes.pdf', 'pdf:document'),
  ];
  const rows = documentConformance(criteria, groups, [{ criterion: '1.3.1', issues: 2, pages: 2 }], 4);
  const row = (id: string) => rows.find((r) => r.id === id)!;

  it('counts the documents\' confirmed issues over the documents audited, with document examples only', () => {
    expect(row('1.3.1')).toMatchObject({ conformance: 'partially-supports', confirmedIssues: 2, pagesAffected: 2, pagesAudited: 4 });
    expect(row('1.3.1').remarks).toMatch(/^2 confirmed issues on 2 of 4 documents audited\./);
    expect(row('1.3.1').examples.map((e) => e.ruleId)).toEqual(['pdf-untagged']);
  });

  it('is not evaluated elsewhere, naming the document rules that looked, or that none does', () => {
    expect(row('3.1.1')).toMatchObject({ conformance: 'not-evaluated' });
    expect(row('3.1.1').remarks).toMatch(/No confirmed failure in 4 documents \(pdf-lang-missing\)/);
    expect(row('2.1.1').remarks).toBe('Needs a person: no automated document check looks at this criterion.');
  });
});

describe('the engines a report names', () => {
  it('names every engine a page scan runs besides axe', () => {
    const own = DEFAULT_ENGINES.map((e) => e.id).filter((id) => id !== 'axe');
    expect(Object.keys(OWN_CHECKS).sort()).toEqual(own.sort());
  });
});
