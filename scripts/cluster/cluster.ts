// A real cluster on one machine (docs/cluster.md): PostgreSQL and Temporal's frontend, history,
// matching and worker services, each its own process, on the bridge's address; the API and each
// worker process in its own network namespace (own address, own Chromium), reaching them over a
// veth link; a firewall table of its own keeps everyone else out (firewall.ts). Processes are started detached and recorded in a state file, so that `cluster down`
// (another process) stops exactly them and then removes the network and the data.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import pg from 'pg';
import { ensureWorkflowBundle } from '../../src/workers/workflow-bundle.ts';
import { SEARCH_ATTRIBUTES } from '../../temporal-dev/dev-server.ts';
import { ensureTemporalServer, findTemporalServer, type TemporalServerBinaries } from '../../temporal-dev/server.ts';
import { API_PORT, API_URL, APP_DATABASE, PG_PORT, SITE_ORIGIN, TEMPORAL_ADDRESS, TEMPORAL_SERVICES, clusterDir, paths } from './layout.ts';
import { BRIDGE, BRIDGE_IP, SUBNET, apiHost, bridgeUp, hostUp, networkAvailable, networkDown, workerHost, type Host } from './network.ts';
import { NFT_TABLE, firewallDown, firewallUp } from './firewall.ts';
import { pgInit, pgPassword, pgRunning, pgStart, pgStop, pgUrl } from './postgres.ts';
import { writeTemporalConfig } from './temporal-config.ts';

export interface ClusterProcess {
  name: string;
  pid: number;
  /** A piece of its command line: a recorded pid is signalled only while it still runs this (pids are reused). */
  marker: string;
  log: string;
  netns?: string;
}

export interface ClusterState {
  workers: number;
  processes: ClusterProcess[];
  startedAt: string;
}

export interface ClusterInfo {
  api: string;
  temporalAddress: string;
  databaseUrl: string;
  site: string;
  workers: Array<{ name: string; identity: string; host: Host; pid: number }>;
}

const log = (m: string) => console.error(`[cluster ${new Date().toISOString().slice(11, 19)}] ${m}`);

export function readState(): ClusterState | undefined {
  try {
    return JSON.parse(readFileSync(paths.state(), 'utf8')) as ClusterState;
  } catch {
    return undefined;
  }
}
function writeState(s: ClusterState): void {
  mkdirSync(clusterDir(), { recursive: true });
  writeFileSync(paths.state(), JSON.stringify(s, null, 2));
}

/** Whether `p` still runs (its pid alive and its command line still ours). */
export function alive(p: ClusterProcess): boolean {
  try {
    return readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').includes(p.marker);
  } catch {
    return false;
  }
}

