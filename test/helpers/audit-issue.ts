import type { AuditIssue } from '../../src/cli/types.ts';

/**
 * An issue as the CLI's reports (SARIF, JUnit) take it: a contrast failure unless `extra` says
 * otherwise. Its criteria follow its primary criterion unless given.
 */
export function auditIssue(extra: Partial<AuditIssue> = {}): AuditIssue {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    pageUrl: 'https://example.org/',
    type: 'confirmed',
    severity: 'serious',
    wcagCriterion: '1.4.3',
    wcagLevel: 'AA',
    ruleId: 'color-contrast',
    selector: 'main > p.lead',
    elementHtml: '<p class="lead">Hello</p>',
    description: 'Text has a contrast of 2.1:1, below 4.5:1.',
    fixSuggestion: 'Darken the text to #595959.',
    helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/color-contrast?application=axeAPI',
    isNew: false,
    ...extra,
    wcagCriteria: extra.wcagCriteria ?? [extra.wcagCriterion ?? '1.4.3'],
  };
}
