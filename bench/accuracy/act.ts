// ACT suite: every W3C ACT Rules test case through the production scan, scored per rule for the
// service, axe-core alone and each engine.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  actByCriterion,
  actGoals,
  caseVerdict,
  LINK_PURPOSE_RULES,
  pct,
  ruleCriteria,
  scoreActView,
  type ActCaseResult,
  type ActCriterionRow,
  type ActMap,
  type ActRuleInfo,
  type ActViewScore,
  type Expected,
  type Finding,
} from './scoring.ts';
import { engineTimings, printByCriterion, printEngineErrors, printGoals, printTimings, shorten, table } from './report.ts';
import type { PageScan, Scanner } from './runner.ts';
import { AXE_BEST_PRACTICE_CRITERIA } from '../../src/shared/rules/index.ts';
import { startStaticServer } from '../../test/support/static-server.ts';

export const ACT_SITE = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'corpora', 'act-rules', 'site');
const TESTCASES = path.join(ACT_SITE, 'WAI', 'content-assets', 'wcag-act-rules', 'testcases.json');
const CASE_BASE = '/WAI/content-assets/wcag-act-rules/';

/** axe-core 4.14.1 alone with the service's WCAG tags, per the issue, and what css-orientation-lock adds. */
const AXE_CALIBRATION = { confirmed: 185, orientationLock: 4 };

interface RawCase {
  ruleId: string;
  ruleName: string;
  ruleAccessibilityRequirements: Record<string, unknown> | null;
  expected: Expected;
  testcaseId: string;
  testcaseTitle: string;
  relativePath: string;
}

export function loadActCases(onlyRules?: readonly string[]): { cases: RawCase[]; rules: Map<string, ActRuleInfo> } {
  const all = (JSON.parse(readFileSync(TESTCASES, 'utf8')) as { testcases: RawCase[] }).testcases;
  const cases = onlyRules?.length ? all.filter((c) => onlyRules.includes(c.ruleId)) : all;
  if (onlyRules?.length) {
    const unknown = onlyRules.filter((r) => !all.some((c) => c.ruleId === r));
    if (unknown.length) throw new Error(`unknown ACT rule id(s): ${unknown.join(', ')}`);
  }
  const rules = new Map<string, ActRuleInfo>();
  for (const c of cases) {
    if (rules.has(c.ruleId)) continue;
    const { criteria, source } = ruleCriteria(c.ruleId, c.ruleAccessibilityRequirements);
    rules.set(c.ruleId, { id: c.ruleId, name: c.ruleName, criteria, source });
  }
  return { cases, rules };
}

/** The findings of each view of one scan: the service, axe-core's own rules alone, each engine. */
export function viewsOf(scan: PageScan, axeCoreIds: ReadonlySet<string>): Record<string, Finding[]> {
  const views: Record<string, Finding[]> = { service: scan.findings };
  const axe = scan.engines.find((e) => e.engine === 'axe');
  // axe-core alone: the axe engine's axe-core rules, with color-contrast as plain axe-core says it
  // where the harness ran it (the engine takes away background images that fail to load).
  // axe-core alone is axe with the WCAG tags, scored as it reports: the best-practice rules the
  // service adds (issue 31) and the further criteria the service gives axe's findings are the
  // service's, not axe's.
  const own = (axe?.findings ?? [])
    .filter((f) => axeCoreIds.has(f.ruleId) && !AXE_BEST_PRACTICE_CRITERIA[f.ruleId])
    .map(({ criteria: _criteria, ...f }) => f);
  views['axe-core'] = scan.baseline ? [...own.filter((f) => f.ruleId !== 'color-contrast'), ...scan.baseline] : own;
  for (const e of scan.engines) views[`engine:${e.engine}`] = e.findings;
  return views;
}

export interface ActReport {
  cases: number;
  failedCases: number;
  rules: ActRuleInfo[];
  views: Record<string, ActViewScore>;
  /** Per WCAG criterion: failed cases of the rules mapping to it, flagged / confirmed by each view. */
  byCriterion: ActCriterionRow[];
  goals: ReturnType<typeof actGoals>;
  calibration: { axeCoreConfirmed: number; expected: string; orientationLockConfirmed: number };
  pageErrors: Array<{ ruleId: string; path: string; expected: Expected; error: string }>;
  timings: ReturnType<typeof engineTimings>;
  perCase: Array<{ ruleId: string; path: string; expected: Expected; service: string; axeCore: string; error?: string }>;
  seconds: number;
}

