import type { Kysely } from 'kysely';

/**
 * `page_scans.flow_ran_at`: when a flow page's scan finished running the flow's steps (what the
 * flow sends was sent then). A retried page-scan activity finds it set and does not run the steps
 * again: that would send the flow's forms once more.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('page_scans').addColumn('flow_ran_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('page_scans').dropColumn('flow_ran_at').execute();
}
