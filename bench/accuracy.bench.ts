// Accuracy harness (issue 13): runs the production page scan (`scanUrl`, the default engines,
// `allowPrivate` policy; no database, no Temporal, no enrichment) over corpora nobody here wrote,
// served on loopback, and prints per rule and in total what the service, axe-core alone and each
// engine flag, miss and get wrong, with the issue's goals as PASS/FAIL. Asserts nothing.
//
//   node bench/accuracy.bench.ts [--suite act|gds|ipython|all] [options]
//
//   --suite act       every W3C ACT Rules test case (1213 cases, 87 rules, 393 expected failed)
//   --suite gds       the 142 barriers of the GDS tool audit, against its neutral template page
//   --suite ipython   the IPython 3 docs (*.html under 3/): contrast needs_review before and after
//   --suite all       the three, one after another (default: act)
//   --rules id,id     ACT only: just these ACT rules (e.g. --rules b33eff,2779a5,c487ae)
//   --limit N         ipython only: the first N pages (sorted by path; default all)
//   --concurrency N   pages scanned in parallel in the one Chromium (default 2)
//   --timeout MS      page load timeout, as the service's (default 15000)
//   --scan-timeout MS whole scan of one page (load, settle, every engine); after it the page is
//                     skipped and listed as an error (default 60000)
//   --engines a,b     run only these of the default engines (axe is needed for "axe-core alone")
//   --add-engines f.ts[,g.ts]  also run every ScanEngine exported by these files (an engine not
//                     yet registered in engines/index.ts), and read their ACT_RULES export
//   --json FILE       write every figure as JSON (for the README table)
//   --baseline FILE   an earlier run's --json: the per-criterion tables print "before → after"
//   --save-scans FILE append every page's findings and timings to FILE (JSON lines) as it is scanned
//   --resume          with --save-scans: take the pages already in FILE from it, scan only the rest
//   --replay FILE     score saved scans again, without Chromium (engines as when saved; ACT_RULES
//                     and scoring as now)
//   --verbose         list NR-on-passing and missed ACT cases, every GDS rule id, every lost contrast finding
//
// Scoring (bench/accuracy/scoring.ts): a finding belongs to an ACT case's rule when its WCAG
// criterion is one of the rule's A/AA criteria, or its engine rule declares the ACT rule (axe's
// `actIds`; an engine module's optional `export const ACT_RULES: Record<ruleId, actRuleId[]>`).
// Chromium: $CHROMIUM_PATH, else Playwright's, else /usr/bin/chromium; host names other than
// loopback do not resolve, so the run does not depend on the network.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runAct, type ActReport } from './accuracy/act.ts';
import { runGds, type GdsReport } from './accuracy/gds.ts';
import { runIpython } from './accuracy/ipython.ts';
import { axeCoreRules, createScanner, loadEngines, plainAxeContrast, readSavedScans, replayScanner, savingScanner, type Scanner } from './accuracy/runner.ts';

const { values } = parseArgs({
  options: {
    suite: { type: 'string', default: 'act' },
    rules: { type: 'string' },
    limit: { type: 'string' },
    concurrency: { type: 'string', default: '2' },
    timeout: { type: 'string', default: '15000' },
    'scan-timeout': { type: 'string', default: '60000' },
    engines: { type: 'string' },
    'add-engines': { type: 'string' },
    json: { type: 'string' },
    baseline: { type: 'string' },
    'save-scans': { type: 'string' },
    resume: { type: 'boolean', default: false },
    replay: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
  strict: true,
});

const list = (s?: string) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);
const suites = values.suite === 'all' ? ['act', 'gds', 'ipython'] : [values.suite!];
for (const s of suites) if (!['act', 'gds', 'ipython'].includes(s)) throw new Error(`unknown suite ${s} (act | gds | ipython | all)`);

const { engines, actMap, declaredBy } = await loadEngines({ only: list(values.engines), extraModules: list(values['add-engines']) });
const axe = axeCoreRules();
if (values.resume && !values['save-scans']) throw new Error('--resume needs --save-scans FILE');
const replay = values.replay ? readSavedScans(values.replay) : undefined;
/** An earlier run's figures (--json), for the per-criterion "before → after". */
const baseline = values.baseline
  ? (JSON.parse(readFileSync(values.baseline, 'utf8')) as { act?: { byCriterion?: ActReport['byCriterion'] }; gds?: { byCriterion?: GdsReport['byCriterion'] } })
  : undefined;
const engineIds = replay?.engines ?? engines.map((e) => e.id);
const concurrency = Number(values.concurrency);
console.log(
  `accuracy harness: engines ${engineIds.join(', ')}; axe-core ${axe.version} (${axe.ids.size} rules, ${axe.actIds.length} declaring ACT rules)` +
    `${declaredBy.length ? `; ACT_RULES from ${declaredBy.join(', ')}` : ''}; ${concurrency} pages in parallel; load timeout ${values.timeout} ms, scan timeout ${values['scan-timeout']} ms`,
);

let scanner: Scanner;
if (replay) scanner = replayScanner(replay);
else {
  // axe-core's own contrast verdicts first, as the reference (see plainAxeContrast).
  const withBaseline = engines.some((e) => e.id === 'axe') ? [plainAxeContrast, ...engines] : engines;
  scanner = await createScanner({ engines: withBaseline, concurrency, pageTimeoutMs: Number(values.timeout), scanTimeoutMs: Number(values['scan-timeout']) });
  if (values['save-scans']) scanner = savingScanner(scanner, values['save-scans'], engineIds, values.resume!);
}
if (replay) console.log(`replaying ${Object.keys(replay.scans).length} saved scans from ${values.replay}`);
const out: Record<string, unknown> = {
  generatedAt: new Date().toISOString(),
  engines: engineIds,
  axeCore: axe.version,
  concurrency,
};
try {
  for (const suite of suites) {
    if (suite === 'act') out.act = await runAct({ scanner, onlyRules: list(values.rules), actMap, axeCoreIds: axe.ids, engineIds, verbose: values.verbose!, baseline: baseline?.act?.byCriterion });
    if (suite === 'gds') out.gds = await runGds({ scanner, axeCoreIds: axe.ids, engineIds, verbose: values.verbose!, baseline: baseline?.gds?.byCriterion });
    if (suite === 'ipython') out.ipython = await runIpython({ scanner, axeCoreIds: axe.ids, limit: values.limit ? Number(values.limit) : undefined, verbose: values.verbose! });
  }
} finally {
  await scanner.close();
}
if (values.json) {
  writeFileSync(values.json, JSON.stringify(out, null, 1));
  console.log(`\nfigures written to ${values.json}`);
}
