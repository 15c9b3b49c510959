import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { ensureTemporalCli } from './cli.ts';

/**
 * What this service's dev server runs with unless told otherwise. One partition per task queue:
 * the server's default of four is for a cluster with many pollers per queue; here a handful of
 * pollers on one host share each queue. On a SQLite file, the write-ahead log with
 * `synchronous=NORMAL` (a crash of the process loses nothing committed; only a power cut can lose
 * the last transactions) instead of a rollback journal with several fsyncs per transaction. The
 * two together took the server's CPU per crawled page from 184-202 ms to 137-144 ms
 * (`bench:crawl 60 --orchestration-only`, alternated, 2026-11-29); a real cluster is configured
 * on its own.
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, number>> = {
  'matching.numTaskqueueReadPartitions': 1,
  'matching.numTaskqueueWritePartitions': 1,
};
export const DEV_SERVER_SQLITE_PRAGMAS: Readonly<Record<string, string>> = { journal_mode: 'WAL', synchronous: 'NORMAL' };

export interface DevServerOptions {
  /** SQLite file for persistent state; omit for in-memory (tests). */
  dbFile?: string;
  ip?: string;
  port?: number;
  uiPort?: number;
  /** No Web UI (tests). */
  headless?: boolean;
  namespace?: string;
  /** `--dynamic-config-value` entries, e.g. `limit.historyCount.suggestContinueAsNew=200`, over `DEV_SERVER_DYNAMIC_CONFIG`. */
  dynamicConfig?: Record<string, string | number | boolean>;
  log?: (msg: string) => void;
  readyTimeoutMs?: number;
}

export interface DevServer {
  address: string;
  uiUrl: string | undefined;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Search attributes operators filter a crawl's workflows by in the Web UI. */
export const SEARCH_ATTRIBUTES = { siteId: 'Keyword', crawlId: 'Keyword' } as const;

export async function freePort(ip = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, ip, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts `temporal server start-dev` and resolves once its frontend answers. */
export async function startDevServer(opts: DevServerOptions = {}): Promise<DevServer> {
  const cli = ensureTemporalCli(opts.log);
  const ip = opts.ip ?? '127.0.0.1';
  const port = opts.port ?? (await freePort(ip));
  const args = ['server', 'start-dev', '--ip', ip, '--port', String(port), '--log-level', 'warn', '--log-format', 'json'];
  if (opts.namespace && opts.namespace !== 'default') args.push('--namespace', opts.namespace);
  if (opts.dbFile) {
    mkdirSync(path.dirname(path.resolve(opts.dbFile)), { recursive: true });
    args.push('--db-filename', opts.dbFile);
    for (const [k, v] of Object.entries(DEV_SERVER_SQLITE_PRAGMAS)) args.push('--sqlite-pragma', `${k}=${v}`);
  }
  let uiUrl: string | undefined;
  if (opts.headless) args.push('--headless');
  else {
    const uiPort = opts.uiPort ?? 8233;
    args.push('--ui-port', String(uiPort));
    uiUrl = `http://${ip}:${uiPort}`;
  }
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES)) args.push('--search-attribute', `${name}=${type}`);
  const dynamicConfig = { ...DEV_SERVER_DYNAMIC_CONFIG, ...opts.dynamicConfig };
  for (const [k, v] of Object.entries(dynamicConfig)) args.push('--dynamic-config-value', `${k}=${JSON.stringify(v)}`);

  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const address = `${ip}:${port}`;

  const deadline = Date.now() + (opts.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`temporal dev server exited with ${child.exitCode}: ${output}`);
    try {
      const conn = await Connection.connect({ address, connectTimeout: 1000 });
      await conn.workflowService.getSystemInfo({});
      await conn.close();
      break;
    } catch (err) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`temporal dev server did not answer on ${address}: ${String(err)}\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    address,
    uiUrl,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
