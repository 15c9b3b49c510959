// Crawls a real 400-page site through the whole pipeline (API, Temporal, worker, PostgreSQL,
// discovery, scans, enrichment, finalization), once as a trusted loopback target and once with
// the egress proxy in the path (ALLOWED_PRIVATE_HOSTS, as for public targets), and, in the same
// run on the same Chromium and concurrency, two raw axe loops over the same pages (no Temporal,
// no database, no enrichment): a fresh context per page, and one tab per slot navigated from
// page to page with axe run inside the page. Then the service's own page scan on the same pages
// without Temporal, database or enrichment (one tab per slot, as the worker has), once with every
// engine and once with axe alone, to split the gap between the pipeline and the raw loop into the
// orchestration around a scan, the scan's own work on axe, and the nine other engines. The
// pipeline (loopback) and the service scan each run twice, with interaction states off (as before
// issue 30: SCAN_STATES_MAX=0) and on (the defaults), side by side; the pipeline also once as before
// issue 30 (states and pictures off). Prints pages per minute for
// each and the pipeline's ratio to the faster raw loop. Asserts nothing.
//   node bench/crawl.bench.ts [maxPages=1000] [--states-only | --orchestration-only]
// `--states-only` runs just the states comparison (the two loopback pipelines and the two service
// scans), for a machine where the whole bench would take too long; `--orchestration-only` just
// the pipeline (states off) against the same scan without Temporal or database.
// Each run prints where its CPU went (Chromium, worker, API, Temporal, PostgreSQL).
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser } from 'playwright';
import { CHROMIUM_ARGS, resolveChromiumPath } from '../src/audit/session/browser-provider.ts';
import { DEFAULT_ENGINES, type ScanEngine } from '../src/audit/engines/index.ts';
import { openTab } from '../src/audit/session/page-session.ts';
import { scanUrl } from '../src/audit/scan-url.ts';
import { loadConfig } from '../src/config.ts';
import { createTargetPolicy } from '../src/security/target-policy.ts';
import { AXE_WCAG_TAGS } from '../src/shared/wcag.ts';
import { cpuBetween, cpuSnapshot, formatCpu, startStack } from './stack.ts';
import { startStaticServer } from '../test/support/static-server.ts';

const args = process.argv.slice(2);
const statesOnly = args.includes('--states-only');
const orchestrationOnly = args.includes('--orchestration-only');
const maxPages = Number(args.find((a) => !a.startsWith('--')) ?? 1000);
/** The interaction states of a worker started with this environment (the defaults unless SCAN_STATES_* are set). */
const defaultStates = loadConfig({ SCAN_STATES_MAX: process.env.SCAN_STATES_MAX, SCAN_STATES_BUDGET_MS: process.env.SCAN_STATES_BUDGET_MS }).scanStates;
const STATES_OFF = { SCAN_STATES_MAX: '0' };
const concurrency = Number(process.env.PAGE_SCAN_CONCURRENCY ?? 3);
const corpus = path.resolve('..', 'shared', 'corpora', 'ipython-docs', 'site');
const { origin, close: closeCorpus } = await startStaticServer({}, { root: corpus, rootRedirect: '/3/index.html' });
const host = new URL(origin).host;

interface PipelineRun {
  rate: number;
  urls: string[];
}

