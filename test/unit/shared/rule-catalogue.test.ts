import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { AXE_BEST_PRACTICE, AXE_EXPERIMENTAL } from '../../../src/audit/engines/axe/axe.engine.ts';
import { ownFinding, type OwnFindingInput } from '../../../src/audit/engines/engine.ts';
import { customRulesSource } from '../../../src/audit/engines/links/link-rules.ts';
import { SEVERITIES } from '../../../src/shared/contracts.ts';
import { AXE_CATALOGUE, AXE_GUIDES, TARGET_SIZE_MOBILE_CATALOGUE } from '../../../src/shared/rules/axe.ts';
import { LINK_CATALOGUE } from '../../../src/shared/rules/links.ts';
import { AXE_ALSO_FAILS, AXE_BEST_PRACTICE_CRITERIA, AXE_RULE_CRITERIA, ENGINE_GUIDES, ENGINE_RULES, FIX_GUIDES, RULES, ruleEntry } from '../../../src/shared/rules/index.ts';
import { AXE_WCAG_TAGS, criteriaForTags, criterionForTags, successCriterion } from '../../../src/shared/wcag.ts';

/**
 * The generator of src/shared/rules/axe-criteria.ts: what the installed axe-core says, as the
 * table's source. When axe-core changes, the test below fails and prints it to paste.
 */
function axeRuleCriteriaFromAxe(): Record<string, string> {
  const rules = axe.getRules([...AXE_WCAG_TAGS]) as Array<{ ruleId: string; tags: string[] }>;
  const rows = rules
    .map((r) => [r.ruleId, criterionForTags(r.tags)?.id] as const)
    .filter((e): e is readonly [string, string] => e[1] !== undefined)
    .sort((a, b) => a[0].localeCompare(b[0]));
  return Object.fromEntries(rows);
}

function axeRuleCriteriaSource(table: Record<string, string>): string {
  const key = (id: string) => (/^[a-z][a-z0-9]*$/i.test(id) ? id : `'${id}'`);
  return [
    '/**',
    ` * The WCAG 2.2 A/AA criterion each axe-core rule is reported under (axe-core ${axe.version}): the`,
    ' * first of its criterion tags that names an A or AA criterion of WCAG 2.2 (`criterionForTags`),',
    " * for every rule axe selects by the service's tags (`AXE_WCAG_TAGS`). Generated from axe-core;",
    ' * test/unit/shared/rule-catalogue.test.ts checks it against the installed axe-core and prints',
    ' * the new table when axe changes.',
    ' */',
    'export const AXE_RULE_CRITERIA: Readonly<Record<string, string>> = Object.freeze({',
    ...Object.entries(table).map(([id, c]) => `  ${key(id)}: '${c}',`),
    '});',
    '',
  ].join('\n');
}

/** The link rules as the page registers them into axe: `customRulesSource` run against a stand-in axe. */
function linkRuleSpecs(): Array<{ id: string; tags: string[]; impact: string }> {
  let spec: { rules: Array<{ id: string; tags: string[]; impact: string }> } | undefined;
  const fakeAxe = { configure: (s: typeof spec) => (spec = s) };
  new Function('window', customRulesSource())({ axe: fakeAxe });
  return spec!.rules;
}

