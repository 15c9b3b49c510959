// Report exports at scale: seeds a crawl with 50,000 issues on 2,000 pages (and a previous crawl,
// so New and Fixed are filled) into the stack's PostgreSQL, then downloads the PDF and the Excel
// workbook through the API, each while /healthz is asked every 50 ms. Prints seconds, bytes, the
// API process's RSS growth and the /healthz latencies. Asserts nothing.
//   node bench/reports.bench.ts [pages=2000] [issuesPerPage=25]
import { createDb } from '../src/db/database.ts';
import { seedCrawlReport } from '../test/support/seed-report.ts';
import { rssMb, startStack } from './stack.ts';

const pages = Number(process.argv[2] ?? 2000);
const perPage = Number(process.argv[3] ?? 25);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? Number.NaN;

const stack = await startStack('bench-reports');
const db = createDb(stack.databaseUrl);
try {
  const s0 = performance.now();
  const seeded = await seedCrawlReport(db, { pages, issuesPerPage: perPage, fixedIssues: 500 });
  console.log(
    `seeded ${seeded.issues} issues on ${seeded.pages} pages (${seeded.newIssues} new, ${seeded.fixedIssues} fixed) in ${((performance.now() - s0) / 1000).toFixed(1)} s`,
  );
  const pid = stack.apiPid();
  if (!pid) throw new Error('cannot find the API process');

  for (const format of ['pdf', 'excel'] as const) {
    const before = rssMb(pid);
    let peak = before;
    let done = false;
    const health: number[] = [];
    const watch = (async () => {
      while (!done) {
        peak = Math.max(peak, rssMb(pid));
        const h0 = performance.now();
        await fetch(`${stack.api}/healthz`).then((r) => r.arrayBuffer());
        health.push(performance.now() - h0);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const t0 = performance.now();
    const res = await fetch(`${stack.api}/api/sites/${seeded.siteId}/crawls/${seeded.crawlId}/export?format=${format}`);
    if (!res.ok) throw new Error(`${format}: ${res.status} ${await res.text()}`);
    let bytes = 0;
    let firstByte = Number.NaN;
    const reader = res.body!.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      if (bytes === 0) firstByte = (performance.now() - t0) / 1000;
      bytes += r.value.byteLength;
    }
    const seconds = (performance.now() - t0) / 1000;
    done = true;
    await watch;
    console.log(
      `${format.padEnd(5)} ${seconds.toFixed(1)} s (first byte ${firstByte.toFixed(1)} s), ${(bytes / 1024 / 1024).toFixed(1)} MB, ` +
        `API RSS ${before.toFixed(0)} -> peak ${peak.toFixed(0)} MB (growth ${(peak - before).toFixed(0)} MB); ` +
        `/healthz while exporting: ${health.length} requests, p50 ${quantile(health, 0.5).toFixed(1)} ms, p99 ${quantile(health, 0.99).toFixed(1)} ms, max ${Math.max(...health).toFixed(1)} ms`,
    );
  }
} finally {
  await db.destroy();
  await stack.stop();
}
