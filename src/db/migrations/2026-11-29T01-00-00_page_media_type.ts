import type { Kysely } from 'kysely';

/**
 * Documents a site links to (PDFs) are pages of its crawls: `media_type` is the document's type
 * (`application/pdf`), null for an HTML page. Set by discovery from the answer's Content-Type.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pages').addColumn('media_type', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pages').dropColumn('media_type').execute();
}
