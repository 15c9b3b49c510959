/**
 * An issue's status history, written in SQL: the entries a crawl's diff and a person's change append.
 */
import { sql } from 'kysely';

/** now() as the contract's ISO 8601 UTC text, for status history entries written in SQL. */
export const NOW_ISO = sql`to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export function historyEntry(from: string | null, to: string, crawlId: string) {
  return sql`jsonb_build_array(jsonb_build_object('from', ${from}::text, 'to', ${to}::text, 'changedBy', 'crawl', 'crawlId', ${crawlId}::text, 'note', null, 'at', ${NOW_ISO}))`;
}

/**
 * Changes an issue's `status_history` keeps: the last 50 (the oldest user changes go first, see
 * the migration's a11y_cap_status_history); `status_history_total` counts every change ever made.
 */
export const STATUS_HISTORY_CAP = 50;

/** `status_history` and its total with `entry` (a one-element jsonb array) appended, in an UPDATE's SET. */
export function appendHistory(alias: string, entry: ReturnType<typeof sql>) {
  const h = sql.ref(`${alias}.status_history`);
  const total = sql.ref(`${alias}.status_history_total`);
  return sql`status_history = a11y_cap_status_history(${h} || ${entry}, ${STATUS_HISTORY_CAP}), status_history_total = ${total} + 1`;
}
