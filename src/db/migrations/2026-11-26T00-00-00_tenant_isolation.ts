import { sql, type Kysely } from 'kysely';

/**
 * Model texts are cached per tenant: a `scope` (a site, or the host of a single-page scan) joins
 * the key. Texts a model wrote from one site's pages (their HTML and URLs, pages behind its login,
 * or a prompt injection in them) must never be served to another site. The rows cached before
 * had no scope and cannot be attributed to one, so they go.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from enrichment_cache`.execute(db);
  await db.schema.alterTable('enrichment_cache').addColumn('scope', 'text', (c) => c.notNull()).execute();
  await db.schema.alterTable('enrichment_cache').dropConstraint('enrichment_cache_pk').execute();
  await db.schema.alterTable('enrichment_cache').addPrimaryKeyConstraint('enrichment_cache_pk', ['scope', 'group_key', 'namespace']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from enrichment_cache`.execute(db);
  await db.schema.alterTable('enrichment_cache').dropConstraint('enrichment_cache_pk').execute();
  await db.schema.alterTable('enrichment_cache').dropColumn('scope').execute();
  await db.schema.alterTable('enrichment_cache').addPrimaryKeyConstraint('enrichment_cache_pk', ['group_key', 'namespace']).execute();
}
