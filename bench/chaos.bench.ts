// Chaos benchmark (issue 14, paced in issue 32): `npm start` crawls a generated 300-page site on
// loopback while the worker process is SIGKILLed (10 times; `npm start` restarts it) and
// PostgreSQL is stopped and started again once. Then it checks and prints: every announced fault
// happened before the crawl ended, the crawl completed, every page has exactly one scan in the
// crawl, no issue fingerprint twice, the counters agree with the rows, and no activity ran past its
// start-to-close timeout.
//
// Faults are paced by pages scanned, not by the clock: fault k of n comes once k/(n+1) of the
// pages are scanned (PostgreSQL's restart in the middle). A killed worker must have run 35 s
// before the next kill (npm start's supervisor gives up on workers that die young), so on a fast
// machine the crawl could end before its faults: the site then slows its pages down (each page's
// image answers later, up to 7.5 s, while the pages left at the rate measured would not outlast the
// faults left; the documents stay fast, so no page fails for it), and the verdict fails if a fault
// still did not happen.
//
//   node bench/chaos.bench.ts [--pages 300] [--kills 10] [--seed 1]
//
// Asserts nothing; exits 1 when an invariant does not hold, so a run can be scripted.
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { createDb } from '../src/db/database.ts';
import { startEmbeddedPostgres, type EmbeddedPg } from '../src/db/embedded.ts';
import { freePort } from '../temporal-dev/dev-server.ts';
import { activityTimeouts, crawlInvariants } from '../test/support/crawl-invariants.ts';
import { findProcess, startStack } from './stack.ts';

const { values } = parseArgs({
  options: { pages: { type: 'string', default: '300' }, kills: { type: 'string', default: '10' }, seed: { type: 'string', default: '1' } },
});
const PAGES = Number(values.pages);
const KILLS = Number(values.kills);
let seed = Number(values.seed);
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
/** Seconds a process has been running (Linux /proc). */
function uptimeSeconds(pid: number): number {
  const ticks = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19]);
  return Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) - ticks / 100;
}
const log = (m: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${m}`);

/** Milliseconds added to each page's image: raised when the crawl would end before its faults (at most MAX_PAGE_DELAY_MS, below the scan's 10 s wait for a page's load). */
let pageDelayMs = 0;
const MAX_PAGE_DELAY_MS = 7_500;

/** 300 pages: an index of sections, each section listing its pages; every page has one barrier. */
function startSite(): Promise<{ origin: string; close(): void }> {
  const perSection = 20;
  const sections = Math.ceil((PAGES - 1) / (perSection + 1));
  const page = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}<img src="/pixel.gif" width="10" height="10"></main></body></html>`;
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const send = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    // The image, not the document, is what slows a page: a scan waits for it (up to its 10 s
    // load wait) without failing, and discovery never fetches it.
    if (u.pathname === '/pixel.gif') return void setTimeout(() => res.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64')), 300 + pageDelayMs);
    if (u.pathname === '/') return send(page('Chaos site', `<ul>${Array.from({ length: sections }, (_, s) => `<li><a href="/s/${s}">Section ${s}</a></li>`).join('')}</ul>`));
    let m = /^\/s\/(\d+)$/.exec(u.pathname);
    if (m) return send(page(`Section ${m[1]}`, `<ul>${Array.from({ length: perSection }, (_, i) => `<li><a href="/s/${m![1]}/p/${i}">Page ${i} of section ${m![1]}</a></li>`).join('')}</ul>`));
    m = /^\/s\/(\d+)\/p\/(\d+)$/.exec(u.pathname);
    if (m) return send(page(`Page ${m[2]} of section ${m[1]}`, `<p>Text of page ${m[2]}.</p>`));
    res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })),
  );
}

