// Measures what a user feels first: seconds from `npm start` to ready, and seconds from
// POST /api/scans to `completed` for a simple local page. Prints its figures; asserts nothing.
//   node bench/startup-and-scan.bench.ts [scans=10]
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { freePort } from '../temporal-dev/dev-server.ts';

const scans = Number(process.argv[2] ?? 10);
const page = `<!doctype html><html lang="en"><head><title>Simple page</title></head><body><main><h1>Simple page</h1>
<p>Some text and <a href="/about">about this site</a>.</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10">
<label for="q">Search</label><input id="q"><button>Search</button></main></body></html>`;
const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;

const port = await freePort();
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(port),
  DATA_DIR: path.resolve('.data', 'bench'),
  EMBEDDED_PG_PORT: String(await freePort()),
  TEMPORAL_DEV_PORT: String(await freePort()),
  TEMPORAL_UI_PORT: String(await freePort()),
  ALLOW_PRIVATE_TARGETS: 'true',
  SCAN_RATE_LIMIT: '0',
  LOG_LEVEL: 'warn',
};
delete env.DATABASE_URL;
delete env.TEMPORAL_ADDRESS;
const api = `http://127.0.0.1:${port}`;
const t0 = performance.now();
const child = spawn(process.execPath, [path.resolve('src/start.ts')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
const stop = async () => {
  child.kill('SIGINT');
  await new Promise((r) => child.once('exit', r));
  site.close();
};
try {
  for (;;) {
    if (await fetch(`${api}/readyz`).then((r) => r.ok, () => false)) break;
    if (child.exitCode !== null) throw new Error('npm start exited');
    await new Promise((r) => setTimeout(r, 50));
  }
  const ready = (performance.now() - t0) / 1000;
  const times: number[] = [];
  for (let i = 0; i < scans; i++) {
    const s0 = performance.now();
    const res = await fetch(`${api}/api/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: siteUrl }) });
    const { id } = (await res.json()) as { id: string };
    for (;;) {
      const scan = (await (await fetch(`${api}/api/scans/${id}`)).json()) as { status: string };
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
  console.log(`npm start to ready: ${ready.toFixed(1)} s (state under ${env.DATA_DIR}; the first run also initialises PostgreSQL)`);
  console.log(`POST /api/scans to completed, simple local page, ${scans} scans one after another: median ${median.toFixed(2)} s, min ${sorted[0]!.toFixed(2)} s, max ${sorted.at(-1)!.toFixed(2)} s (first includes Chromium start)`);
} finally {
  await stop();
}
