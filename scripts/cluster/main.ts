// npm run cluster -- up [--workers 3] [--page-scan-concurrency N] [--no-build] | down [--keep-data] | status | build
// A Temporal cluster (frontend, history, matching, worker) on PostgreSQL, the API and worker
// processes each in its own network namespace: docs/cluster.md. Needs root (network namespaces).
import { parseArgs } from 'node:util';
import { ensureTemporalServer } from '../../temporal-dev/server.ts';
import { clusterDown, clusterStatus, clusterUp } from './cluster.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    workers: { type: 'string' },
    'page-scan-concurrency': { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    'keep-data': { type: 'boolean', default: false },
  },
});
const command = positionals[0] ?? 'up';
try {
  if (command === 'up') {
    const info = await clusterUp({
      workers: values.workers === undefined ? undefined : Number(values.workers),
      pageScanConcurrency: values['page-scan-concurrency'] === undefined ? undefined : Number(values['page-scan-concurrency']),
      build: !values['no-build'],
    });
    console.log(
      [
        `API                ${info.api}   (docs: ${info.api}/docs)`,
        `Temporal frontend  ${info.temporalAddress}`,
        `PostgreSQL         ${info.databaseUrl.replace(/:[^:@/]+@/, ':***@')}`,
        `site (ipython)     ${info.site}/`,
        ...info.workers.map((w) => `worker ${w.name.padEnd(11)} ${w.identity.padEnd(18)} netns ${w.host.netns}, link ${w.host.veth}, pid ${w.pid}`),
        `stop everything:   npm run cluster -- down`,
      ].join('\n'),
    );
  } else if (command === 'down') {
    await clusterDown({ keepData: values['keep-data'] });
  } else if (command === 'status') {
    console.log(clusterStatus());
  } else if (command === 'build') {
    console.log(ensureTemporalServer());
  } else {
    console.error(`unknown command ${command}: up, down, status or build`);
    process.exit(2);
  }
} catch (err) {
  console.error(`cluster ${command}: ${(err as Error).message}`);
  process.exit(1);
}
