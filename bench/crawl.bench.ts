// Crawls a real 400-page site through the whole pipeline (API, Temporal, worker, PostgreSQL,
// discovery, scans, enrichment, finalization) and, in the same run on the same Chromium and
// concurrency, a raw axe baseline over the same pages (no Temporal, no database, no enrichment).
// Prints pages per minute for both and their ratio. Asserts nothing.
//   node bench/crawl.bench.ts [maxPages=1000]
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, resolveChromiumPath } from '../src/activities/browser/browser-provider.ts';
import { AXE_WCAG_TAGS } from '../src/shared/wcag.ts';
import { startStack } from './stack.ts';
import { serveFolder } from './static-server.ts';

const maxPages = Number(process.argv[2] ?? 1000);
const concurrency = Number(process.env.PAGE_SCAN_CONCURRENCY ?? 3);
const corpus = path.resolve('..', 'shared', 'corpora', 'ipython-docs', 'site');
const { origin, server } = await serveFolder(corpus, { rootRedirect: '/3/index.html' });

const stack = await startStack('bench-crawl', {
  MAX_CRAWL_PAGES: String(Math.max(maxPages, 1000)),
  PAGE_SCAN_CONCURRENCY: String(concurrency),
});
const call = stack.call;

let urls: string[] = [];
let pipelineRate = 0;
try {
  const site = await call('/api/sites', { method: 'POST', body: JSON.stringify({ url: `${origin}/` }) });
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
  for (let offset = 0; offset < crawl.totalPages; offset += 100) {
    const page = await call(`/api/sites/${site.id}/pages?limit=100&offset=${offset}`);
    urls.push(...page.data.filter((p: any) => p.lastScannedAt !== null).map((p: any) => p.url));
  }
  const issues = await call(`/api/sites/${site.id}/issues?limit=1`);
  console.log(`pipeline: ${crawl.status}, ${crawl.totalPages} pages found, ${crawl.scannedPages} scanned, ${crawl.failedPages} failed, ${crawl.brokenLinks} broken links, ${issues.pagination.total} open issues, score ${crawl.overallScore}`);
  console.log(`pipeline: ${seconds.toFixed(1)} s from POST to completed; first page scanned after ${((firstScanAt! - t0) / 1000).toFixed(1)} s; ${(crawl.scannedPages / (seconds / 60)).toFixed(1)} pages/min`);
  pipelineRate = crawl.scannedPages / (seconds / 60);
} finally {
  await stack.stop();
}

// Raw baseline: the same pages, the same Chromium and concurrency, axe only.
const browser = await chromium.launch({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH), args: CHROMIUM_ARGS });
const queue = [...urls];
const t1 = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    for (let url = queue.shift(); url; url = queue.shift()) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
        await new AxeBuilder({ page }).withTags([...AXE_WCAG_TAGS]).analyze();
      } catch (err) {
        console.error(`baseline: ${url}: ${String(err).split('\n')[0]}`);
      } finally {
        await context.close();
      }
    }
  }),
);
const rawSeconds = (performance.now() - t1) / 1000;
await browser.close();
server.close();
const rawRate = urls.length / (rawSeconds / 60);
console.log(`raw axe baseline: ${urls.length} pages in ${rawSeconds.toFixed(1)} s; ${rawRate.toFixed(1)} pages/min (${concurrency} contexts)`);
console.log(`ratio pipeline/raw: ${(pipelineRate / rawRate).toFixed(2)}`);
