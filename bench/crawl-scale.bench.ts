// Scale check: one worker crawls a generated site of N pages (default 10,000) through the whole
// pipeline. Prints the time, pages per minute, how many runs the crawl workflow took
// (continue-as-new keeps each history bounded), the largest history, and the peak memory of the
// worker and API processes (RSS), of Chromium and of PostgreSQL (PSS of all their processes,
// shared pages split between them), sampled every 2 s. Asserts nothing.
//   node bench/crawl-scale.bench.ts [pages=10000]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { pageOf } from './generated-site.ts';
import { processTree } from '../test/support/process-tree.ts';
import { pssMb, rssMb, startStack } from './stack.ts';

const mb = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v)]));
const n = Number(process.argv[2] ?? 10_000);
// A binary tree of pages: /p/i links to /p/2i and /p/2i+1, so depth stays near log2(n).
const site = createServer((req, res) => {
  const m = /^\/p\/(\d+)$/.exec(new URL(req.url ?? '/', 'http://x').pathname);
  const i = req.url === '/' ? 1 : m ? Number(m[1]) : 0;
  if (i < 1 || i > n) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(pageOf(i, n));
});
await new Promise<void>((r) => site.listen(0, '127.0.0.2', r));
const origin = `http://127.0.0.2:${(site.address() as AddressInfo).port}`;

const stack = await startStack('bench-scale', { MAX_CRAWL_PAGES: String(n) });
const call = stack.call;
try {
  const s = await call('/api/sites', { method: 'POST', body: JSON.stringify({ url: `${origin}/` }) });
  const t0 = performance.now();
  const { crawlId } = await call(`/api/sites/${s.id}/crawl`, { method: 'POST', body: JSON.stringify({ maxPages: n }) });
  let crawl: any;
  let lastPrint = 0;
  const peak = { worker: 0, api: 0, chromium: 0, postgres: 0 };
  const sample = () => {
    const worker = stack.workerPid();
    const api = stack.apiPid();
    const pg = stack.postgresPid();
    if (worker) {
      peak.worker = Math.max(peak.worker, rssMb(worker) || 0);
      peak.chromium = Math.max(peak.chromium, pssMb(processTree(worker).filter((p) => p !== worker)) || 0);
    }
    if (api) peak.api = Math.max(peak.api, rssMb(api) || 0);
    if (pg) peak.postgres = Math.max(peak.postgres, pssMb(processTree(pg)) || 0);
  };
  const sampler = setInterval(sample, 2000);
  for (;;) {
    crawl = await call(`/api/sites/${s.id}/crawls/${crawlId}`);
    if (!['queued', 'running'].includes(crawl.status)) break;
    if (performance.now() - lastPrint > 60_000) {
      lastPrint = performance.now();
      console.log(`  ${((lastPrint - t0) / 60_000).toFixed(1)} min: found ${crawl.totalPages}, scanned ${crawl.scannedPages}, enriched ${crawl.enrichedPages}; peak MB so far ${JSON.stringify(mb(peak))}`);
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
  clearInterval(sampler);
  const minutes = (performance.now() - t0) / 60_000;
  const temporal = new Client({ connection: await Connection.connect({ address: stack.temporalAddress }) });
  let runs = 0;
  let longest = 0;
  for await (const wf of temporal.workflow.list({ query: `WorkflowId = "crawl-${crawlId}"` })) {
    runs++;
    longest = Math.max(longest, wf.historyLength ?? 0);
  }
  console.log(`crawl of ${n} generated pages on one worker: ${crawl.status}; found ${crawl.totalPages}, scanned ${crawl.scannedPages}, enriched ${crawl.enrichedPages}, failed ${crawl.failedPages}; new issues ${crawl.newIssues}`);
  console.log(`${minutes.toFixed(1)} min, ${(crawl.scannedPages / minutes).toFixed(0)} pages/min; crawl workflow: ${runs} runs (continue-as-new), longest history ${longest} events`);
  console.log(`peak memory: worker RSS ${peak.worker.toFixed(0)} MB, API RSS ${peak.api.toFixed(0)} MB, Chromium PSS ${peak.chromium.toFixed(0)} MB, PostgreSQL PSS ${peak.postgres.toFixed(0)} MB`);
} finally {
  await stack.stop();
  site.close();
}
