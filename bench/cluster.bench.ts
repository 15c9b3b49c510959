// Cluster benchmark (docs/cluster.md): crawls ipython-docs (402 pages) across the worker hosts of
// `npm run cluster` (Temporal's four services on PostgreSQL, each worker process in its own network
// namespace with its own Chromium), and cuts one worker host off mid-crawl: its link goes down on
// this machine's side once the announced share of the pages is scanned (paced by pages scanned,
// not the clock, so it happens on a machine of any speed) and while that host has page scans in
// flight. Then it prints the pages each worker scanned (Temporal's activity histories name the
// worker of each attempt), what became of the cut host's in-flight scans (timed out by heartbeat,
// retried on the others), and checks the crawl's invariants: every page scanned once, nothing lost,
// nothing twice, also after the cut host's link is up again and its stale work could land late.
//
//   node bench/cluster.bench.ts [--pages 402] [--workers 3] [--cut-at 0.3] [--page-scan-concurrency 2] [--keep]
//
// Uses a running cluster (`npm run cluster -- up`) and leaves it running; otherwise brings one up
// and tears it down at the end (`--keep` leaves it). Needs root. Exits 1 when the verdict fails:
// an invariant broke, or the announced cut did not happen before the crawl ended.
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { createDb } from '../src/db/database.ts';
import { activityTimeouts, crawlInvariants } from '../test/support/crawl-invariants.ts';
import { alive, clusterDown, clusterUp, readState, type ClusterInfo } from '../scripts/cluster/cluster.ts';
import { linkUp, setLink, type Host } from '../scripts/cluster/network.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '402' },
    workers: { type: 'string', default: '3' },
    'cut-at': { type: 'string', default: '0.3' },
    'page-scan-concurrency': { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
  },
});
const PAGES = Number(values.pages);
const WORKERS = Number(values.workers);
const CUT_AT = Number(values['cut-at']);
if (!(CUT_AT > 0 && CUT_AT < 1)) throw new Error('--cut-at: a share of the pages, between 0 and 1');
const log = (m: string) => console.log(`[cluster-bench ${new Date().toISOString().slice(11, 19)}] ${m}`);

const wasRunning = (readState()?.processes ?? []).some((p) => p.name.startsWith('temporal-') && alive(p));
const t0 = performance.now();
let cluster: ClusterInfo;
try {
  cluster = await clusterUp({ workers: WORKERS, pageScanConcurrency: Number(values['page-scan-concurrency']) });
} catch (err) {
  // What it started stays only on request (to read its logs in .data/cluster/logs).
  if (!wasRunning && !values.keep) await clusterDown();
  throw err;
}
log(`cluster ${wasRunning ? 'already running' : 'up'} in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${cluster.workers.map((w) => w.identity).join(', ')}`);
const byIdentity = new Map(cluster.workers.map((w) => [w.identity, w]));

