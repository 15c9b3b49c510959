// GDS suite: the 142 barriers of the GDS accessibility tool audit. A barrier is found when its
// page (or a linked example page) has a WCAG A/AA finding the neutral template page lacks.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { viewsOf } from './act.ts';
import { engineTimings, printByCriterion, printEngineErrors, printGoals, printTimings, shorten, table } from './report.ts';
import type { PageScan, Scanner } from './runner.ts';
import { barrierVerdict, gdsByCriterion, type BarrierVerdict, type CriterionCount, type Finding, type Goal } from './scoring.ts';
import { startStaticServer, urlPath } from '../../test/support/static-server.ts';

const GDS = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'corpora', 'gds-audit');
const TEMPLATE = '_harness/template-baseline.html';
/** The best tool of the 2018 audit (found = error + error_paid + warning), and the goal. */
const BEST_2018 = { tool: 'SortSite', found: 57 };
const GOAL = 75;
const FOUND_2018 = new Set(['error', 'error_paid', 'warning']);

interface Barrier {
  id: number;
  category: string;
  barrier: string;
  page: string;
  linked_example_pages: string[];
  results: Record<string, string>;
}

type Tally = { confirmed: number; needsReview: number; found: number };

export interface GdsReport {
  barriers: number;
  views: Record<string, { loose: Tally; strict: Tally }>;
  /** Per WCAG criterion: barriers each view found with a finding under it (loose). */
  byCriterion: Array<{ criterion: string; views: Record<string, CriterionCount> }>;
  categories: Array<{ category: string; barriers: number; service: number; serviceStrict: number; axeCore: number; axe2018: number; sortsite2018: number }>;
  list: Array<{ id: number; category: string; barrier: string; service: BarrierVerdict; serviceStrict: BarrierVerdict; axeCore: BarrierVerdict }>;
  pageErrors: Array<{ page: string; error: string }>;
  goals: Goal[];
  timings: ReturnType<typeof engineTimings>;
  seconds: number;
}

function tally(vs: readonly BarrierVerdict[]): Tally {
  const confirmed = vs.filter((v) => v.outcome === 'confirmed').length;
  const needsReview = vs.filter((v) => v.outcome === 'needs_review').length;
  return { confirmed, needsReview, found: confirmed + needsReview };
}

export async function runGds(opts: {
  scanner: Scanner;
  axeCoreIds: ReadonlySet<string>;
  engineIds: string[];
  verbose: boolean;
  /** An earlier run's per-criterion figures (its --json), printed beside these. */
  baseline?: GdsReport['byCriterion'];
}): Promise<GdsReport> {
  const barriers = JSON.parse(readFileSync(path.join(GDS, 'barriers.json'), 'utf8')) as Barrier[];
  const pages = [...new Set([TEMPLATE, ...barriers.flatMap((b) => [b.page, ...b.linked_example_pages])])];
  const site = await startStaticServer({}, { root: path.join(GDS, 'site') });
  const t0 = performance.now();
  let scans: PageScan[];
  try {
    scans = await opts.scanner.scanAll(pages.map((p) => site.origin + urlPath(p)), 'gds');
  } finally {
    await site.close();
  }
  const seconds = Math.round((performance.now() - t0) / 1000);
  const byPage = new Map(pages.map((p, i) => [p, scans[i]!]));
  const template = byPage.get(TEMPLATE)!;
  if (template.error) throw new Error(`the template page gave no scan: ${template.error}`);
  const viewNames = ['service', 'axe-core', ...opts.engineIds.map((id) => `engine:${id}`)];
  const viewOf = (p: string) => viewsOf(byPage.get(p)!, opts.axeCoreIds);
  const verdicts = (view: string, strict: boolean) =>
    barriers.map((b) => {
      const own: Finding[][] = [b.page, ...b.linked_example_pages].map((p) => viewOf(p)[view] ?? []);
      return barrierVerdict(own, viewOf(TEMPLATE)[view] ?? [], strict);
    });
  const views: GdsReport['views'] = {};
  const all: Record<string, { loose: BarrierVerdict[]; strict: BarrierVerdict[] }> = {};
  for (const v of viewNames) {
    all[v] = { loose: verdicts(v, false), strict: verdicts(v, true) };
    views[v] = { loose: tally(all[v].loose), strict: tally(all[v].strict) };
  }
  const byCriterion = gdsByCriterion(Object.fromEntries(Object.entries(all).map(([v, x]) => [v, x.loose])));
  const svc = all.service!;
  const axe = all['axe-core']!;
  const categories = [...new Set(barriers.map((b) => b.category))].map((category) => {
    const idx = barriers.map((b, i) => (b.category === category ? i : -1)).filter((i) => i >= 0);
    const count = (vs: BarrierVerdict[]) => idx.filter((i) => vs[i]!.outcome).length;
    return {
      category,
      barriers: idx.length,
      service: count(svc.loose),
      serviceStrict: count(svc.strict),
      axeCore: count(axe.loose),
      axe2018: idx.filter((i) => FOUND_2018.has(barriers[i]!.results.axe ?? '')).length,
      sortsite2018: idx.filter((i) => FOUND_2018.has(barriers[i]!.results.sortsite ?? '')).length,
    };
  });
  const s = views.service!;
  const report: GdsReport = {
    barriers: barriers.length,
    views,
    byCriterion,
    categories,
    list: barriers.map((b, i) => ({ id: b.id, category: b.category, barrier: b.barrier, service: svc.loose[i]!, serviceStrict: svc.strict[i]!, axeCore: axe.loose[i]! })),
    pageErrors: pages.map((p) => ({ page: p, error: byPage.get(p)!.error })).filter((x): x is { page: string; error: string } => !!x.error),
    goals: [
      { name: `barriers found beyond the template (service, rule+criterion+selector; ${BEST_2018.tool} 2018: ${BEST_2018.found})`, value: `${s.loose.found} of ${barriers.length}`, target: `>= ${GOAL}`, pass: s.loose.found >= GOAL },
      { name: 'same, stricter: a rule+criterion the template lacks', value: `${s.strict.found} of ${barriers.length}`, target: `>= ${GOAL}`, pass: s.strict.found >= GOAL },
    ],
    timings: engineTimings(scans),
    seconds,
  };
  printGds(report, scans, opts.verbose);
  printByCriterion('GDS barriers found (loose) per WCAG criterion of the findings that found them', report.byCriterion, opts.baseline);
  return report;
}

