import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort } from '../temporal-dev/dev-server.ts';
import { taskQueues } from '../src/shared/task-queues.ts';
import { commandLine, procStat } from '../test/support/process-tree.ts';

export interface Stack {
  api: string;
  temporalAddress: string;
  /** The embedded PostgreSQL the stack started. */
  databaseUrl: string;
  /** Process id of the API process (a child of `npm start`). */
  apiPid(): number | undefined;
  /** Process id of the worker process (a child of `npm start`). */
  workerPid(): number | undefined;
  /** Process id of the embedded PostgreSQL's postmaster. */
  postgresPid(): number | undefined;
  /** JSON call against the API; throws on a non-2xx answer. */
  call(p: string, init?: RequestInit): Promise<any>;
  stop(): Promise<void>;
}

/**
 * `npm start` as a user runs it (Temporal dev server, embedded PostgreSQL, worker, API), on free
 * ports and (unless `fresh: false`) a fresh data folder, so a crawl left by an interrupted run
 * cannot get in the way.
 * Resolves once /readyz answers, with the seconds that took.
 */
export async function startStack(
  name: string,
  extraEnv: Record<string, string> = {},
  opts: { fresh?: boolean; waitForWorkers?: boolean } = {},
): Promise<Stack & { readySeconds: number; workersReadySeconds?: number }> {
  const port = await freePort();
  const temporalPort = await freePort();
  const pgPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: path.resolve('.data', name),
    EMBEDDED_PG_PORT: String(pgPort),
    TEMPORAL_DEV_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(await freePort()),
    ALLOW_PRIVATE_TARGETS: 'true',
    SCAN_RATE_LIMIT: '0',
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  if (opts.fresh !== false) rmSync(env.DATA_DIR!, { recursive: true, force: true });
  if (!extraEnv.DATABASE_URL) delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
  const api = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.resolve('src/start.ts')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((r) => child.once('exit', r));
  while (!(await fetch(`${api}/readyz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error('npm start exited');
    await new Promise((r) => setTimeout(r, 50));
  }
  const readySeconds = (performance.now() - t0) / 1000;
  // The API answers before the worker has built its workflow bundle and launched: a bench that
  // times crawls waits for the worker to poll, so start-up is not counted as crawl time.
  const temporalAddress = `127.0.0.1:${temporalPort}`;
  if (opts.waitForWorkers !== false) await workersPolling(temporalAddress, extraEnv.TASK_QUEUE_PREFIX, () => child.exitCode !== null);
  return {
    api,
    temporalAddress,
    // The one given, or the embedded cluster with its random password, kept beside its data folder.
    databaseUrl: extraEnv.DATABASE_URL ?? `postgres://postgres:${readFileSync(path.join(env.DATA_DIR!, 'postgres.password'), 'utf8').trim()}@127.0.0.1:${pgPort}/a11y`,
    apiPid: () => findProcess('api/server.ts', `PORT=${port}`),
    workerPid: () => findProcess('workers/worker.ts', `PORT=${port}`),
    postgresPid: () => findPostgres(path.join(env.DATA_DIR!, 'postgres')),
    readySeconds,
    ...(opts.waitForWorkers !== false ? { workersReadySeconds: (performance.now() - t0) / 1000 } : {}),
    async call(p, init) {
      const res = await fetch(api + p, { ...init, headers: { 'content-type': 'application/json', ...init?.headers } });
      if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${p}: ${res.status} ${await res.text()}`);
      return res.json();
    },
    async stop() {
      child.kill('SIGINT');
      await exited;
    },
  };
}

/** Resolves once a worker polls the workflow queue and the page-scan queue. */
async function workersPolling(address: string, prefix: string | undefined, exited: () => boolean): Promise<void> {
  const connection = await Connection.connect({ address });
  const queues = taskQueues(prefix);
  const polled = async (name: string, taskQueueType: 1 | 2) => {
    const r = await connection.workflowService.describeTaskQueue({ namespace: 'default', taskQueue: { name }, taskQueueType });
    return (r.pollers?.length ?? 0) > 0;
  };
  try {
    const deadline = Date.now() + 180_000;
    // 1: workflow tasks, 2: activity tasks (temporal.api.enums.v1.TaskQueueType)
    while (!((await polled(queues.workflows, 1)) && (await polled(queues.pageScan, 2)))) {
      if (exited()) throw new Error('npm start exited');
      if (Date.now() > deadline) throw new Error('no worker polled within 3 minutes');
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await connection.close();
  }
}

/** A process whose command line contains `script` and whose environment contains `envEntry` (Linux /proc). */
export function findProcess(script: string, envEntry: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(script)) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(envEntry)) return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  return undefined;
}

/** Resident set size of a process in MB (VmRSS), or NaN when it is gone. */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The postmaster whose command line names `dataDir`. */
function findPostgres(dataDir: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (/postgres/.test(cmd) && cmd.includes(dataDir)) return Number(entry);
    } catch {
      // gone
    }
  }
  return undefined;
}

/** Proportional set size of processes in MB (shared pages split between their users), NaN when none is left. */
export function pssMb(pids: readonly number[]): number {
  let kb = 0;
  let seen = 0;
  for (const pid of pids) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (m) {
        kb += Number(m[1]);
        seen++;
      }
    } catch {
      // gone
    }
  }
  return seen ? kb / 1024 : Number.NaN;
}

/** The processes a crawl's CPU goes to, named by their command lines. */
export type CpuRole = 'chromium' | 'worker' | 'api' | 'temporal' | 'postgres' | 'bench' | 'kernel' | 'other';

function roleOf(cmd: string, pid: number): CpuRole {
  if (pid === process.pid) return 'bench';
  if (/chrom(e|ium)/.test(cmd)) return 'chromium';
  if (cmd.includes('workers/worker.ts')) return 'worker';
  if (cmd.includes('api/server.ts')) return 'api';
  if (/temporal/.test(cmd)) return 'temporal';
  if (/postgres/.test(cmd)) return 'postgres';
  if (cmd === '') return 'kernel';
  return 'other';
}

/** CPU seconds (user + system, with reaped children's) of every process now, by pid. */
export function cpuSnapshot(): Map<number, { role: CpuRole; seconds: number }> {
  const out = new Map<number, { role: CpuRole; seconds: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (!stat) continue; // ended while we looked
    const f = stat.fields;
    // init (pid 1) reaps every orphan, whatever it ran: its children's time belongs to no role.
    const reaped = entry === '1' ? 0 : Number(f[13]) + Number(f[14]);
    // An ended process not yet reaped has no command line any more: its name is still in stat.
    const cmd = commandLine(Number(entry)) || (f[0] === 'Z' ? stat.name : '');
    out.set(Number(entry), { role: roleOf(cmd, Number(entry)), seconds: (Number(f[11]) + Number(f[12]) + reaped) / 100 });
  }
  return out;
}

/** CPU seconds each role used between two snapshots (processes started in between count from zero). */
export function cpuBetween(before: ReturnType<typeof cpuSnapshot>, after: ReturnType<typeof cpuSnapshot>): Record<CpuRole, number> {
  const sums: Record<CpuRole, number> = { chromium: 0, worker: 0, api: 0, temporal: 0, postgres: 0, bench: 0, kernel: 0, other: 0 };
  for (const [pid, p] of after) sums[p.role] += Math.max(0, p.seconds - (before.get(pid)?.seconds ?? 0));
  return sums;
}

/** "chromium 120.3 s, worker 30.1 s, …" for the roles that used any CPU. */
export function formatCpu(sums: Record<CpuRole, number>, pages: number): string {
  const total = Object.values(sums).reduce((a, b) => a + b, 0);
  const parts = Object.entries(sums)
    .filter(([, s]) => s >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([role, s]) => `${role} ${s.toFixed(1)} s (${((s / pages) * 1000).toFixed(0)} ms/page)`);
  return `CPU ${total.toFixed(1)} s: ${parts.join(', ')}`;
}
