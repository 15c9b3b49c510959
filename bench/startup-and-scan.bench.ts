// Measures what a user feels first: seconds from `npm start` to ready (first start with an empty
// data folder, then a second start), and seconds from POST /api/scans to `completed` for a simple
// local page. Prints its figures; asserts nothing.
//   node bench/startup-and-scan.bench.ts [scans=10]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStack } from './stack.ts';

const scans = Number(process.argv[2] ?? 10);
const page = `<!doctype html><html lang="en"><head><title>Simple page</title></head><body><main><h1>Simple page</h1>
<p>Some text and <a href="/about">about this site</a>.</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10">
<label for="q">Search</label><input id="q"><button>Search</button></main></body></html>`;
const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;

const first = await startStack('bench');
await first.stop();
const stack = await startStack('bench', {}, { fresh: false });
try {
  const times: number[] = [];
  for (let i = 0; i < scans; i++) {
    const s0 = performance.now();
    const { id } = await stack.call('/api/scans', { method: 'POST', body: JSON.stringify({ url: siteUrl }) });
    for (;;) {
      const scan = await stack.call(`/api/scans/${id}`);
      if (!['queued', 'running'].includes(scan.status)) {
        if (scan.status !== 'completed') throw new Error(`scan ended ${scan.status}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    times.push((performance.now() - s0) / 1000);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(`npm start to ready: first start ${first.readySeconds.toFixed(1)} s (empty data folder: PostgreSQL initdb), second start ${stack.readySeconds.toFixed(1)} s`);
  console.log(`POST /api/scans to completed, simple local page, ${scans} scans one after another: median ${median.toFixed(2)} s, min ${sorted[0]!.toFixed(2)} s, max ${sorted.at(-1)!.toFixed(2)} s (first includes Chromium start)`);
} finally {
  await stack.stop();
  site.close();
}
