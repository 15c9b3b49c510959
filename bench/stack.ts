import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../temporal-dev/dev-server.ts';

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
  opts: { fresh?: boolean } = {},
): Promise<Stack & { readySeconds: number }> {
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
  return {
    api,
    temporalAddress: `127.0.0.1:${temporalPort}`,
    // The one given, or the embedded cluster with its random password, kept beside its data folder.
    databaseUrl: extraEnv.DATABASE_URL ?? `postgres://postgres:${readFileSync(path.join(env.DATA_DIR!, 'postgres.password'), 'utf8').trim()}@127.0.0.1:${pgPort}/a11y`,
    apiPid: () => findProcess('api/server.ts', `PORT=${port}`),
    workerPid: () => findProcess('workers/worker.ts', `PORT=${port}`),
    postgresPid: () => findPostgres(path.join(env.DATA_DIR!, 'postgres')),
    readySeconds: (performance.now() - t0) / 1000,
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
