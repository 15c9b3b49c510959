// Where one page's time goes: scans pages of ../shared/corpora/ipython-docs/site one after another
// in one slot's tab (the production scanUrl and engines, no database, no Temporal) and prints the
// mean and p90 milliseconds of loading and of each engine. Asserts nothing.
//   node bench/profile-engines.bench.ts [pages=60] [slots=1]
//   node bench/profile-engines.bench.ts --pages=3/genindex.html,3/whatsnew/github-stats-1.0.html [--baseline=DIR] [--repeat=1]
// --pages: those corpus pages only, each timed engine by engine (one table per page). --baseline:
// the same pages also scanned by the scanUrl and engines of another checkout (e.g. the branch's
// base, `git archive` into DIR with node_modules linked), alternating page by page with this one in
// the same browser, so that a noisy machine weighs on both alike.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, resolveChromiumPath } from '../src/audit/session/browser-provider.ts';
import { openTab } from '../src/audit/session/page-session.ts';
import { DEFAULT_ENGINES } from '../src/audit/engines/index.ts';
import { scanUrl } from '../src/audit/scan-url.ts';
import { createTargetPolicy } from '../src/security/target-policy.ts';
import { pageOf } from './generated-site.ts';
import { commandLine, cpuSeconds, processTree } from '../test/support/process-tree.ts';
import { startStaticServer } from '../test/support/static-server.ts';

const flags = new Map(process.argv.slice(2).filter((a) => a.startsWith('--')).map((a) => [a.slice(2).split('=')[0]!, a.split('=').slice(1).join('=')]));
const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (flags.has('pages')) await profilePages(flags.get('pages')!.split(',').filter(Boolean), flags.get('baseline'), Number(flags.get('repeat') ?? 1));
const count = Number(positional[0] ?? 60);
const slots = Number(positional[1] ?? 1);
// ENGINES=axe,reflow runs only those (axe always first): the CPU a page costs without the others.
const only = process.env.ENGINES?.split(',');
const engines = only ? DEFAULT_ENGINES.filter((e) => e.id === 'axe' || only.includes(e.id)) : DEFAULT_ENGINES;
// SITE=generated: the small generated pages of bench:scale instead of the documentation corpus.
const generated = process.env.SITE === 'generated';
const corpus = path.resolve('..', 'shared', 'corpora', 'ipython-docs', 'site');
const { origin, server } = generated ? await serveGenerated() : await startStaticServer({}, { root: corpus, rootRedirect: '/3/index.html' });
const files = generated ? Array.from({ length: count }, (_, i) => `p/${i + 1}`) : (readdirSync(corpus, { recursive: true }) as string[]).filter((f) => f.endsWith('.html')).sort();
const step = Math.max(1, Math.floor(files.length / count));
const urls = files.filter((_, i) => i % step === 0).slice(0, count).map((f) => `${origin}/${f.split(path.sep).join('/')}`);

async function serveGenerated(): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const i = Number(/(\d+)$/.exec(req.url ?? '')?.[1] ?? 1);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pageOf(i, 1_000_000));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const browser = await chromium.launch({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH), args: [...CHROMIUM_ARGS, ...(process.env.EXTRA_ARGS?.split(' ').filter(Boolean) ?? [])] });
const policy = createTargetPolicy({ allowPrivate: true });
const times = new Map<string, number[]>();
const add = (k: string, ms: number) => (times.get(k) ?? times.set(k, []).get(k)!).push(ms);
const queue = [...urls];
// Chromium's processes, sampled while the pages run: each one's CPU seconds by its --type (the
// last reading of a process that ended counts), and how many renderers were started (one per
// slot when tabs are reused as they should be).
const cpuByPid = new Map<string, { type: string; seconds: number }>();
const sampleChromium = () => {
  // Only this process's Chromium (another stack may be running its own).
  for (const pid of processTree(process.pid)) {
    if (pid === process.pid) continue;
    const cmd = commandLine(pid);
    if (!/chrom/i.test(cmd.split(' ')[0] ?? '')) continue;
    const type = /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser';
    // CPU time only grows: a process that ends between two reads keeps its last reading.
    const seconds = Math.max(cpuByPid.get(String(pid))?.seconds ?? 0, cpuSeconds([pid]));
    cpuByPid.set(String(pid), { type, seconds });
  }
};
const watch = setInterval(sampleChromium, 100);
const cpu0 = process.cpuUsage();
const busy0 = machineBusySeconds();
const t0 = performance.now();
await Promise.all(
  Array.from({ length: slots }, async () => {
    const tab = await openTab({ browser, policy, pageLoadTimeoutMs: 30_000 });
    for (let url = queue.shift(); url; url = queue.shift()) {
      const started = performance.now();
      const r = await scanUrl(url, { tab, policy, pageLoadTimeoutMs: 30_000, engines });
      const total = performance.now() - started;
      add('total', total);
      if (r.kind !== 'scanned') {
        console.error(`${url}: ${r.error.code}`);
        continue;
      }
      let engineMs = 0;
      for (const e of r.engines) {
        add(e.engine, e.ms);
        engineMs += e.ms;
        if (e.error) console.error(`${url}: ${e.engine}: ${e.error}`);
      }
      add('load (and clean-up)', total - engineMs);
    }
    await tab.close();
  }),
);
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const busy = machineBusySeconds() - busy0;
clearInterval(watch);
sampleChromium();
const byType: Record<string, number> = {};
for (const { type, seconds } of cpuByPid.values()) byType[type] = (byType[type] ?? 0) + seconds;
const renderers = [...cpuByPid.values()].filter((p) => p.type === 'renderer').length;
await browser.close();
server.close();
/** CPU seconds the whole machine spent busy so far (/proc/stat: all but idle and iowait). */
function machineBusySeconds(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (f.reduce((a, b) => a + b, 0) - f[3]! - f[4]!) / 100;
}
const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { mean: s.reduce((a, b) => a + b, 0) / s.length, p90: s[Math.floor(s.length * 0.9)]! };
};
console.log(`engines: ${engines.map((e) => e.id).join(', ')}`);
console.log(`${urls.length} pages, ${slots} slot(s): ${seconds.toFixed(1)} s, ${(urls.length / (seconds / 60)).toFixed(1)} pages/min; this process's CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, the machine's (Chromium included) ${busy.toFixed(1)} s: ${((busy * 1000) / urls.length).toFixed(0)} ms of CPU per page`);
console.log(`renderer processes seen: ${renderers}`);
console.log(`Chromium's CPU by process type (ms per page): ${Object.entries(byType).map(([k, v]) => `${k} ${((v * 1000) / urls.length).toFixed(0)}`).join(', ')}`);
for (const [k, xs] of [...times].sort((a, b) => stat(b[1]).mean - stat(a[1]).mean)) {
  const { mean, p90 } = stat(xs);
  console.log(`${k.padEnd(22)} mean ${mean.toFixed(0).padStart(5)} ms   p90 ${p90.toFixed(0).padStart(5)} ms`);
}