export async function runAct(opts: {
  scanner: Scanner;
  onlyRules?: string[];
  actMap: ActMap;
  axeCoreIds: ReadonlySet<string>;
  engineIds: string[];
  verbose: boolean;
  /** An earlier run's per-criterion figures (its --json), printed beside these. */
  baseline?: ActCriterionRow[];
}): Promise<ActReport> {
  const { cases, rules } = loadActCases(opts.onlyRules);
  const site = await startStaticServer({}, { root: ACT_SITE });
  const t0 = performance.now();
  let scans: PageScan[];
  try {
    scans = await opts.scanner.scanAll(
      cases.map((c) => site.origin + CASE_BASE + c.relativePath),
      'act',
    );
  } finally {
    await site.close();
  }
  const seconds = Math.round((performance.now() - t0) / 1000);
  const results: ActCaseResult[] = cases.map((c, i) => ({
    ruleId: c.ruleId,
    expected: c.expected,
    path: CASE_BASE + c.relativePath,
    title: c.testcaseTitle,
    ...(scans[i]!.error ? { error: scans[i]!.error } : {}),
    views: viewsOf(scans[i]!, opts.axeCoreIds),
  }));
  const viewNames = ['service', 'axe-core', ...opts.engineIds.map((id) => `engine:${id}`)];
  const views = Object.fromEntries(viewNames.map((v) => [v, scoreActView(v, results, rules, opts.actMap)]));
  const svc = views.service!;
  const axe = views['axe-core']!;
  const orientationLockConfirmed = results.filter(
    (c) => c.expected === 'failed' && (c.views['axe-core'] ?? []).some((f) => f.ruleId === 'css-orientation-lock' && f.type === 'confirmed'),
  ).length;
  const report: ActReport = {
    cases: cases.length,
    failedCases: svc.totals.failed,
    rules: [...rules.values()],
    views,
    byCriterion: actByCriterion(results, rules, opts.actMap, viewNames),
    goals: actGoals(svc),
    calibration: {
      axeCoreConfirmed: axe.totals.confirmed,
      expected: `about ${AXE_CALIBRATION.confirmed} + ${AXE_CALIBRATION.orientationLock} (css-orientation-lock) = ${AXE_CALIBRATION.confirmed + AXE_CALIBRATION.orientationLock}`,
      orientationLockConfirmed,
    },
    pageErrors: results.filter((c) => c.error).map((c) => ({ ruleId: c.ruleId, path: c.path, expected: c.expected, error: c.error! })),
    timings: engineTimings(scans),
    perCase: results.map((c) => {
      const rule = rules.get(c.ruleId)!;
      const crit = new Set(rule.criteria);
      const v = (view: string) => caseVerdict(c.views[view] ?? [], c.ruleId, crit, opts.actMap).outcome ?? 'none';
      return { ruleId: c.ruleId, path: c.path, expected: c.expected, service: v('service'), axeCore: v('axe-core'), ...(c.error ? { error: c.error } : {}) };
    }),
    seconds,
  };
  printAct(report, scans, opts.verbose);
  printByCriterion('ACT failed cases per WCAG criterion of their rule', report.byCriterion, opts.baseline);
  return report;
}

