import { sql, type Kysely } from 'kysely';

/**
 * Issue groups and what enrichment costs:
 * - findings and issues carry the group key of their rule and template element;
 * - enrichment_cache keeps a model's texts per group key and namespace (model and prompt version), so a
 *   re-crawl pays only for groups it has not seen; `pending` rows are claims that keep two workers
 *   from paying for the same group at once;
 * - crawls count model calls, cache hits and tokens.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('findings').addColumn('group_key', 'text').execute();
  await db.schema.alterTable('issues').addColumn('group_key', 'text').execute();
  await db.schema.createIndex('issues_site_group_idx').on('issues').columns(['site_id', 'group_key']).execute();
  await db.schema
    .createTable('enrichment_cache')
    .addColumn('group_key', 'text', (c) => c.notNull())
    .addColumn('namespace', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'done')`))
    .addColumn('description', 'text')
    .addColumn('fix_suggestion', 'text')
    .addColumn('input_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('output_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('enrichment_cache_pk', ['group_key', 'namespace'])
    .execute();
  for (const col of ['ai_calls', 'ai_cache_hits', 'ai_input_tokens', 'ai_output_tokens']) {
    await db.schema.alterTable('crawls').addColumn(col, 'integer', (c) => c.notNull().defaultTo(0)).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const col of ['ai_calls', 'ai_cache_hits', 'ai_input_tokens', 'ai_output_tokens']) {
    await db.schema.alterTable('crawls').dropColumn(col).execute();
  }
  await db.schema.dropTable('enrichment_cache').execute();
  await db.schema.dropIndex('issues_site_group_idx').execute();
  await db.schema.alterTable('issues').dropColumn('group_key').execute();
  await db.schema.alterTable('findings').dropColumn('group_key').execute();
}
