import { sql, type Kysely } from 'kysely';

/**
 * One finding per element and criterion of a page scan, per interaction state and viewport: a
 * crawl that checks a page at desktop and mobile stores one barrier found at both as two findings
 * (two issues, told apart by their fingerprints). The constraint keeps its name, which the crawl's
 * finalization names in its upsert of crawl-level findings; NULLS NOT DISTINCT (PostgreSQL 15)
 * keeps findings without a state or viewport one per element and criterion, as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table findings drop constraint if exists findings_scan_element_criterion_uq`.execute(db);
  await sql`alter table findings add constraint findings_scan_element_criterion_uq
    unique nulls not distinct (page_scan_id, wcag_criterion, element_selector, state, viewport)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table findings drop constraint if exists findings_scan_element_criterion_uq`.execute(db);
  // Findings of other states and viewports than the first of an element and criterion cannot stay.
  await sql`delete from findings a using findings b
    where a.page_scan_id = b.page_scan_id and a.wcag_criterion = b.wcag_criterion and a.element_selector = b.element_selector and a.ctid > b.ctid`.execute(db);
  await sql`alter table findings add constraint findings_scan_element_criterion_uq unique (page_scan_id, wcag_criterion, element_selector)`.execute(db);
}
