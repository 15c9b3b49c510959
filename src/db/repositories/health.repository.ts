import { sql } from 'kysely';
import type { Database } from '../database.ts';

/** One round trip to PostgreSQL; rejects when the database does not answer. */
export async function pingDatabase(db: Database): Promise<void> {
  await sql`select 1`.execute(db);
}
