// How long a crawl takes to get its first page scanned, and where that time goes: POST →
// crawl row → running → first page registered → its scan started → scan written. Starts `npm
// start`'s whole stack (waiting for its workers to poll), serves ipython-docs on loopback, posts
// `runs` crawls of `maxPages` pages one after another (the first on a cold worker) and prints
// each crawl's timeline from the database. Asserts nothing. The crawls after the first reuse its
// unchanged pages unless `--no-reuse` (each crawl then scans its first page on a warm worker).
//   node bench/first-page.bench.ts [runs=3] [maxPages=5] [--no-reuse]
import path from 'node:path';
import pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import { crawlWorkflowId, discoveryWorkflowId } from '../src/shared/search-attributes.ts';
import { startStack } from './stack.ts';
import { startStaticServer } from '../test/support/static-server.ts';

const args = process.argv.slice(2);
const [runs = 3, maxPages = 5] = args.filter((a) => !a.startsWith('--')).map(Number);
const reuse = !args.includes('--no-reuse');
const corpus = path.resolve('..', 'shared', 'corpora', 'ipython-docs', 'site');
const { origin, close } = await startStaticServer({}, { root: corpus, rootRedirect: '/3/index.html' });
const stack = await startStack('bench-first-page', { PAGE_SCAN_CONCURRENCY: '3' }, { waitForWorkers: true });
const db = new pg.Client({ connectionString: stack.databaseUrl });
await db.connect();
const temporal = new Client({ connection: await Connection.connect({ address: stack.temporalAddress }) });
/** Each activity of a workflow: name, scheduled, started and closed (ms after t0). */
async function activities(workflowId: string, t0: number): Promise<string> {
  const out: string[] = [];
  const byId = new Map<string, { name: string; scheduled: number; started?: number }>();
  const at = (e: any) => Number(e.eventTime.seconds) * 1000 + Math.round(e.eventTime.nanos / 1e6) - t0;
  for (const e of (await temporal.workflowService.getWorkflowExecutionHistory({ namespace: "default", execution: { workflowId } })).history!.events!) {
    if (e.activityTaskScheduledEventAttributes) byId.set(String(e.eventId), { name: e.activityTaskScheduledEventAttributes.activityType!.name!, scheduled: at(e) });
    if (e.activityTaskStartedEventAttributes) byId.get(String(e.activityTaskStartedEventAttributes.scheduledEventId))!.started = at(e);
    const closed = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes;
    if (closed) {
      const a = byId.get(String(closed.scheduledEventId))!;
      if (out.length < 8) out.push(`${a.name} ${(a.scheduled / 1000).toFixed(2)}/${((a.started ?? 0) / 1000).toFixed(2)}/${(at(e) / 1000).toFixed(2)}`);
    }
  }
  return out.join(', ');
}
const ms = (a: Date | null, t0: number) => (a ? `${((a.getTime() - t0) / 1000).toFixed(2)} s` : '-');
try {
  const site = await stack.call('/api/sites', { method: 'POST', body: JSON.stringify({ url: `${origin}/` }) });
  for (let i = 0; i < runs; i++) {
    const t0 = Date.now();
    const { crawlId } = await stack.call(`/api/sites/${site.id}/crawl`, { method: 'POST', body: JSON.stringify({ maxPages, ...(reuse ? {} : { reuse: false }) }) });
    let firstScanned: number | undefined;
    for (;;) {
      const crawl = await stack.call(`/api/sites/${site.id}/crawls/${crawlId}`);
      if (firstScanned === undefined && crawl.scannedPages > 0) firstScanned = Date.now();
      if (!['queued', 'running'].includes(crawl.status)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const c = (await db.query('select created_at, started_at, completed_at from crawls where id = $1', [crawlId])).rows[0];
    const p = (
      await db.query(
        'select url, created_at, started_at, completed_at from page_scans where crawl_id = $1 order by completed_at nulls last limit 1',
        [crawlId],
      )
    ).rows[0];
    console.log(
      `crawl ${i + 1}${i === 0 ? ' (cold worker)' : ''}: first page seen scanned by the API after ${(((firstScanned ?? Date.now()) - t0) / 1000).toFixed(2)} s; ` +
        `row ${ms(c.created_at, t0)}, running ${ms(c.started_at, t0)}, first page registered ${ms(p?.created_at, t0)}, its scan started ${ms(p?.started_at, t0)}, written ${ms(p?.completed_at, t0)}; crawl ended ${ms(c.completed_at, t0)}`,
    );
    console.log(`  crawl workflow activities (scheduled/started/closed s): ${await activities(crawlWorkflowId(crawlId), t0)}`);
    console.log(`  discovery activities: ${await activities(discoveryWorkflowId(crawlId), t0)}`);
  }
} finally {
  await db.end();
  await stack.stop();
  await close();
}