const pgPort = await freePort();
const pgDir = path.resolve('.data', 'chaos-pg');
// A fresh database each run: a crawl left by an interrupted run must not get in the way.
rmSync(pgDir, { recursive: true, force: true });
const startPg = () => startEmbeddedPostgres({ dataDir: pgDir, port: pgPort, database: 'chaos' });
let pg: EmbeddedPg = await startPg();
const site = await startSite();
const stack = await startStack('chaos', { DATABASE_URL: pg.url, LOG_LEVEL: 'error' });
const t0 = performance.now();
const worker = () => findProcess('workers/worker.ts', `PORT=${new URL(stack.api).port}`);
let exitCode = 1;
try {
  const siteRow = await stack.call('/api/sites', { method: 'POST', body: JSON.stringify({ url: `${site.origin}/` }) });
  const { crawlId } = await stack.call(`/api/sites/${siteRow.id}/crawl`, { method: 'POST', body: JSON.stringify({ maxPages: PAGES }) });
  log(`crawl ${crawlId} of ${PAGES} pages started`);
  const crawl = () => stack.call(`/api/sites/${siteRow.id}/crawls/${crawlId}`).catch(() => undefined);
  const running = (c: any) => !c || ['queued', 'running'].includes(c.status);

  const FAULTS = KILLS + 1;
  /** The fault after which PostgreSQL is restarted instead of a worker killed: the middle one. */
  const PG_FAULT = Math.floor(FAULTS / 2);
  /** Seconds a fault needs at least: a kill waits for the restarted worker to have run 35 s. */
  const SECONDS_PER_FAULT = 45;
  let kills = 0;
  let pgRestarted = false;
  const rate: Array<{ t: number; scanned: number }> = [];
  let nextKillAfter = 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, 2000));
    const c = await crawl();
    if (!running(c)) break;
    const done = kills + (pgRestarted ? 1 : 0);
    if (done >= FAULTS) continue;
    const scanned = Number(c?.scannedPages ?? 0);
    const total = Math.max(Number(c?.totalPages ?? 0), PAGES);
    // Pace the site to the faults: pages left at the current rate must outlast the faults left.
    const now = performance.now() / 1000;
    rate.push({ t: now, scanned });
    while (rate.length > 2 && now - rate[0]!.t > 30) rate.shift();
    const perSecond = rate.length > 1 ? (scanned - rate[0]!.scanned) / Math.max(1, now - rate[0]!.t) : 0;
    const secondsLeft = perSecond > 0 ? (total - scanned) / perSecond : Infinity;
    const needed = (FAULTS - done) * SECONDS_PER_FAULT * 1.3;
    if (secondsLeft < needed) pageDelayMs = Math.min(MAX_PAGE_DELAY_MS, Math.round(pageDelayMs * 1.3 + 200));
    else if (secondsLeft > needed * 2 && pageDelayMs > 0) pageDelayMs = Math.round(pageDelayMs * 0.8);
    // Fault k of n comes once k/(n+1) of the pages are scanned.
    if (scanned < Math.ceil(((done + 1) * PAGES) / (FAULTS + 1)) || now < nextKillAfter) continue;
    if (done === PG_FAULT && !pgRestarted) {
      log(`restarting PostgreSQL (scanned ${scanned}, page delay ${pageDelayMs} ms)`);
      await pg.stop();
      await new Promise((r) => setTimeout(r, 2000));
      pg = await startPg();
      pgRestarted = true;
      continue;
    }
    const pid = worker();
    if (pid === undefined) continue; // being restarted
    // A worker killed again within 30 s of starting counts as "dying young" for npm start's
    // supervisor, which gives up after 5 in a row (an out-of-memory loop): kill only workers
    // that have run longer, at a random moment after that.
    if (uptimeSeconds(pid) < 35) continue;
    process.kill(pid, 'SIGKILL');
    kills++;
    nextKillAfter = now + random() * 5;
    log(`kill ${kills}: SIGKILL worker ${pid} (scanned ${scanned} of ${c?.totalPages ?? '?'}, page delay ${pageDelayMs} ms)`);
  }
  let c: any;
  for (;;) {
    c = await crawl();
    if (!running(c)) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const seconds = (performance.now() - t0) / 1000;
  const db = createDb(pg.url, { max: 2 });
  const inv = await crawlInvariants(db, crawlId);
  await db.destroy();
  const connection = await Connection.connect({ address: stack.temporalAddress });
  const timeouts = await activityTimeouts(new Client({ connection }), crawlId);
  await connection.close();
  const ranPast = Object.entries(timeouts.byActivity).filter(([k]) => /^(scanCrawlPage|enrichCrawlPage|discoverPages):START_TO_CLOSE$/.test(k));
  const problems = [
    ...(kills < KILLS ? [`only ${kills} of ${KILLS} announced worker kills happened before the crawl ended`] : []),
    ...(!pgRestarted ? ['the announced PostgreSQL restart did not happen before the crawl ended'] : []),
    ...inv.problems,
    ...(timeouts.workflows === 0 ? ['no workflow of the crawl found in Temporal'] : []),
    ...ranPast.map(([k, n]) => `${n} x ${k} (ran past its limit)`),
  ];
  console.log(
    [
      '',
      `chaos: ${PAGES}-page site, ${kills} of ${KILLS} worker kills (SIGKILL), PostgreSQL restarted ${pgRestarted ? 'once' : 'never'} (of once), paced by pages scanned, site page delay at the end ${pageDelayMs} ms, ${seconds.toFixed(0)} s`,
      `  crawl            ${inv.status}, totalPages ${inv.totalPages}, scannedPages ${inv.scannedPages}, enrichedPages ${inv.enrichedPages}, failedPages ${inv.failedPages}`,
      `  rows             ${inv.rows.pages} pages, ${inv.rows.scans} scans, ${inv.rows.scanned} scanned, ${inv.rows.enriched} enriched, ${inv.rows.failed} failed`,
      `  scans per page   ${inv.rows.pagesWithSeveralScans} pages with more than one, ${inv.rows.pagesWithoutScan} without`,
      `  duplicates       ${inv.duplicateIssueFingerprints} issue fingerprints, ${inv.duplicateFindingFingerprints} finding fingerprints`,
      `  timeouts         ${Object.entries(timeouts.byActivity).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'} in ${timeouts.workflows} workflow runs (heartbeat timeouts are how a killed worker is noticed; a workflow-queue activity without heartbeat is noticed by its 2-minute start-to-close)`,
      `  verdict          ${problems.length ? `FAIL: ${problems.join('; ')}` : 'PASS: every invariant holds'}`,
      '',
    ].join('\n'),
  );
  exitCode = problems.length ? 1 : 0;
} finally {
  await stack.stop();
  await pg.stop();
  site.close();
}
process.exit(exitCode);