/** One crawl from POST to its end through `npm start`'s whole stack. */
async function pipeline(label: string, env: Record<string, string>): Promise<PipelineRun> {
  const stack = await startStack(`bench-crawl-${label}`, { MAX_CRAWL_PAGES: String(Math.max(maxPages, 1000)), PAGE_SCAN_CONCURRENCY: String(concurrency), ...env });
  const call = stack.call;
  try {
    const site = await call('/api/sites', { method: 'POST', body: JSON.stringify({ url: `${origin}/` }) });
    const cpu0 = cpuSnapshot();
    const t0 = performance.now();
    const { crawlId } = await call(`/api/sites/${site.id}/crawl`, { method: 'POST', body: JSON.stringify({ maxPages }) });
    let crawl: any;
    let firstScanAt: number | undefined;
    for (;;) {
      crawl = await call(`/api/sites/${site.id}/crawls/${crawlId}`);
      if (firstScanAt === undefined && crawl.scannedPages > 0) firstScanAt = performance.now();
      if (!['queued', 'running'].includes(crawl.status)) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuBetween(cpu0, cpuSnapshot());
    const urls: string[] = [];
    for (let offset = 0; offset < crawl.totalPages; offset += 100) {
      const page = await call(`/api/sites/${site.id}/pages?limit=100&offset=${offset}`);
      urls.push(...page.data.filter((p: any) => p.lastScannedAt !== null).map((p: any) => p.url));
    }
    const issues = await call(`/api/sites/${site.id}/issues?limit=1`);
    const rate = crawl.scannedPages / (seconds / 60);
    console.log(`pipeline (${label}): ${crawl.status}, ${crawl.totalPages} pages found, ${crawl.scannedPages} scanned, ${crawl.failedPages} failed, ${crawl.brokenLinks} broken links, ${issues.pagination.total} open issues, score ${crawl.overallScore}`);
    console.log(`pipeline (${label}): ${seconds.toFixed(1)} s from POST to ${crawl.status}; first page scanned after ${((firstScanAt! - t0) / 1000).toFixed(1)} s; ${rate.toFixed(1)} pages/min`);
    console.log(`pipeline (${label}): ${formatCpu(cpu, crawl.scannedPages)}`);
    return { rate, urls };
  } finally {
    await stack.stop();
  }
}

/** A raw loop over `urls` at `concurrency`: `scan` gets each slot's browser and the URL. */
async function rawLoop(label: string, urls: string[], slot: (browser: Browser) => Promise<{ scan(url: string): Promise<void>; close(): Promise<void> }>): Promise<number> {
  const browser = await chromium.launch({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH), args: CHROMIUM_ARGS });
  const queue = [...urls];
  const cpu0 = cpuSnapshot();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const s = await slot(browser);
      for (let url = queue.shift(); url; url = queue.shift()) {
        await s.scan(url).catch((err) => console.error(`${label}: ${url}: ${String(err).split('\n')[0]}`));
      }
      await s.close();
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuBetween(cpu0, cpuSnapshot());
  await browser.close();
  const rate = urls.length / (seconds / 60);
  console.log(`${label}: ${urls.length} pages in ${seconds.toFixed(1)} s; ${rate.toFixed(1)} pages/min (${concurrency} slots); ${formatCpu(cpu, urls.length)}`);
  return rate;
}

// The worker's page scan with nothing around it (one tab per slot), states off or on.
const policy = createTargetPolicy({ allowPrivate: true });
/** Per page, the milliseconds its states took and its whole scan took (service scans with states on). */
const stateTimes: Array<{ states: number; page: number }> = [];
const serviceScan = (engines: readonly ScanEngine[], states = { maxStates: 0, budgetMs: 0 }) => async (browser: Browser) => {
  const tab = await openTab({ browser, policy, pageLoadTimeoutMs: 30_000 });
  return {
    async scan(url: string) {
      const t0 = performance.now();
      const r = await scanUrl(url, { tab, policy, pageLoadTimeoutMs: 30_000, engines, states });
      if (r.kind !== 'scanned') throw new Error(r.error.code);
      const run = r.engines.find((e) => e.engine === 'states');
      if (run) stateTimes.push({ states: run.ms, page: performance.now() - t0 });
    },
    close: () => tab.close(),
  };
};
if (orchestrationOnly) {
  // Just the pipeline against the same scan without Temporal, database or enrichment, states off.
  const run = await pipeline('loopback, states off', { ALLOW_PRIVATE_TARGETS: 'true', ...STATES_OFF });
  if (args.includes('--no-bare')) process.exit(0);
  const bare = await rawLoop('service scan, every engine, states off, no Temporal or database', run.urls, serviceScan(DEFAULT_ENGINES));
  await closeCorpus();
  console.log(`pipeline/service scan (orchestration, database, enrichment): ${(run.rate / bare).toFixed(2)} (${run.urls.length} pages, ${concurrency} slots)`);
  process.exit(0);
}