describe('rule catalogue', () => {
  it('gives every entry valid WCAG 2.2 A/AA criteria, their levels and known severities', () => {
    expect(RULES.size).toBeGreaterThan(0);
    for (const [id, e] of RULES) {
      expect(e.id).toBe(id);
      expect(e.engine).toMatch(/^[a-z-]+$/);
      expect(e.criteria.length, id).toBeGreaterThan(0);
      for (const c of e.criteria) expect(successCriterion(c), `${id}: ${c}`).toBeDefined();
      const levels = new Set(e.criteria.map((c) => successCriterion(c)!.level));
      expect([...e.levels].sort(), id).toEqual([...levels].sort());
      expect(new Set(e.criteria).size, id).toBe(e.criteria.length);
      expect(e.severities.length, id).toBeGreaterThan(0);
      for (const s of e.severities) expect(SEVERITIES, `${id}: ${s}`).toContain(s);
      expect(e.guide, id).toBe(FIX_GUIDES[id] ?? null);
      expect(Object.isFrozen(e), id).toBe(true);
    }
  });

  it('has one entry per rule id: no engine reuses another engine\'s id', () => {
    const all = [...ENGINE_RULES, ...AXE_CATALOGUE, ...TARGET_SIZE_MOBILE_CATALOGUE];
    expect(RULES.size).toBe(all.length);
  });

  it('has an entry for every own rule with a guide, and a guide for every own rule', () => {
    expect(ENGINE_RULES.map((e) => e.id)).toEqual(Object.keys(ENGINE_GUIDES));
    for (const e of ENGINE_RULES) expect(e.engine, e.id).not.toBe('axe');
    // Every guide, axe's included, is for a rule the service reports (axe's best-practice
    // `empty-heading` too, since issue 31 reports it under 1.3.1 and 2.4.6).
    const unreported: string[] = [];
    for (const id of unreported) expect(ruleEntry(id), id).toBeUndefined();
    for (const id of Object.keys(FIX_GUIDES).filter((k) => !unreported.includes(k))) expect(ruleEntry(id), id).toBeDefined();
    // axe.ts also holds a guide for the link rule `link-text-generic` (the one FIX_GUIDES keeps).
    for (const id of Object.keys(AXE_GUIDES).filter((k) => !unreported.includes(k))) {
      expect(['axe', 'target-size-mobile', 'links'], id).toContain(ruleEntry(id)!.engine);
    }
    expect(ruleEntry('link-text-generic')!.guide).toBe(AXE_GUIDES['link-text-generic']);
  });

  it('lists the criteria a rule reports under in different situations', () => {
    expect(ruleEntry('media-link-alternative-missing')).toMatchObject({ engine: 'media', criteria: ['1.2.1', '1.2.3'], levels: ['A'] });
    expect(ruleEntry('page-title-shared')).toMatchObject({ engine: 'crawl', criteria: ['2.4.2'], severities: ['moderate'] });
    expect(ruleEntry('target-size-mobile')).toMatchObject({ engine: 'target-size-mobile', criteria: ['2.5.8'], levels: ['AA'] });
    expect(ruleEntry('no-such-rule')).toBeUndefined();
  });

  it('keeps the axe-core table equal to what the installed axe-core says', () => {
    const fromAxe = axeRuleCriteriaFromAxe();
    expect(AXE_RULE_CRITERIA, `src/shared/rules/axe-criteria.ts is out of date; replace it with:\n\n${axeRuleCriteriaSource(fromAxe)}`).toEqual(fromAxe);
    // The experimental rules the axe engine switches on are in it too.
    for (const id of Object.keys(AXE_EXPERIMENTAL)) expect(AXE_RULE_CRITERIA[id], id).toBeDefined();
    for (const e of AXE_CATALOGUE) expect(e.criteria).toEqual([AXE_RULE_CRITERIA[e.id] ?? AXE_BEST_PRACTICE_CRITERIA[e.id]![0]]);
  });

  it('lists every secondary criterion tag of an axe rule in its alsoFails, and nothing but A/AA criteria', () => {
    const rules = axe.getRules() as Array<{ ruleId: string; tags: string[] }>;
    for (const r of rules) {
      const [primary, ...more] = criteriaForTags(r.tags);
      if (!primary) continue;
      expect(primary, r.ruleId).toBe(AXE_RULE_CRITERIA[r.ruleId]);
      for (const c of more) expect(AXE_ALSO_FAILS[r.ruleId] ?? [], `${r.ruleId}: ${c}`).toContain(c);
    }
    for (const [id, criteria] of [...Object.entries(AXE_ALSO_FAILS), ...Object.entries(AXE_BEST_PRACTICE_CRITERIA)]) {
      for (const c of criteria) expect(successCriterion(c), `${id}: ${c}`).toBeDefined();
      expect(new Set(criteria).size, id).toBe(criteria.length);
    }
    for (const e of RULES.values()) {
      expect(e.alsoFails, e.id).not.toContain(e.criteria[0]);
      for (const c of e.alsoFails) expect(successCriterion(c), `${e.id}: ${c}`).toBeDefined();
    }
  });

  it('has the best-practice rules the axe engine switches on, each a best-practice rule of the installed axe-core with no WCAG tag', () => {
    expect(Object.keys(AXE_BEST_PRACTICE).sort()).toEqual(Object.keys(AXE_BEST_PRACTICE_CRITERIA).sort());
    const byId = new Map((axe.getRules() as Array<{ ruleId: string; tags: string[] }>).map((r) => [r.ruleId, r.tags]));
    for (const id of Object.keys(AXE_BEST_PRACTICE_CRITERIA)) {
      expect(byId.get(id), id).toContain('best-practice');
      expect(criteriaForTags(byId.get(id)!), id).toEqual([]);
      expect(ruleEntry(id), id).toMatchObject({ engine: 'axe', criteria: [AXE_BEST_PRACTICE_CRITERIA[id]![0]] });
    }
    expect(ruleEntry('empty-heading')).toMatchObject({ criteria: ['1.3.1'], alsoFails: ['2.4.6'], levels: ['A'] });
    expect(ruleEntry('tabindex')).toMatchObject({ criteria: ['2.4.3'], alsoFails: [] });
    // Best-practice rules with no documented WCAG failure stay out.
    for (const id of ['region', 'landmark-one-main', 'page-has-heading-one', 'image-redundant-alt']) expect(ruleEntry(id), id).toBeUndefined();
  });

  it('matches the link rules as registered into axe: criterion from their tags, severity from their impact', () => {
    const specs = linkRuleSpecs();
    expect(specs.map((r) => r.id).sort()).toEqual(LINK_CATALOGUE.map((e) => e.id).sort());
    for (const r of specs) {
      const e = ruleEntry(r.id)!;
      expect(e.engine).toBe('links');
      expect(e.criteria, r.id).toContain(criterionForTags(r.tags)?.id);
      expect(e.severities, r.id).toContain(r.impact);
    }
  });
});

