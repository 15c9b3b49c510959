import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { DB } from './schema.ts';

// COUNT(*) and BIGINT come back as strings by default; our counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

export type Database = Kysely<DB>;

export function createDb(connectionString: string, opts: { max?: number } = {}): Database {
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'a11y-audit',
  });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // `cursor` lets long reads (a report's every issue) stream with `.stream()` instead of loading whole.
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool, cursor: Cursor }) });
}