// What a crawl did before issue 30 (no interaction states, no pictures; rendered discovery has no
// switch, and on this server-rendered site it adds no page), then states off, then everything on.
const before30 = await pipeline('loopback, as before issue 30 (states and pictures off)', { ALLOW_PRIVATE_TARGETS: 'true', ...STATES_OFF, SCREENSHOTS: 'off' });
const direct = await pipeline('loopback, states off', { ALLOW_PRIVATE_TARGETS: 'true', ...STATES_OFF });
const withStates = await pipeline(`loopback, states on (${defaultStates.maxStates} in ${defaultStates.budgetMs} ms)`, { ALLOW_PRIVATE_TARGETS: 'true' });
const scanAll = await rawLoop('service scan, every engine, states off, no Temporal or database', direct.urls, serviceScan(DEFAULT_ENGINES));
const scanStates = await rawLoop('service scan, every engine, states on, no Temporal or database', direct.urls, serviceScan(DEFAULT_ENGINES, defaultStates));
const statesLine = () =>
  `before issue 30 -> now (states, pictures, rendered links on): pipeline ${before30.rate.toFixed(1)} -> ${withStates.rate.toFixed(1)} pages/min (${pct(withStates.rate, before30.rate)}); ` +
  `states off/on: pipeline ${direct.rate.toFixed(1)} -> ${withStates.rate.toFixed(1)} pages/min (${pct(withStates.rate, direct.rate)}), ` +
  `service scan ${scanAll.toFixed(1)} -> ${scanStates.toFixed(1)} pages/min (${pct(scanStates, scanAll)}); ${direct.urls.length} pages, ${concurrency} slots; ` +
  // The share of each page's own time, which other load on the machine moves far less than the rates.
  `the states took ${share()} of the service scan's page time (median ${median(stateTimes.map((t) => t.states))} ms a page)`;
const share = () => `${((stateTimes.reduce((a, t) => a + t.states, 0) / stateTimes.reduce((a, t) => a + t.page, 0)) * 100).toFixed(1)}%`;
if (statesOnly) {
  await closeCorpus();
  console.log(statesLine());
  process.exit(0);
}
const proxied = await pipeline('egress-proxy, states on', { ALLOW_PRIVATE_TARGETS: 'false', ALLOWED_PRIVATE_HOSTS: host });

// axe's own default: a fresh context per page, AxeBuilder's analyze() (which opens a page of its own to finish the run).
const fresh = await rawLoop('raw axe, fresh context per page', direct.urls, async (browser) => ({
  async scan(url) {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
      await new AxeBuilder({ page }).withTags([...AXE_WCAG_TAGS]).analyze();
    } finally {
      await context.close();
    }
  },
  async close() {},
}));
// The fastest plain loop we know: one tab per slot, navigated from page to page, axe run inside the page.
const reuse = await rawLoop('raw axe, one tab per slot, axe in the page', direct.urls, async (browser) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  return {
    async scan(url) {
      await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
      await new AxeBuilder({ page }).withTags([...AXE_WCAG_TAGS]).setLegacyMode(true).analyze();
    },
    close: () => context.close(),
  };
});
// The worker's page scan (scanUrl in one tab per slot: clean-up, load, settle, the engines) with
// nothing around it (serviceScan above).
const scanAxe = await rawLoop('service scan, axe engine only, no Temporal or database', direct.urls, serviceScan(DEFAULT_ENGINES.filter((e) => e.id === 'axe')));
await closeCorpus();
const fastest = Math.max(fresh, reuse);
console.log(statesLine());
// Issue 42's three legs, every check on (interaction states included) wherever both sides can have it.
console.log(`ratio bare scan/axe-only scan: ${(scanStates / scanAxe).toFixed(2)} (every engine, states on, against the axe engine alone; same scan path, no Temporal or database)`);
console.log(`ratio pipeline/bare scan: ${(withStates.rate / scanStates).toFixed(2)} (states on; states off ${(direct.rate / scanAll).toFixed(2)})`);
console.log(`ratio pipeline/fastest raw loop: loopback ${(withStates.rate / fastest).toFixed(2)}, egress proxy ${(proxied.rate / fastest).toFixed(2)}`);
console.log(`ratio pipeline/fastest raw loop, states off: loopback ${(direct.rate / fastest).toFixed(2)}`);
console.log(
  `where the gap is: pipeline/service scan (orchestration, database, enrichment) ${(direct.rate / scanAll).toFixed(2)}; ` +
    `service scan every engine/axe only (the nine other engines) ${(scanAll / scanAxe).toFixed(2)}; service scan axe only/raw tab-reuse loop ${(scanAxe / reuse).toFixed(2)}`,
);
console.log(
  `summary: pipeline ${direct.rate.toFixed(1)} pages/min (states off), ${withStates.rate.toFixed(1)} (states on), with egress proxy ${proxied.rate.toFixed(1)}, raw fresh-context ${fresh.toFixed(1)}, raw tab-reuse ${reuse.toFixed(1)}, ` +
    `service scan ${scanAll.toFixed(1)} (states off), ${scanStates.toFixed(1)} (states on), service scan axe only ${scanAxe.toFixed(1)} (${concurrency} slots, ${direct.urls.length} pages)`,
);

/** `now` against `before`, as a signed percentage. */
function pct(now: number, before: number): string {
  const d = ((now - before) / before) * 100;
  return `${d >= 0 ? '+' : ''}${d.toFixed(1)}%`;
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0);
}
