// The Temporal server as a production cluster runs it (separate frontend, history, matching and
// worker services on PostgreSQL), and its SQL schema tool: built once from their Go module into
// the same cache as the CLI, for `npm run cluster` (docs/cluster.md). Nothing lands in the repository.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { cacheDir, executable, findGo } from './cli.ts';

/**
 * The server release we build and run. v1.32.2 needs Go 1.26.10 and the machines have 1.26.8;
 * v1.32.1 builds with the Go at hand (GOTOOLCHAIN=local).
 */
export const TEMPORAL_SERVER_VERSION = '1.32.1';
const MODULE = 'go.temporal.io/server';

export interface TemporalServerBinaries {
  /** `temporal-server` (cmd/server). */
  server: string;
  /** `temporal-sql-tool` (cmd/tools/sql): creates the databases and their schema. */
  sqlTool: string;
}

export function cachedServerBinaries(): TemporalServerBinaries {
  return {
    server: path.join(cacheDir(), `temporal-server-${TEMPORAL_SERVER_VERSION}`),
    sqlTool: path.join(cacheDir(), `temporal-sql-tool-${TEMPORAL_SERVER_VERSION}`),
  };
}

export class TemporalServerMissing extends Error {
  override name = 'TemporalServerMissing';
}

/** `TEMPORAL_SERVER` and `TEMPORAL_SQL_TOOL` (paths), else the cached builds; undefined when either is missing. */
export function findTemporalServer(): TemporalServerBinaries | undefined {
  const cached = cachedServerBinaries();
  const found = { server: process.env.TEMPORAL_SERVER || cached.server, sqlTool: process.env.TEMPORAL_SQL_TOOL || cached.sqlTool };
  return executable(found.server) && executable(found.sqlTool) ? found : undefined;
}

/**
 * Builds both binaries from the server's Go module into the cache: a few minutes and a few GB of
 * modules from a cold module cache, under `nice` so that it does not starve whatever else runs.
 */
export function buildTemporalServer(log: (msg: string) => void = console.error): TemporalServerBinaries {
  const go = findGo();
  if (!go) {
    throw new TemporalServerMissing(
      'Go is not installed to build the Temporal server. Install Go 1.26, or set TEMPORAL_SERVER and TEMPORAL_SQL_TOOL ' +
        'to the temporal-server and temporal-sql-tool binaries of a Temporal release.',
    );
  }
  const target = cachedServerBinaries();
  const gobin = path.join(cacheDir(), `gobin-server-${process.pid}`);
  mkdirSync(gobin, { recursive: true });
  log(`Building the Temporal server v${TEMPORAL_SERVER_VERSION} and its SQL tool from their Go module (several minutes, once)...`);
  const nice = executable('/usr/bin/nice') ? ['/usr/bin/nice', '-n', '19'] : [];
  const [cmd, ...pre] = [...nice, go];
  const res = spawnSync(
    cmd!,
    [...pre, 'install', '-trimpath', '-ldflags', '-s -w', `${MODULE}/cmd/server@v${TEMPORAL_SERVER_VERSION}`, `${MODULE}/cmd/tools/sql@v${TEMPORAL_SERVER_VERSION}`],
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, GOBIN: gobin, GOTOOLCHAIN: 'local', CGO_ENABLED: '0' } },
  );
  const built = { server: path.join(gobin, 'server'), sqlTool: path.join(gobin, 'sql') };
  if (res.status !== 0 || !existsSync(built.server) || !existsSync(built.sqlTool)) {
    rmSync(gobin, { recursive: true, force: true });
    throw new TemporalServerMissing(`building the Temporal server failed (go exited ${res.status ?? res.signal})`);
  }
  renameSync(built.server, target.server);
  renameSync(built.sqlTool, target.sqlTool);
  rmSync(gobin, { recursive: true, force: true });
  return target;
}

export function ensureTemporalServer(log?: (msg: string) => void): TemporalServerBinaries {
  return findTemporalServer() ?? buildTemporalServer(log);
}