async function call(p: string, init?: RequestInit): Promise<any> {
  const res = await fetch(cluster.api + p, { ...init, headers: { 'content-type': 'application/json', ...init?.headers } });
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${p}: ${res.status} ${await res.text()}`);
  return res.json();
}

interface InFlight {
  workflowId: string;
  runId: string;
  activityId: string;
  identity: string;
}

/** Page scans started and not finished, with the worker running each (from the crawl's running workflows). */
async function pageScansInFlight(client: Client, crawlId: string): Promise<InFlight[]> {
  const out: InFlight[] = [];
  for await (const wf of client.workflow.list({ query: `crawlId = "${crawlId}" AND ExecutionStatus = "Running"` })) {
    const d = await client.workflow.getHandle(wf.workflowId, wf.runId).describe();
    for (const a of d.raw.pendingActivities ?? []) {
      // state 2: PENDING_ACTIVITY_STATE_STARTED (a worker holds it).
      if (a.activityType?.name === 'scanCrawlPage' && a.state === 2 && a.lastWorkerIdentity) {
        out.push({ workflowId: wf.workflowId, runId: wf.runId, activityId: String(a.activityId), identity: a.lastWorkerIdentity });
      }
    }
  }
  return out;
}

interface ScanAttempts {
  /** Completed page-scan activities per worker identity (the attempt that completed). */
  completedBy: Map<string, number>;
  /** The last attempt of each page-scan activity: `<workflowId>/<runId>/<activityId>` -> what happened. */
  byActivity: Map<string, { pageId?: string; identity?: string; attempt: number; retriedAfter?: string; startedAt?: Date; outcome: string }>;
}

/** Every page-scan activity of the crawl from its histories: who ran its last attempt, after how many, and why it was retried. */
async function scanAttempts(client: Client, crawlId: string): Promise<ScanAttempts> {
  const completedBy = new Map<string, number>();
  const byActivity: ScanAttempts['byActivity'] = new Map();
  for await (const wf of client.workflow.list({ query: `crawlId = "${crawlId}"` })) {
    const history = await client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
    const scheduled = new Map<string, { activityId: string; pageId?: string }>();
    const started = new Map<string, { identity?: string; attempt: number; retriedAfter?: string; startedAt?: Date }>();
    for (const e of history.events ?? []) {
      const id = String(e.eventId);
      const s = e.activityTaskScheduledEventAttributes;
      if (s?.activityType?.name === 'scanCrawlPage') {
        let pageId: string | undefined;
        try {
          pageId = JSON.parse(Buffer.from(s.input?.payloads?.[0]?.data ?? []).toString('utf8')).pageId;
        } catch {
          // not JSON: leave it out
        }
        scheduled.set(id, { activityId: String(s.activityId), pageId });
      }
      const st = e.activityTaskStartedEventAttributes;
      if (st && scheduled.has(String(st.scheduledEventId))) {
        const t = st.lastFailure?.timeoutFailureInfo?.timeoutType;
        started.set(String(st.scheduledEventId), {
          identity: st.identity ?? undefined,
          attempt: st.attempt ?? 1,
          retriedAfter: t === 4 ? 'heartbeat timeout' : t ? `timeout ${t}` : st.lastFailure ? (st.lastFailure.message ?? 'failure') : undefined,
          startedAt: e.eventTime?.seconds ? new Date(Number(e.eventTime.seconds) * 1000 + Math.floor((e.eventTime.nanos ?? 0) / 1e6)) : undefined,
        });
      }
      const done = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
      if (done && scheduled.has(String(done.scheduledEventId))) {
        const sch = scheduled.get(String(done.scheduledEventId))!;
        const att = started.get(String(done.scheduledEventId));
        const outcome = e.activityTaskCompletedEventAttributes ? 'completed' : e.activityTaskFailedEventAttributes ? 'failed' : 'timed out';
        if (outcome === 'completed' && att?.identity) completedBy.set(att.identity, (completedBy.get(att.identity) ?? 0) + 1);
        byActivity.set(`${wf.workflowId}/${wf.runId}/${sch.activityId}`, { pageId: sch.pageId, attempt: att?.attempt ?? 1, outcome, ...att });
      }
    }
  }
  return { completedBy, byActivity };
}

const connection = await Connection.connect({ address: cluster.temporalAddress });
const client = new Client({ connection });
let exitCode = 1;
let cutHost: Host | undefined;
try {
  const site = await call('/api/sites', { method: 'POST', body: JSON.stringify({ url: `${cluster.site}/` }) });
  const tStart = performance.now();
  const { crawlId } = await call(`/api/sites/${site.id}/crawl`, { method: 'POST', body: JSON.stringify({ maxPages: PAGES }) });
  log(`crawl ${crawlId} of up to ${PAGES} pages started; worker host cut off once ${Math.round(CUT_AT * 100)} % of the pages are scanned`);
  const cutAfter = Math.ceil(CUT_AT * PAGES);
  let cut: { at: Date; scanned: number; worker: string; inFlight: InFlight[] } | undefined;
  let crawl: any;
  for (;;) {
    crawl = await call(`/api/sites/${site.id}/crawls/${crawlId}`);
    if (!['queued', 'running'].includes(crawl.status)) break;
    const scanned = Number(crawl.scannedPages ?? 0);
    // Against the announced size, not totalPages: that grows while discovery runs, and a share of
    // it early on would cut at the crawl's start. A site smaller than --pages fails the verdict.
    if (!cut && scanned >= cutAfter) {
      // The host with the most page scans in flight, so that the cut strands work to be retried.
      const flying = await pageScansInFlight(client, crawlId);
      const counts = new Map<string, number>();
      for (const f of flying) if (byIdentity.has(f.identity)) counts.set(f.identity, (counts.get(f.identity) ?? 0) + 1);
      const victim = [...counts].sort((a, b) => b[1] - a[1])[0];
      if (victim) {
        const w = byIdentity.get(victim[0])!;
        setLink(w.host, false);
        cutHost = w.host;
        cut = { at: new Date(), scanned, worker: w.identity, inFlight: flying.filter((f) => f.identity === w.identity) };
        log(`cut: ${w.host.veth} down, ${w.identity} off the network with ${cut.inFlight.length} page scans in flight (scanned ${scanned} of ${crawl.totalPages})`);
      }
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const seconds = (performance.now() - tStart) / 1000;
  log(`crawl ${crawl.status} after ${seconds.toFixed(0)} s`);

  const attempts = await scanAttempts(client, crawlId);
  const timeouts = await activityTimeouts(client, crawlId);
  const db = createDb(cluster.databaseUrl, { max: 2 });
  const before = await crawlInvariants(db, crawlId);
  // Why a page failed (a load timeout on a loaded machine, or something the cut did): the verdict needs it read.
  const failed = await db
    .selectFrom('crawl_pages as cp')
    .innerJoin('pages as p', 'p.id', 'cp.page_id')
    .select(['p.url', 'cp.error'])
    .where('cp.crawl_id', '=', crawlId)
    .where('cp.state', '=', 'failed')
    .execute();
  // The cut host back on the network: whatever it still held (a scan's write, a heartbeat) now
  // reaches PostgreSQL and Temporal late. Nothing of it may count twice.
  let after = before;
  if (cutHost) {
    setLink(cutHost, true);
    log(`${cutHost.veth} up again; waiting 45 s for the host's stale work to land (or be refused)`);
    await new Promise((r) => setTimeout(r, 45_000));
    after = await crawlInvariants(db, crawlId);
  }
  await db.destroy();

  const retried = (cut?.inFlight ?? []).map((f) => ({ f, a: attempts.byActivity.get(`${f.workflowId}/${f.runId}/${f.activityId}`) }));
  // A scan whose completion reached Temporal in the instant before the cut is no stranded work.
  const finishedBeforeCut = retried.filter((r) => r.a && r.a.identity === cut!.worker && r.a.attempt === 1 && r.a.outcome === 'completed');
  const retriedElsewhere = retried.filter((r) => r.a && r.a.identity !== cut!.worker && r.a.attempt > 1 && r.a.outcome === 'completed');
  const stranded = retried.length - finishedBeforeCut.length;
  const delays = retriedElsewhere.map((r) => (r.a!.startedAt ? (r.a!.startedAt.getTime() - cut!.at.getTime()) / 1000 : Number.NaN)).filter(Number.isFinite).sort((a, b) => a - b);
  const problems = [
    ...(!cut ? ['the announced cut did not happen before the crawl ended'] : []),
    ...(cut && cut.inFlight.length === 0 ? ['the cut host had no page scan in flight'] : []),
    ...(cut && stranded === 0 ? ['the cut host had no page scan in flight that its cut stranded'] : []),
    ...(cut && retriedElsewhere.length < stranded ? [`${stranded - retriedElsewhere.length} of the cut host's ${stranded} stranded page scans were not completed by another worker`] : []),
    ...before.problems.map((p) => `at the crawl's end: ${p}`),
    ...after.problems.filter((p) => !before.problems.includes(p)).map((p) => `after the link came back: ${p}`),
    ...(after.rows.scans !== before.rows.scans ? [`${after.rows.scans - before.rows.scans} page scans written after the link came back`] : []),
  ];
  const total = [...attempts.completedBy.values()].reduce((a, b) => a + b, 0);
  console.log(
    [
      '',
      `cluster: ipython-docs, up to ${PAGES} pages, ${cluster.workers.length} worker hosts (own netns, own Chromium, ${values['page-scan-concurrency']} page-scan slots each), Temporal ${cluster.temporalAddress} (4 services on PostgreSQL), ${seconds.toFixed(0)} s from POST to ${crawl.status} (${((Number(crawl.scannedPages) / seconds) * 60).toFixed(1)} pages/min)`,
      `  pages per worker  ${cluster.workers.map((w) => `${w.identity} ${attempts.completedBy.get(w.identity) ?? 0}`).join(', ')} (completed page-scan activities, ${total} in all)`,
      cut
        ? `  cut               ${cut.worker} (${cutHost?.veth} down) at ${cut.scanned} pages scanned, ${cut.inFlight.length} scans in flight (${finishedBeforeCut.length} of them finished in the instant before): ${retriedElsewhere.length} retried and completed on ${[...new Set(retriedElsewhere.map((r) => r.a!.identity))].join(', ') || 'none'} (${retriedElsewhere.map((r) => r.a!.retriedAfter).filter((x, i, s) => s.indexOf(x) === i).join(', ') || '-'}), ${delays.length ? `retry started ${delays[0]!.toFixed(0)} to ${delays.at(-1)!.toFixed(0)} s after the cut` : ''}`
        : `  cut               NOT DONE before the crawl ended`,
      `  crawl             ${before.status}, totalPages ${before.totalPages}, scannedPages ${before.scannedPages}, failedPages ${before.failedPages}`,
      `  rows              ${before.rows.pages} pages, ${before.rows.scans} scans; ${before.rows.pagesWithSeveralScans} pages with more than one, ${before.rows.pagesWithoutScan} without; after the link came back: ${after.rows.scans} scans, ${after.rows.pagesWithSeveralScans} pages with more than one`,
      ...failed.map((f) => `  failed page       ${f.url}: ${f.error ? `${f.error.code}: ${f.error.message}` : 'no error recorded'}`),
      `  timeouts          ${Object.entries(timeouts.byActivity).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`,
      `  verdict           ${problems.length ? `FAIL: ${problems.join('; ')}` : 'PASS: the cut happened mid-crawl, its scans were retried on the others, nothing lost, nothing twice'}`,
      '',
    ].join('\n'),
  );
  exitCode = problems.length ? 1 : 0;
} finally {
  if (cutHost && !linkUp(cutHost)) setLink(cutHost, true);
  await connection.close();
  if (!wasRunning && !values.keep) await clusterDown();
}
process.exit(exitCode);
