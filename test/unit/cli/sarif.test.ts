import { describe, expect, it } from 'vitest';
import { buildSarif, FINGERPRINT_KEY, issueFingerprint, ruleName, sarifLevel, type SarifInput } from '../../../src/cli/sarif.ts';
import type { AuditIssue } from '../../../src/cli/types.ts';
import { schemaErrors } from '../../helpers/sarif-schema.ts';
import { auditIssue as issue } from '../../helpers/audit-issue.ts';

const HOSTILE = 'Bad "quote" </script><script>alert(1)</script> ]]> \\ \u0000 \u2028 😀 {"json":true}';

const ISSUES: AuditIssue[] = [
  issue({}),
  issue({ id: 'i2', severity: 'critical', ruleId: 'image-alt', wcagCriterion: '1.1.1', wcagLevel: 'A', selector: 'img.hero', isNew: true, helpUrl: null }),
  issue({ id: 'i3', severity: 'moderate', pageUrl: 'https://example.org/about?x=1&y=2', selector: '#nav a', description: HOSTILE, fixSuggestion: HOSTILE, elementHtml: HOSTILE }),
  issue({ id: 'i4', severity: 'minor', ruleId: 'target-size-mobile', wcagCriterion: '2.5.8', selector: 'button.x', helpUrl: 'not a url' }),
  issue({ id: 'i5', severity: 'critical', type: 'needs_review', ruleId: 'image-alt', wcagCriterion: '1.1.1', wcagLevel: 'A', selector: 'img.logo', isNew: true, helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/image-alt' }),
];

const input = (extra: Partial<SarifInput> = {}): SarifInput => ({
  issues: ISSUES,
  hasBaseline: true,
  toolVersion: '0.1.0',
  informationUri: 'http://127.0.0.1:3000/docs',
  endTime: new Date('2026-11-25T10:00:00.000Z'),
  executionSuccessful: true,
  ...extra,
});

describe('SARIF schema check', () => {
  it('rejects logs that break the schema, so a pass below means something', () => {
    const log = buildSarif(input()) as unknown as { runs: Array<{ results: Array<Record<string, unknown>>; tool: { driver: Record<string, unknown> } }> };
    const broken = structuredClone(log);
    broken.runs[0]!.results[0]!.level = 'fatal';
    expect(schemaErrors(broken)).toContainEqual(expect.stringContaining('/runs/0/results/0/level'));
    const noName = structuredClone(log);
    delete noName.runs[0]!.tool.driver.name;
    expect(schemaErrors(noName).length).toBeGreaterThan(0);
    const badUri = structuredClone(log);
    badUri.runs[0]!.tool.driver.informationUri = 'not a uri';
    expect(schemaErrors(badUri)).toContainEqual(expect.stringContaining('informationUri must match format "uri"'));
    const badFingerprint = structuredClone(log);
    badFingerprint.runs[0]!.results[0]!.partialFingerprints = { [FINGERPRINT_KEY]: 42 };
    expect(schemaErrors(badFingerprint).length).toBeGreaterThan(0);
  });
});

describe('buildSarif', () => {
  it('writes a log the official SARIF 2.1.0 schema accepts: crawl, scan, empty, with warnings', () => {
    expect(schemaErrors(buildSarif(input()))).toEqual([]);
    expect(schemaErrors(buildSarif(input({ hasBaseline: false })))).toEqual([]);
    expect(schemaErrors(buildSarif(input({ issues: [] })))).toEqual([]);
    expect(schemaErrors(buildSarif(input({ warnings: ['3 pages could not be scanned'], executionSuccessful: true })))).toEqual([]);
  });

  it('describes the tool and one rule per distinct rule id, indexed by the results', () => {
    const run = buildSarif(input()).runs[0]!;
    expect(run.tool.driver).toMatchObject({ name: 'a11y-audit', version: '0.1.0', informationUri: 'http://127.0.0.1:3000/docs' });
    const rules = run.tool.driver.rules;
    expect(rules.map((r) => r.id)).toEqual(['color-contrast', 'image-alt', 'target-size-mobile']);
    expect(rules[0]).toEqual({
      id: 'color-contrast',
      name: 'ColorContrast',
      shortDescription: { text: 'color-contrast: WCAG 2.2 1.4.3 Contrast (Minimum) (level AA)' },
      helpUri: 'https://dequeuniversity.com/rules/axe/4.10/color-contrast?application=axeAPI',
      defaultConfiguration: { level: 'error' },
      properties: { tags: ['accessibility', 'wcag2.2', 'WCAG 1.4.3 (AA)'] },
    });
    // The help URL comes from whichever issue of the rule has one; an unusable one is left out.
    expect(rules[1]).toMatchObject({ helpUri: 'https://dequeuniversity.com/rules/axe/4.10/image-alt', defaultConfiguration: { level: 'error' }, properties: { tags: ['accessibility', 'wcag2.2', 'WCAG 1.1.1 (A)'] } });
    expect(rules[2]).not.toHaveProperty('helpUri');
    expect(rules[2]).toMatchObject({ defaultConfiguration: { level: 'note' }, shortDescription: { text: 'target-size-mobile: WCAG 2.2 2.5.8 Target Size (Minimum) (level AA)' } });
    for (const result of run.results) expect(rules[result.ruleIndex]!.id).toBe(result.ruleId);
  });

  it('maps severity and type to levels: needs_review is a note whatever its severity', () => {
    expect(buildSarif(input()).runs[0]!.results.map((r) => r.level)).toEqual(['error', 'error', 'warning', 'note', 'note']);
    expect(sarifLevel({ type: 'needs_review', severity: 'critical' })).toBe('note');
  });

  it('locates each result on its page and element, with a stable fingerprint and the baseline state', () => {
    const [first, second, third] = buildSarif(input()).runs[0]!.results;
    expect(first!.locations).toEqual([
      { physicalLocation: { artifactLocation: { uri: 'https://example.org/' } }, logicalLocations: [{ fullyQualifiedName: 'main > p.lead', kind: 'element' }] },
    ]);
    expect(third!.locations[0]!.physicalLocation.artifactLocation.uri).toBe('https://example.org/about?x=1&y=2');
    expect(first!.baselineState).toBe('unchanged');
    expect(second!.baselineState).toBe('new');
    expect(first!.partialFingerprints[FINGERPRINT_KEY]).toMatch(/^[0-9a-f]{64}$/);
    expect(first!.partialFingerprints[FINGERPRINT_KEY]).toBe(issueFingerprint({ pageUrl: 'https://example.org/', ruleId: 'color-contrast', selector: 'main > p.lead' }));
    // Same page, rule and selector: same fingerprint whatever else changed; any of the three differs: another one.
    expect(issueFingerprint(issue({ description: 'other', severity: 'minor' }))).toBe(issueFingerprint(issue({})));
    expect(new Set([issue({}), issue({ pageUrl: 'https://example.org/b' }), issue({ ruleId: 'x' }), issue({ selector: 'p' })].map(issueFingerprint)).size).toBe(4);
    expect(buildSarif(input({ hasBaseline: false })).runs[0]!.results.every((r) => !('baselineState' in r))).toBe(true);
  });

  it('puts the description and the fix in the message, the rest in the properties', () => {
    const [first] = buildSarif(input()).runs[0]!.results;
    expect(first!.message.text).toBe('Text has a contrast of 2.1:1, below 4.5:1.\n\nHow to fix: Darken the text to #595959.');
    expect(first!.properties).toEqual({
      issueId: ISSUES[0]!.id,
      severity: 'serious',
      wcagCriterion: '1.4.3',
      wcagLevel: 'AA',
      wcagCriteria: ['1.4.3'],
      type: 'confirmed',
      elementHtml: '<p class="lead">Hello</p>',
    });
  });

  it('tags a rule with every criterion its issues fail, each at its own level', () => {
    const unlabelled = issue({ id: 'i9', ruleId: 'label', wcagCriterion: '4.1.2', wcagLevel: 'A', wcagCriteria: ['4.1.2', '3.3.2'], selector: 'input' });
    const heading = issue({ id: 'i10', ruleId: 'empty-heading', wcagCriterion: '1.3.1', wcagLevel: 'A', wcagCriteria: ['1.3.1', '2.4.6'], selector: 'h2' });
    const sarif = buildSarif(input({ issues: [unlabelled, heading] }));
    const rules = sarif.runs[0]!.tool.driver.rules;
    const tags = (id: string) => rules.find((r) => r.id === id)!.properties.tags;
    expect(tags('label')).toEqual(expect.arrayContaining(['WCAG 4.1.2 (A)', 'WCAG 3.3.2 (A)']));
    expect(tags('empty-heading')).toEqual(expect.arrayContaining(['WCAG 1.3.1 (A)', 'WCAG 2.4.6 (AA)']));
    // 2.4.6 is an AA criterion: its own level, not the issue's (A, the lowest of its criteria).
    expect(rules.find((r) => r.id === 'empty-heading')!.shortDescription.text).toContain('2.4.6 Headings and Labels (level AA)');
    expect(sarif.runs[0]!.results.find((r) => r.ruleId === 'label')!.properties.wcagCriteria).toEqual(['4.1.2', '3.3.2']);
  });

  it('keeps hostile page content inside JSON strings, unchanged', () => {
    const text = JSON.stringify(buildSarif(input()));
    const back = JSON.parse(text) as ReturnType<typeof buildSarif>;
    const hostile = back.runs[0]!.results[2]!;
    expect(hostile.message.text).toBe(`${HOSTILE}\n\nHow to fix: ${HOSTILE}`);
    expect(hostile.properties.elementHtml).toBe(HOSTILE);
    expect(text).not.toContain('\u0000');
    expect(Object.keys(back)).toEqual(['$schema', 'version', 'runs']);
  });

  it('records the end of the run and its warnings in the invocation', () => {
    expect(buildSarif(input({ warnings: ['crawl completed only in part'] })).runs[0]!.invocations).toEqual([
      { executionSuccessful: true, endTimeUtc: '2026-11-25T10:00:00.000Z', toolExecutionNotifications: [{ level: 'warning', message: { text: 'crawl completed only in part' } }] },
    ]);
  });

  it('names rules as identifiers', () => {
    expect(ruleName('image-alt')).toBe('ImageAlt');
    expect(ruleName('target-size-mobile')).toBe('TargetSizeMobile');
    expect(ruleName('--')).toBe('Rule');
  });
});
