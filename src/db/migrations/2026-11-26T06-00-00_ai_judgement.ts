import { sql, type Kysely } from 'kysely';

/**
 * AI-assisted judgement, only used when a model is configured:
 * - judgement_candidates: what a page's scan collected for the model to judge (bounded: a few
 *   dozen short texts per page), read by the ai-enrichment stage; goes with its page scan;
 * - judgement_cache: the model's verdict per scope (a site, or a single-page scan's host), kind of
 *   candidate, content hash and namespace (model and prompt version), so a rerun asks nothing new;
 * - judgement_claims: which worker is asking the model about a group right now, so that pages judged
 *   at the same moment (a template's header on two pages) wait for one answer instead of paying twice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('judgement_candidates')
    .addColumn('page_scan_id', 'uuid', (c) => c.primaryKey().references('page_scans.id').onDelete('cascade'))
    .addColumn('viewport', 'jsonb')
    .addColumn('page_lang', 'text')
    .addColumn('candidates', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('judgement_cache')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('namespace', 'text', (c) => c.notNull())
    .addColumn('fails', 'boolean', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('judgement_cache_pk', ['scope', 'kind', 'content_hash', 'namespace'])
    .execute();
  await db.schema
    .createTable('judgement_claims')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('group_hash', 'text', (c) => c.notNull())
    .addColumn('namespace', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('judgement_claims_pk', ['scope', 'group_hash', 'namespace'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('judgement_claims').execute();
  await db.schema.dropTable('judgement_cache').execute();
  await db.schema.dropTable('judgement_candidates').execute();
}