describe('ownFinding and the catalogue', () => {
  const base: OwnFindingInput = {
    ruleId: 'media-link-alternative-missing',
    type: 'needs_review',
    severity: 'moderate',
    criterion: '1.2.3',
    selector: 'a',
    html: '<a href="/v.mp4">Video</a>',
    help: 'h',
    description: 'd',
    failureSummary: 's',
  };

  it('makes a finding for a rule, criterion and severity of the catalogue', () => {
    expect(ownFinding(base)).toMatchObject({ ruleId: base.ruleId, wcagCriterion: '1.2.3', wcagLevel: 'A', severity: 'moderate' });
    expect(ownFinding({ ...base, criterion: '1.2.1' })).toMatchObject({ wcagCriterion: '1.2.1' });
  });

  it('gives a finding its criterion, then the entry\'s alsoFails, at the lowest level among them', () => {
    const group = ownFinding({ ...base, ruleId: 'form-group-unnamed', type: 'confirmed', severity: 'serious', criterion: '1.3.1' });
    expect(group).toMatchObject({ wcagCriterion: '1.3.1', wcagCriteria: ['1.3.1', '3.3.2'], wcagLevel: 'A' });
    expect(ownFinding(base)).toMatchObject({ wcagCriteria: ['1.2.3'] });
  });

  it('adds a finding\'s own further criteria where its entry may also fail them, and throws for others', () => {
    const colour = { ...base, ruleId: 'form-error-colour-only', type: 'confirmed' as const, severity: 'serious' as const, criterion: '3.3.1' };
    expect(ownFinding(colour)).toMatchObject({ wcagCriteria: ['3.3.1'] });
    expect(ownFinding({ ...colour, alsoFails: ['1.4.1'] })).toMatchObject({ wcagCriteria: ['3.3.1', '1.4.1'], wcagLevel: 'A' });
    expect(() => ownFinding({ ...colour, alsoFails: ['1.1.1'] })).toThrow(/1\.1\.1 not among the criteria the rule catalogue's entry may also fail \(1\.4\.1\)/);
    expect(() => ownFinding({ ...base, alsoFails: ['1.1.1'] })).toThrow(/may also fail \(none\)/);
    expect(ruleEntry('link-name')).toMatchObject({ alsoFails: ['4.1.2'], mayAlsoFail: ['1.1.1'] });
  });

  it('throws for a rule not in the catalogue', () => {
    expect(() => ownFinding({ ...base, ruleId: 'no-such-rule' })).toThrow('no-such-rule: not in the rule catalogue');
  });

  it('throws for a criterion or a severity the rule\'s entry does not have', () => {
    expect(() => ownFinding({ ...base, criterion: '1.2.5' })).toThrow(/criterion 1\.2\.5 is not in the rule catalogue's entry \(1\.2\.1, 1\.2\.3\)/);
    expect(() => ownFinding({ ...base, severity: 'critical' })).toThrow(/severity critical is not in the rule catalogue's entry \(moderate\)/);
    expect(() => ownFinding({ ...base, criterion: '4.1.1' })).toThrow('4.1.1 is not a WCAG 2.2 A/AA criterion');
  });
});
