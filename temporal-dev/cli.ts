import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The Temporal CLI release we build and test against (Server 1.29.1, UI 2.42.1). */
export const TEMPORAL_CLI_VERSION = '1.5.1';
const MODULE = 'github.com/temporalio/cli/cmd/temporal';

export function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'a11y-audit');
}

export function cachedCliPath(): string {
  return path.join(cacheDir(), `temporal-${TEMPORAL_CLI_VERSION}`);
}

export function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, name);
    if (dir && executable(p)) return p;
  }
  return undefined;
}

export function findGo(): string | undefined {
  return onPath('go') ?? (executable('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
}

export class TemporalCliMissing extends Error {
  override name = 'TemporalCliMissing';
}

/** `TEMPORAL_CLI`, then the cached build, then `temporal` on PATH; undefined when none. */
export function findTemporalCli(): string | undefined {
  const explicit = process.env.TEMPORAL_CLI;
  if (explicit) {
    if (!executable(explicit)) throw new TemporalCliMissing(`TEMPORAL_CLI=${explicit} is not an executable file`);
    return explicit;
  }
  if (executable(cachedCliPath())) return cachedCliPath();
  return onPath('temporal');
}

/**
 * Builds the CLI from its Go module into the cache (about 3 minutes from a cold module cache).
 * Nothing is written into the repository.
 */
export function buildTemporalCli(log: (msg: string) => void = console.error): string {
  const go = findGo();
  if (!go) {
    throw new TemporalCliMissing(
      'The Temporal CLI was not found and Go is not installed to build it. Install it ' +
        '(brew install temporal, or the release from https://temporal.io/setup/install-temporal-cli), ' +
        'or set TEMPORAL_CLI to its path, or TEMPORAL_ADDRESS to use a running server.',
    );
  }
  const target = cachedCliPath();
  const gobin = path.join(cacheDir(), `gobin-${process.pid}`);
  mkdirSync(gobin, { recursive: true });
  log(`Building the Temporal CLI v${TEMPORAL_CLI_VERSION} from its Go module (a few minutes, once)...`);
  const res = spawnSync(
    go,
    [
      'install',
      '-trimpath',
      '-ldflags',
      `-s -w -X github.com/temporalio/cli/temporalcli.Version=${TEMPORAL_CLI_VERSION}`,
      `${MODULE}@v${TEMPORAL_CLI_VERSION}`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, GOBIN: gobin, GOTOOLCHAIN: 'local', CGO_ENABLED: '0' } },
  );
  const built = path.join(gobin, 'temporal');
  if (res.status !== 0 || !existsSync(built)) {
    throw new TemporalCliMissing(`building the Temporal CLI failed (go exited ${res.status ?? res.signal})`);
  }
  renameSync(built, target);
  return target;
}

export function ensureTemporalCli(log?: (msg: string) => void): string {
  return findTemporalCli() ?? buildTemporalCli(log);
}