/** Starts a process detached (it outlives `cluster up`), its output appended to its log file. */
function startDetached(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv, marker: string, netns?: string): ClusterProcess {
  mkdirSync(paths.logs(), { recursive: true });
  const file = path.join(paths.logs(), `${name}.log`);
  const fd = openSync(file, 'a');
  // `ip netns exec` enters the namespace and execs the command: the pid is the command's own.
  const [c, a] = netns ? ['ip', ['netns', 'exec', netns, cmd, ...args]] : [cmd, args];
  const child = spawn(c, a, { detached: true, stdio: ['ignore', fd, fd], env, cwd: process.cwd() });
  closeSync(fd);
  child.unref();
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  return { name, pid: child.pid, marker, log: file, ...(netns ? { netns } : {}) };
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, failed?: () => string | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const why = failed?.();
    if (why) throw new Error(`${what}: ${why}`);
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s${last ? `: ${String((last as Error).message ?? last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

function tail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Temporal's two databases, created and given their schema by the server's own SQL tool (a fresh database only). */
async function temporalSchema(bin: TemporalServerBinaries): Promise<void> {
  const admin = new pg.Client({ connectionString: pgUrl('postgres') });
  await admin.connect();
  let existing: Set<string>;
  try {
    existing = new Set((await admin.query<{ datname: string }>('select datname from pg_database')).rows.map((r) => r.datname));
    if (!existing.has(APP_DATABASE)) await admin.query(`create database ${APP_DATABASE}`);
  } finally {
    await admin.end();
  }
  for (const [db, schema] of [
    ['temporal', 'postgresql/v12/temporal'],
    ['temporal_visibility', 'postgresql/v12/visibility'],
  ] as const) {
    // The password goes by environment, not the command line (which other users can read).
    const env = { ...process.env, SQL_HOST: BRIDGE_IP, SQL_PORT: String(PG_PORT), SQL_USER: 'postgres', SQL_PASSWORD: pgPassword(), SQL_DATABASE: db };
    const tool = (args: string[]) => {
      const res = spawnSync(bin.sqlTool, ['--plugin', 'postgres12', ...args], { env, encoding: 'utf8' });
      if (res.status !== 0) throw new Error(`temporal-sql-tool ${args.join(' ')} (${db}): ${(res.stderr || res.stdout).trim().split('\n').slice(-5).join('\n')}`);
    };
    if (!existing.has(db)) {
      tool(['create-database']);
      tool(['setup-schema', '-v', '0.0']);
      log(`database ${db} created`);
    }
    // Embedded in the binary: the same as the module's schema/postgresql/v12/*/versioned; a no-op when current.
    tool(['update-schema', '--schema-name', schema]);
  }
}

async function clusterMetadataWritten(): Promise<true | undefined> {
  const c = new pg.Client({ connectionString: pgUrl('temporal') });
  await c.connect();
  try {
    return (await c.query('select 1 from cluster_metadata_info limit 1')).rowCount ? true : undefined;
  } finally {
    await c.end();
  }
}

/** The namespace `default` and the search attributes the service filters crawls by, as the dev server has them. */
async function temporalNamespace(): Promise<void> {
  const connection = await waitFor('the Temporal frontend answering', 120_000, async () => {
    const c = await Connection.connect({ address: TEMPORAL_ADDRESS, connectTimeout: 2000 });
    await c.workflowService.getSystemInfo({});
    return c;
  });
  try {
    await waitFor('namespace default registered', 120_000, async () => {
      try {
        await connection.workflowService.registerNamespace({ namespace: 'default', workflowExecutionRetentionPeriod: msToTs('3 days') });
      } catch (err) {
        if ((err as { code?: number }).code !== 6) throw err; // 6: ALREADY_EXISTS
      }
      await connection.workflowService.describeNamespace({ namespace: 'default' });
      return true;
    });
    await waitFor('search attributes registered', 120_000, async () => {
      const have = await connection.operatorService.listSearchAttributes({ namespace: 'default' });
      const missing = Object.keys(SEARCH_ATTRIBUTES).filter((k) => !(k in (have.customAttributes ?? {})));
      if (missing.length === 0) return true;
      // 2: INDEXED_VALUE_TYPE_KEYWORD
      await connection.operatorService.addSearchAttributes({ namespace: 'default', searchAttributes: Object.fromEntries(missing.map((k) => [k, 2])) });
      return undefined;
    });
  } finally {
    await connection.close();
  }
}

/**
 * The cluster's network: its firewall table first, so that nothing of the cluster is reachable
 * from elsewhere at any moment, then the bridge and the hosts. Idempotent.
 */
export function clusterNetworkUp(workers: number): void {
  firewallUp(log);
  bridgeUp();
  hostUp(apiHost());
  for (let n = 1; n <= workers; n++) hostUp(workerHost(n));
}

export interface UpOptions {
  /** Worker hosts, 1 to 9 (3 by default). */
  workers?: number;
  /** Page-scan slots per worker process (PAGE_SCAN_CONCURRENCY). */
  pageScanConcurrency?: number;
  /** Build the server when missing (default); false: fail instead. */
  build?: boolean;
  /** Extra environment of the API and the workers. */
  env?: Record<string, string>;
}

/** Brings the cluster up (or completes a partly running one) and returns its addresses. */
export async function clusterUp(opts: UpOptions = {}): Promise<ClusterInfo> {
  const net = networkAvailable();
  if (!net.ok) throw new Error(`the cluster cannot run here: ${net.reason}`);
  const workers = opts.workers ?? readState()?.workers ?? 3;
  if (!Number.isInteger(workers) || workers < 1 || workers > 9) throw new Error('--workers: 1 to 9');
  const bin = opts.build === false ? findTemporalServer() : ensureTemporalServer(log);
  if (!bin) throw new Error('the Temporal server is not built: run npm run cluster -- up (it builds it once)');
  if (!existsSync(path.resolve('src', 'workers', 'worker.ts'))) throw new Error('run from the repository root');

  const state: ClusterState = readState() ?? { workers, processes: [], startedAt: new Date().toISOString() };
  state.workers = Math.max(state.workers, workers);
  const running = (name: string) => state.processes.find((p) => p.name === name && alive(p));
  const record = (p: ClusterProcess) => {
    state.processes = [...state.processes.filter((q) => q.name !== p.name), p];
    writeState(state);
  };

  log(`network: bridge ${BRIDGE} ${BRIDGE_IP} in ${SUBNET}, namespaces a11y-api and a11y-w1..; firewall table inet ${NFT_TABLE}`);
  clusterNetworkUp(workers);

  pgInit();
  pgStart();
  if (!pgRunning()) throw new Error(`PostgreSQL did not start:\n${tail(path.join(paths.logs(), 'postgres.log'))}`);
  log(`PostgreSQL on ${BRIDGE_IP}:${PG_PORT}`);
  await temporalSchema(bin);

  const configs = writeTemporalConfig(pgPassword());
  const temporalDied = () => {
    const dead = TEMPORAL_SERVICES.map((s) => state.processes.find((p) => p.name === `temporal-${s}`)).find((p) => p && !alive(p));
    return dead ? `${dead.name} exited:\n${tail(dead.log)}` : undefined;
  };
  for (const service of TEMPORAL_SERVICES) {
    if (running(`temporal-${service}`)) continue;
    record(
      startDetached(`temporal-${service}`, bin.server, ['--config-file', configs[service], '--allow-no-auth', 'start', '--service', service], process.env, `${path.basename(bin.server)}\0`),
    );
    // On a new database every service writes the cluster's metadata at its start, and all but
    // one fail on the conflict and exit: the first one writes it alone, the others start after.
    if (service === TEMPORAL_SERVICES[0]) await waitFor('Temporal cluster metadata written', 120_000, clusterMetadataWritten, temporalDied);
  }
  await waitFor('Temporal up', 180_000, async () => (temporalDied() ? undefined : (await temporalNamespace(), true)), temporalDied);
  log(`Temporal frontend on ${TEMPORAL_ADDRESS} (history, matching and worker services beside it)`);

  if (!running('site')) record(startDetached('site', process.execPath, [path.resolve('scripts/cluster/site.ts')], process.env, 'scripts/cluster/site.ts'));

  // One secrets key for the API and every worker: a site's login secrets are written by one and read by the others.
  const keyFile = path.join(clusterDir(), 'secrets.key');
  if (!existsSync(keyFile)) writeFileSync(keyFile, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  const common: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: pgUrl(APP_DATABASE),
    TEMPORAL_ADDRESS,
    TEMPORAL_NAMESPACE: 'default',
    SECRETS_KEY: readFileSync(keyFile, 'utf8').trim(),
    // The crawled site is on the cluster's private network: let exactly it through the target policy.
    ALLOWED_PRIVATE_HOSTS: new URL(SITE_ORIGIN).host,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...opts.env,
  };
  const api = apiHost();
  if (!running('api')) {
    record(
      startDetached('api', process.execPath, [path.resolve('src/api/server.ts')], { ...common, HOST: api.ip, PORT: String(API_PORT), DATA_DIR: paths.host('api') }, 'src/api/server.ts', api.netns),
    );
  }
  const apiProc = state.processes.find((p) => p.name === 'api')!;
  await waitFor('the API ready', 120_000, async () => ((await fetch(`${API_URL}/readyz`)).ok ? true : undefined), () => (alive(apiProc) ? undefined : `the API exited:\n${tail(apiProc.log)}`));
  log(`API on ${API_URL} (namespace ${api.netns})`);

  // The workflow bundle is built once here, not by each worker at its start (webpack, CPU-heavy).
  const bundle = await ensureWorkflowBundle(path.join(paths.host('w1'), 'bundles'));
  const out: ClusterInfo['workers'] = [];
  for (let n = 1; n <= workers; n++) {
    const h = workerHost(n);
    const name = `w${n}`;
    const identity = `${name}@${h.ip}`;
    const bundles = path.join(paths.host(name), 'bundles');
    mkdirSync(bundles, { recursive: true });
    if (!existsSync(path.join(bundles, path.basename(bundle)))) copyFileSync(bundle, path.join(bundles, path.basename(bundle)));
    if (!running(name)) {
      const env: NodeJS.ProcessEnv = { ...common, DATA_DIR: paths.host(name), WORKER_IDENTITY: identity };
      if (opts.pageScanConcurrency) env.PAGE_SCAN_CONCURRENCY = String(opts.pageScanConcurrency);
      record(startDetached(name, process.execPath, [path.resolve('src/workers/worker.ts')], env, 'src/workers/worker.ts', h.netns));
    }
    out.push({ name, identity, host: h, pid: state.processes.find((p) => p.name === name)!.pid });
  }
  // Ready once each has polled: its log says so (LOG_LEVEL info) or, quieter, it still runs after its start.
  await new Promise((r) => setTimeout(r, 3000));
  for (const w of out) {
    const p = state.processes.find((q) => q.name === w.name)!;
    if (!alive(p)) throw new Error(`worker ${w.name} exited:\n${tail(p.log)}`);
  }
  return { api: API_URL, temporalAddress: TEMPORAL_ADDRESS, databaseUrl: pgUrl(APP_DATABASE), site: SITE_ORIGIN, workers: out };
}

/** Stops a recorded process: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopProcess(p: ClusterProcess, graceMs = 15_000): Promise<void> {
  if (!alive(p)) return;
  process.kill(p.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive(p) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (alive(p)) process.kill(p.pid, 'SIGKILL');
}

/** Stops every process the state file names, PostgreSQL, removes the network and (unless `keepData`) the data. */
export async function clusterDown(opts: { keepData?: boolean } = {}): Promise<void> {
  const state = readState();
  const order = ['w', 'api', 'site', 'temporal-frontend', 'temporal-worker', 'temporal-matching', 'temporal-history'];
  const rank = (n: string) => order.findIndex((o) => n === o || (o === 'w' && /^w\d$/.test(n)));
  const procs = [...(state?.processes ?? [])].sort((a, b) => rank(a.name) - rank(b.name));
  // Workers first (in parallel: each finishes or gives back its activities), then the rest in order.
  await Promise.all(procs.filter((p) => /^w\d$/.test(p.name)).map((p) => stopProcess(p)));
  for (const p of procs.filter((q) => !/^w\d$/.test(q.name))) await stopProcess(p);
  log(`stopped ${procs.length} processes`);
  if (existsSync(paths.pgData())) {
    pgStop();
    log('PostgreSQL stopped');
  }
  if (networkAvailable().ok) {
    networkDown();
    firewallDown();
  }
  log(`network and firewall table inet ${NFT_TABLE} removed`);
  if (!opts.keepData) {
    rmSync(clusterDir(), { recursive: true, force: true });
    log(`${clusterDir()} removed`);
  } else rmSync(paths.state(), { force: true });
}

/** What runs, for `cluster status`. */
export function clusterStatus(): string {
  const state = readState();
  if (!state) return 'no cluster (nothing recorded in ' + paths.state() + ')';
  const lines = state.processes.map((p) => `  ${p.name.padEnd(18)} pid ${String(p.pid).padEnd(8)} ${alive(p) ? 'running' : 'STOPPED'}${p.netns ? `  netns ${p.netns}` : ''}  log ${p.log}`);
  return [`cluster started ${state.startedAt}, ${state.workers} worker hosts; PostgreSQL ${pgRunning() ? 'running' : 'STOPPED'}`, ...lines].join('\n');
}