/**
 * `--pages`: each page scanned `repeat` times by this checkout (and by `baseline`'s, alternating),
 * with the page's total, each engine's milliseconds and its finding count, side by side. Exits.
 */
async function profilePages(pages: string[], baseline: string | undefined, repeat: number): Promise<never> {
  const corpus = path.resolve('..', 'shared', 'corpora', 'ipython-docs', 'site');
  const { origin, server } = await startStaticServer({}, { root: corpus, rootRedirect: '/3/index.html' });
  type Scan = typeof scanUrl;
  const variants: Array<{ name: string; scan: Scan; engines: typeof DEFAULT_ENGINES }> = [{ name: 'this', scan: scanUrl, engines: DEFAULT_ENGINES }];
  if (baseline) {
    const dir = path.resolve(baseline);
    const base = (await import(path.join(dir, 'src/audit/scan-url.ts'))) as { scanUrl: Scan };
    const eng = (await import(path.join(dir, 'src/audit/engines/index.ts'))) as { DEFAULT_ENGINES: typeof DEFAULT_ENGINES };
    variants.unshift({ name: 'baseline', scan: base.scanUrl, engines: eng.DEFAULT_ENGINES });
  }
  const deadlineMs = Number(process.env.SCAN_DEADLINE_MS ?? 120_000);
  const browser = await chromium.launch({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH), args: [...CHROMIUM_ARGS] });
  const policy = createTargetPolicy({ allowPrivate: true });
  for (const page of pages) {
    const rows = new Map<string, Map<string, string[]>>();
    const cell = (row: string, col: string, v: string) => {
      const r = rows.get(row) ?? rows.set(row, new Map()).get(row)!;
      (r.get(col) ?? r.set(col, []).get(col)!).push(v);
    };
    for (let i = 0; i < repeat; i++) {
      for (const v of variants) {
        // A fresh tab per scan: neither variant inherits the other's renderer.
        const tab = await openTab({ browser, policy, pageLoadTimeoutMs: 30_000 });
        const started = performance.now();
        const r = await v.scan(`${origin}/${page}`, { tab, policy, pageLoadTimeoutMs: 30_000, engines: v.engines, deadlineMs });
        const total = performance.now() - started;
        await tab.close();
        if (r.kind !== 'scanned') {
          cell('total', v.name, `${(total / 1000).toFixed(1)} s ${r.error.code}`);
          continue;
        }
        // Engine runs of a checkout before `unfinished` existed have none: read it loosely.
        const unfinished = r.engines.filter((e) => (e as { unfinished?: string }).unfinished).map((e) => e.engine);
        cell('total', v.name, `${(total / 1000).toFixed(1)} s${unfinished.length ? ` (incomplete: ${unfinished.length})` : ''}`);
        cell('findings', v.name, String(r.findings.length));
        for (const e of r.engines) {
          const u = (e as { unfinished?: string }).unfinished;
          cell(e.engine, v.name, u === 'out_of_time' && e.ms === 0 ? 'not started' : `${e.ms} ms/${e.findings.length}${u ? ` ${u}` : e.error ? ' ERR' : ''}`);
        }
      }
    }
    console.log(`\n${page}  (ms/findings per engine; ${repeat} run(s) each, in order)`);
    for (const [row, cols] of rows) console.log(`  ${row.padEnd(20)} ${variants.map((v) => `${v.name}: ${(cols.get(v.name) ?? ['-']).join(', ')}`.padEnd(40)).join(' ')}`);
  }
  await browser.close();
  server.close();
  process.exit(0);
}