function printGds(r: GdsReport, scans: readonly PageScan[], verbose: boolean): void {
  console.log(`\n=== GDS audit: ${r.barriers} barriers, ${scans.length} pages scanned (template, barrier pages, linked example pages); ${r.seconds} s ===`);
  console.log('found: the barrier page or a linked example page has an A/AA finding the template page lacks (loose: by rule + criterion + selector; strict: by rule + criterion)');
  console.log(
    table(
      ['view', 'found', 'confirmed', 'NR only', 'strict found', 'strict confirmed', 'strict NR only'],
      Object.entries(r.views).map(([v, t]) => [v, `${t.loose.found} of ${r.barriers}`, t.loose.confirmed, t.loose.needsReview, t.strict.found, t.strict.confirmed, t.strict.needsReview]),
    ),
  );
  console.log(`(2018 audit: ${BEST_2018.tool} ${BEST_2018.found}, axe 41, 122 found by at least one tool)\n`);
  console.log(
    table(
      ['category', 'barriers', 'service', 'service strict', 'axe-core', 'axe 2018', 'SortSite 2018'],
      [
        ...r.categories.map((c) => [c.category, c.barriers, c.service, c.serviceStrict, c.axeCore, c.axe2018, c.sortsite2018]),
        ['total', r.barriers, r.views.service!.loose.found, r.views.service!.strict.found, r.views['axe-core']!.loose.found, r.categories.reduce((a, c) => a + c.axe2018, 0), r.categories.reduce((a, c) => a + c.sortsite2018, 0)],
      ],
    ),
  );
  console.log('\nbarriers (service, loose): + confirmed, ? needs_review only, - not found; [axe-core alone]; rule ids that found it');
  for (const b of r.list) {
    const mark = (v: BarrierVerdict) => (v.outcome === 'confirmed' ? '+' : v.outcome ? '?' : '-');
    const rules = b.service.rules.slice(0, verbose ? 50 : 6).join(', ') + (!verbose && b.service.rules.length > 6 ? `, … (${b.service.rules.length})` : '');
    console.log(`  ${mark(b.service)} [${mark(b.axeCore)}] ${String(b.id).padStart(3)} ${shorten(`${b.category}: ${b.barrier}`, 90)}${rules ? `  <- ${rules}` : ''}`);
  }
  printGoals('goals (service)', r.goals);
  if (r.pageErrors.length) {
    console.log(`\npage errors: ${r.pageErrors.length}`);
    for (const e of r.pageErrors) console.log(`  ${e.page}: ${e.error}`);
  }
  printEngineErrors(scans);
  printTimings(r.timings);
}
