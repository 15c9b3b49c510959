// ipython suite: the built IPython 3 docs, page by page (the *.html files under 3/, no crawler):
// colour-contrast findings of axe-core alone against the service's, and the noise overall.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { viewsOf } from './act.ts';
import { engineTimings, printEngineErrors, printGoals, printTimings, table } from './report.ts';
import type { PageScan, Scanner } from './runner.ts';
import { tallyContrast, type ContrastTally, type Goal } from './scoring.ts';
import { startStaticServer, urlPath } from '../../test/support/static-server.ts';

const SITE = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'corpora', 'ipython-docs', 'site');
const CONTRAST = '1.4.3';

export interface IpythonReport {
  pages: number;
  contrast: ContrastTally;
  /** Every finding, by view and type, and the rules with most needs_review findings. */
  overall: Record<string, { confirmed: number; needsReview: number; topNeedsReview: Array<[string, number]> }>;
  pageErrors: Array<{ url: string; error: string }>;
  goals: Goal[];
  timings: ReturnType<typeof engineTimings>;
  seconds: number;
}

function htmlFiles(dir: string, base: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...htmlFiles(full, base));
    else if (e.isFile() && e.name.endsWith('.html')) out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out;
}

export async function runIpython(opts: { scanner: Scanner; axeCoreIds: ReadonlySet<string>; limit?: number; verbose: boolean }): Promise<IpythonReport> {
  let files = htmlFiles(path.join(SITE, '3'), SITE).sort();
  if (opts.limit && opts.limit > 0) files = files.slice(0, opts.limit);
  const site = await startStaticServer({}, { root: SITE });
  const t0 = performance.now();
  let scans: PageScan[];
  try {
    scans = await opts.scanner.scanAll(files.map((f) => site.origin + urlPath(f)), 'ipython');
  } finally {
    await site.close();
  }
  const seconds = Math.round((performance.now() - t0) / 1000);
  const ok = scans.filter((s) => !s.error);
  const contrast = tallyContrast(
    ok.map((s) => {
      const v = viewsOf(s, opts.axeCoreIds);
      return {
        url: new URL(s.url).pathname,
        axe: (v['axe-core'] ?? []).filter((f) => f.ruleId === 'color-contrast'),
        service: s.findings.filter((f) => f.criterion === CONTRAST),
      };
    }),
  );
  const overall: IpythonReport['overall'] = {};
  for (const view of ['axe-core', 'engine:axe', 'service']) {
    const all = ok.flatMap((s) => viewsOf(s, opts.axeCoreIds)[view] ?? []);
    const nrByRule = new Map<string, number>();
    for (const f of all) if (f.type === 'needs_review') nrByRule.set(f.ruleId, (nrByRule.get(f.ruleId) ?? 0) + 1);
    overall[view] = {
      confirmed: all.filter((f) => f.type === 'confirmed').length,
      needsReview: all.filter((f) => f.type === 'needs_review').length,
      topNeedsReview: [...nrByRule].sort((a, b) => b[1] - a[1]).slice(0, 6),
    };
  }
  const report: IpythonReport = {
    pages: files.length,
    contrast,
    overall,
    pageErrors: scans.filter((s) => s.error).map((s) => ({ url: new URL(s.url).pathname, error: s.error! })),
    goals: [
      { name: 'needs_review contrast findings down (axe-core alone -> service)', value: `${contrast.before.needsReview} -> ${contrast.after.needsReview} (${contrast.nrReductionPct}%)`, target: '>= 90%', pass: contrast.nrReductionPct >= 90 },
      { name: 'axe confirmed contrast findings lost by the service', value: String(contrast.confirmedLost.length), target: '== 0', pass: contrast.confirmedLost.length === 0 },
    ],
    timings: engineTimings(scans),
    seconds,
  };
  printIpython(report, scans, opts.verbose);
  return report;
}

function printIpython(r: IpythonReport, scans: readonly PageScan[], verbose: boolean): void {
  const c = r.contrast;
  console.log(`\n=== ipython-docs: ${r.pages} pages (*.html under 3/), ${r.pageErrors.length} page errors; ${r.seconds} s ===`);
  console.log(`contrast (${CONTRAST}): axe-core alone (color-contrast of the axe engine run) vs service (merged findings under ${CONTRAST})`);
  console.log(
    table(
      ['', 'axe-core alone', 'service', 'change'],
      [
        ['needs_review', c.before.needsReview, c.after.needsReview, `-${c.nrReductionPct}%`],
        ['confirmed', c.before.confirmed, c.after.confirmed, c.after.confirmed - c.before.confirmed],
      ],
    ),
  );
  const by = Object.entries(c.becameConfirmedBy).map(([e, n]) => `${e} ${n}`).join(', ');
  console.log(
    `axe needs_review, matched by selector on the same page: ${c.axeNr.becameConfirmed} became confirmed${by ? ` (by ${by})` : ''}, ${c.axeNr.dropped} dropped, ${c.axeNr.stayNeedsReview} stay needs_review`,
  );
  console.log(`service contrast findings on elements axe did not report: ${c.newInService.confirmed} confirmed, ${c.newInService.needsReview} needs_review`);
  console.log(`axe confirmed contrast findings not confirmed by the service: ${c.confirmedLost.length}`);
  for (const l of c.confirmedLost.slice(0, verbose ? Infinity : 30)) console.log(`  ${l.url} ${l.selector} -> ${l.now}`);
  console.log('\nall findings (every rule)');
  console.log(
    table(
      ['view', 'confirmed', 'needs_review', 'most needs_review'],
      Object.entries(r.overall).map(([v, o]) => [v, o.confirmed, o.needsReview, o.topNeedsReview.map(([id, n]) => `${id} ${n}`).join(', ')]),
    ),
  );
  printGoals('goals', r.goals);
  if (r.pageErrors.length) {
    console.log(`\npage errors: ${r.pageErrors.length}`);
    for (const e of r.pageErrors) console.log(`  ${e.url}: ${e.error}`);
  }
  printEngineErrors(scans);
  printTimings(r.timings);
}