function printAct(r: ActReport, scans: readonly PageScan[], verbose: boolean): void {
  const svc = r.views.service!;
  const axe = r.views['axe-core']!;
  const axeByRule = new Map(axe.rules.map((x) => [x.ruleId, x]));
  console.log(`\n=== ACT rules: ${r.cases} test cases, ${r.rules.length} rules, ${r.failedCases} expected failed; ${r.seconds} s ===`);
  console.log('criteria: from the rule\'s WCAG requirements (A/AA only); * = taken from its techniques, its AAA criterion\'s A/AA sibling or its subject (see bench/accuracy/scoring.ts)');
  console.log('svc C / NR / miss: failed cases flagged confirmed / needs_review only / not flagged; FP: passed+inapplicable cases with a confirmed finding that belongs; NRp: ... with needs_review only\n');
  console.log(
    table(
      ['rule', 'name', 'criteria', 'failed', 'svc C', 'NR', 'miss', 'FP', 'NRp', 'pass+inap', 'axe C', 'axe NR', 'axe FP'],
      svc.rules.map((s) => {
        const info = r.rules.find((x) => x.id === s.ruleId)!;
        const a = axeByRule.get(s.ruleId)!;
        const crit = info.criteria.length ? info.criteria.join(' ') + (info.source === 'wcag' ? '' : '*') : '-';
        return [s.ruleId, shorten(info.name, 34), crit, s.failed, s.confirmed, s.needsReview, s.missed, s.falsePositives, s.nrOnPassing, s.passing, a.confirmed, a.needsReview, a.falsePositives];
      }),
      'lllrrrrrrrrrr',
    ),
  );

  console.log('\ntotals per view (service = merged findings; axe-core = axe\'s own rules from the axe engine run; engine:<id> = that engine\'s findings before merging)');
  console.log(
    table(
      ['view', 'flagged', `of ${r.failedCases}`, 'confirmed', 'NR only', 'missed', 'FP', 'FP unexpl.', 'NR on passing', '% of pass+inap', ...LINK_PURPOSE_RULES.map((id) => `${id} flagged`)],
      Object.values(r.views).map((v) => [
        v.view,
        v.totals.flagged,
        `${pct(v.totals.flagged, v.totals.failed)}%`,
        v.totals.confirmed,
        v.totals.needsReview,
        v.totals.missed,
        v.totals.falsePositives,
        v.totals.falsePositives - v.totals.explainedFalsePositives,
        `${v.totals.nrOnPassing} of ${v.totals.passing}`,
        `${v.totals.nrOnPassingPct}%`,
        ...LINK_PURPOSE_RULES.map((id) => {
          const x = v.rules.find((y) => y.ruleId === id);
          return x && x.failed ? `${x.confirmed + x.needsReview}/${x.failed} ${pct(x.confirmed + x.needsReview, x.failed)}%` : 'n/a';
        }),
      ]),
    ),
  );

  const c = r.calibration;
  console.log(
    `\ncalibration: axe-core alone confirms ${c.axeCoreConfirmed} failed cases (expected ${c.expected}; css-orientation-lock confirmed ${c.orientationLockConfirmed} failed cases)` +
      (r.rules.length < 87 ? ' [subset of rules: not comparable]' : ''),
  );

  printGoals(`goals (service${r.rules.length < 87 ? ', subset of rules: totals not comparable with the goals' : ''})`, r.goals);

  console.log(
    `\nfalse positives (service): ${svc.falsePositiveList.length} confirmed findings on ${svc.totals.falsePositives} passed/inapplicable cases; ` +
      `${svc.totals.explainedFalsePositives} of these cases only by rules that declare another ACT rule ("declares": likely a real failure of that rule on the page)`,
  );
  if (svc.falsePositiveList.length) {
    console.log(
      table(
        ['act rule', 'case', 'expected', 'our rule', 'criterion', 'engine', 'declares', 'selector'],
        svc.falsePositiveList.map((f) => [f.actRuleId, f.path.replace(CASE_BASE, ''), f.expected, f.ruleId, f.criterion, f.engine ?? '', f.declares.join(' ') || '-', shorten(f.selector, 60)]),
      ),
    );
  }
  const nr = Object.entries(svc.nrOnPassingByRule).sort((a, b) => b[1] - a[1]);
  if (nr.length) console.log(`\nneeds_review on passed/inapplicable cases, by our rule id (cases): ${nr.map(([id, n]) => `${id} ${n}`).join(', ')}`);
  if (verbose) {
    for (const p of r.perCase.filter((x) => x.expected !== 'failed' && x.service === 'needs_review')) console.log(`  NR on ${p.expected}: ${p.ruleId} ${p.path.replace(CASE_BASE, '')}`);
    for (const p of r.perCase.filter((x) => x.expected === 'failed' && x.service === 'none')) console.log(`  missed: ${p.ruleId} ${p.path.replace(CASE_BASE, '')}`);
  }

  console.log(`\npage errors and timeouts (scored as missed / not flagged): ${r.pageErrors.length}`);
  for (const e of r.pageErrors) console.log(`  ${e.ruleId} ${e.expected} ${e.path.replace(CASE_BASE, '')}: ${e.error}`);
  printEngineErrors(scans);
  printTimings(r.timings);
}
