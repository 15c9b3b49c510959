import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { Database, DB } from './schema.ts';

// COUNT(*) and BIGINT come back as strings by default; our counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

export type { Database };

export function createDb(connectionString: string, opts: { max?: number } = {}): Database {
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'a11y-audit',
  });
  // A client that loses its server (PostgreSQL restarted, a connection killed) must not crash the
  // process: not while idle in the pool, and not while checked out between two queries (pg then
  // emits 'error' on the client itself, which the pool no longer listens to). The next query on
  // it fails, and the activity's retry takes a fresh connection. Found by bench/chaos.bench.ts.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // `cursor` lets long reads (a report's every issue) stream with `.stream()` instead of loading whole.
  // The repositories' read caches live with this handle (see cacheOf in versioned-cache.ts).
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool, cursor: Cursor }) });
}
