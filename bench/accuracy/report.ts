// Plain-text tables and shared figures for the accuracy suites.
import { meanMedian, type CriterionCount, type Goal } from './scoring.ts';
import type { PageScan } from './runner.ts';

export function table(headers: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>, align?: string): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  // `align`: one letter per column, l or r (default: numbers right, text left).
  const right = (i: number, v: string) => (align ? align[i] === 'r' : /^[-\d.%/ ]+$/.test(v) && v.trim() !== '');
  const line = (r: readonly string[]) =>
    r
      .map((v, i) => (right(i, v) ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/** Per WCAG criterion, each view's flagged/confirmed count; with a baseline (an earlier --json), `before → after`. */
export function printByCriterion(
  title: string,
  rows: ReadonlyArray<{ criterion: string; failed?: number; views: Record<string, CriterionCount> }>,
  baseline?: ReadonlyArray<{ criterion: string; failed?: number; views: Record<string, CriterionCount> }>,
): void {
  const views = [...new Set(rows.flatMap((r) => Object.keys(r.views)))];
  const before = new Map((baseline ?? []).map((r) => [r.criterion, r]));
  const criteria = [...new Set([...rows.map((r) => r.criterion), ...before.keys()])].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const fmt = (c?: CriterionCount) => (c ? `${c.flagged}/${c.confirmed}` : '-');
  const withFailed = rows.some((r) => r.failed !== undefined);
  console.log(`\n${title}: flagged/confirmed per view${baseline ? ', before → after (before: --baseline)' : ''}`);
  console.log(
    table(
      ['criterion', ...(withFailed ? ['failed'] : []), ...views],
      criteria.map((c) => {
        const now = rows.find((r) => r.criterion === c);
        const was = before.get(c);
        return [
          c,
          ...(withFailed ? [String(now?.failed ?? was?.failed ?? 0)] : []),
          ...views.map((v) => (baseline ? `${fmt(was?.views[v])} → ${fmt(now?.views[v])}` : fmt(now?.views[v]))),
        ];
      }),
      'l' + (withFailed ? 'r' : '') + 'r'.repeat(views.length),
    ),
  );
}

export function printGoals(title: string, goals: readonly Goal[]): void {
  console.log(`\n${title}`);
  console.log(table(['goal', 'value', 'target', 'result'], goals.map((g) => [g.name, g.value, g.target, g.pass === null ? 'n/a' : g.pass ? 'PASS' : 'FAIL'])));
}

export interface EngineTiming {
  engine: string;
  pages: number;
  meanMs: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  errors: number;
}

/** Mean / median ms per page per engine, plus the whole scan (load, settle, every engine). */
export function engineTimings(scans: readonly PageScan[]): EngineTiming[] {
  const per = new Map<string, { ms: number[]; errors: number }>();
  for (const s of scans) {
    for (const e of s.engines) {
      const t = per.get(e.engine) ?? { ms: [], errors: 0 };
      t.ms.push(e.ms);
      if (e.error) t.errors++;
      per.set(e.engine, t);
    }
  }
  const out: EngineTiming[] = [...per].map(([engine, t]) => {
    const m = meanMedian(t.ms);
    return { engine, pages: m.n, meanMs: m.mean, medianMs: m.median, p95Ms: m.p95, maxMs: m.max, errors: t.errors };
  });
  const whole = meanMedian(scans.filter((s) => !s.error).map((s) => s.ms));
  out.push({ engine: '(whole scan)', pages: whole.n, meanMs: whole.mean, medianMs: whole.median, p95Ms: whole.p95, maxMs: whole.max, errors: scans.filter((s) => s.error).length });
  return out;
}

export function printTimings(timings: readonly EngineTiming[]): void {
  console.log('\nms per page per engine (engine errors: the engine threw, the scan went on; whole scan errors: page errors and timeouts)');
  console.log(table(['engine', 'pages', 'mean', 'median', 'p95', 'max', 'errors'], timings.map((t) => [t.engine, t.pages, t.meanMs, t.medianMs, t.p95Ms, t.maxMs, t.errors])));
}

/** Engine errors, grouped by engine and message, so a broken engine shows up once. */
export function printEngineErrors(scans: readonly PageScan[], limit = 10): void {
  const byMsg = new Map<string, string[]>();
  for (const s of scans) for (const e of s.engines) if (e.error) byMsg.set(`${e.engine}: ${e.error.slice(0, 140)}`, [...(byMsg.get(`${e.engine}: ${e.error.slice(0, 140)}`) ?? []), s.url]);
  if (!byMsg.size) return;
  console.log('\nengine errors (engine: message, pages, first page)');
  for (const [msg, urls] of [...byMsg].slice(0, limit)) console.log(`  ${msg} [${urls.length}] ${new URL(urls[0]!).pathname}`);
}

export function shorten(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}
