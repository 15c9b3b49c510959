import { sql, type Kysely } from 'kysely';

/**
 * What a client or a scanned site could otherwise grow without end:
 * - `crawls.skipped_urls`: same-site URLs over the length a crawl follows (MAX_URL_LENGTH), skipped and counted;
 * - `issues.status_history_total`: every status change ever made, while `status_history` keeps only the
 *   last STATUS_HISTORY_CAP of them (a client toggling a status with long notes grew it without bound).
 *   `a11y_cap_status_history` drops the oldest user changes first: the crawl's own changes are what
 *   its report's New and Fixed lists read;
 * - `crawls.results_deleted_at`: when the retention setting deleted an older crawl's page scans,
 *   findings and frontier (its row, score and counts stay; issue identity is untouched).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('crawls').addColumn('skipped_urls', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('crawls').addColumn('results_deleted_at', 'timestamptz').execute();
  await db.schema.alterTable('issues').addColumn('status_history_total', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update issues set status_history_total = jsonb_array_length(status_history)`.execute(db);
  await sql`
    create or replace function a11y_cap_status_history(h jsonb, cap integer) returns jsonb
    language plpgsql immutable as $$
    declare
      excess integer := jsonb_array_length(h) - cap;
      kept jsonb := '[]'::jsonb;
      e jsonb;
    begin
      if excess <= 0 then return h; end if;
      for e in select x from jsonb_array_elements(h) as t(x) loop
        if excess > 0 and e->>'changedBy' = 'user' then
          excess := excess - 1;
        else
          kept := kept || jsonb_build_array(e);
        end if;
      end loop;
      if excess > 0 then
        kept := (select coalesce(jsonb_agg(x order by i), '[]'::jsonb) from jsonb_array_elements(kept) with ordinality as t(x, i) where i > excess);
      end if;
      return kept;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists a11y_cap_status_history(jsonb, integer)`.execute(db);
  await db.schema.alterTable('issues').dropColumn('status_history_total').execute();
  await db.schema.alterTable('crawls').dropColumn('results_deleted_at').execute();
  await db.schema.alterTable('crawls').dropColumn('skipped_urls').execute();
}
