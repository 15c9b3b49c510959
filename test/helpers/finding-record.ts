import type { NewFindingRecord } from '../../src/shared/findings.ts';

/**
 * A stored finding as the repositories take it: an image without a text alternative on `#<fp>`,
 * its fingerprint `fp` and group `g-<fp>`, with `over` on top (another rule, group or element).
 */
export function findingRecord(fp: string, over: Partial<NewFindingRecord> = {}): NewFindingRecord {
  return {
    ruleId: 'image-alt',
    type: 'confirmed',
    severity: 'critical',
    wcagCriterion: '1.1.1',
    wcagLevel: 'A',
    wcagCriteria: ['1.1.1'],
    elementSelector: `#${fp}`,
    elementHtml: '<img>',
    engineHelp: 'Images must have alternative text',
    engineDescription: 'd',
    failureSummary: 'f',
    helpUrl: null,
    description: 'd',
    fixSuggestion: 'f',
    data: {},
    fingerprint: fp,
    groupKey: `g-${fp}`,
    state: null,
    viewport: null,
    ...over,
  };
}
