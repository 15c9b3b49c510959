// List endpoints under load: seeds a crawl with 50,000 issues on 2,000 pages into the stack's
// PostgreSQL, then drives each list endpoint at a fixed rate (default 200 requests/s for 20 s,
// autocannon) with a mix of first pages, deep offsets and filters, and prints the latency
// percentiles per endpoint, with the CPU the API process and PostgreSQL spent per request.
// Asserts nothing.
// autocannon's fixed rate sends the requests of all its connections on the same timer tick, so 20
// connections at 200/s arrive as bursts of 20 every 100 ms; CONNECTIONS=20,4 (the default) runs
// each endpoint with both, bursts of 20 and of 4.
//   node bench/list-endpoints.bench.ts [ratePerSecond=200] [seconds=20]
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { createDb } from '../src/db/database.ts';
import { seedCrawlReport } from '../test/support/seed-report.ts';
import { cpuSeconds, processTree } from '../test/support/process-tree.ts';
import { startStack } from './stack.ts';

const rate = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 20);

const stack = await startStack('bench-lists', { SCAN_RATE_LIMIT: '0' });
const db = createDb(stack.databaseUrl);
try {
  const seeded = await seedCrawlReport(db, { pages: 2000, issuesPerPage: 25, fixedIssues: 500 });
  // Finalizing a crawl this large vacuums and analyzes the issues table (finalizeCrawl); the seed
  // writes the rows directly, so it does the same, and the pages as autovacuum would.
  await sql`vacuum (analyze) issues`.execute(db);
  await sql`vacuum (analyze) pages`.execute(db);
  console.log(`seeded ${seeded.issues} issues on ${seeded.pages} pages`);
  const site = `/api/sites/${seeded.siteId}`;
  const endpoints: Record<string, string[]> = {
    issues: [`${site}/issues`, `${site}/issues?limit=100&offset=20000`, `${site}/issues?severity=critical&status=open`, `${site}/issues?ruleId=color-contrast&type=needs_review&limit=50&offset=5000`],
    pages: [`${site}/pages`, `${site}/pages?limit=100&offset=1500`, `${site}/pages?limit=20&offset=800`],
    'issue-groups': [`${site}/issue-groups`, `${site}/issue-groups?severity=serious`, `${site}/issue-groups?limit=50&offset=0&status=open`],
  };
  // Warm up: the first requests of each shape plan their queries.
  for (const paths of Object.values(endpoints)) for (const p of paths) await stack.call(p);
  const connectionCounts = (process.env.CONNECTIONS ?? '20,4').split(',').map(Number);
  for (const [name, paths] of Object.entries(endpoints)) for (const connections of connectionCounts) {
    // The API's and PostgreSQL's CPU per request: at 200/s, every ms of it is a fifth of a core.
    const apiPid = stack.apiPid();
    const pgPids = () => {
      const postmaster = stack.postgresPid();
      return postmaster ? processTree(postmaster) : [];
    };
    const api0 = apiPid ? cpuSeconds([apiPid]) : NaN;
    const pg0 = cpuSeconds(pgPids());
    const result = await autocannon({
      url: stack.api,
      connections,
      overallRate: rate,
      duration: seconds,
      requests: paths.map((p) => ({ method: 'GET' as const, path: p })),
    });
    const l = result.latency;
    const perRequest = (seconds: number) => ((seconds * 1000) / result.requests.total).toFixed(2);
    console.log(
      `${name}: ${result.requests.total} requests at ${rate}/s over ${seconds} s (${paths.length} shapes, ${connections} connections): ` +
        `p50 ${l.p50} ms, p90 ${l.p90} ms, p99 ${l.p99} ms, max ${l.max} ms; non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}; ` +
        `CPU per request: API ${perRequest(apiPid ? cpuSeconds([apiPid]) - api0 : NaN)} ms, PostgreSQL ${perRequest(cpuSeconds(pgPids()) - pg0)} ms`,
    );
  }
} finally {
  await db.destroy();
  await stack.stop();
}
