import { sql, type Kysely } from 'kysely';

/**
 * The issue list is ordered by severity, then page URL, then id (contract). Sorting 50,000 joined
 * rows per request cost about 100 ms of CPU, so the order becomes an index:
 * - `issues.severity_rank`, generated from `severity` (critical 0 .. minor 3);
 * - `issues.page_url`, the URL of the issue's page, kept by a trigger whoever writes the row;
 * - indexes on (site, rank, URL, id), alone and after the status or the rule and type filters,
 *   so a page of the list, even far down, is read from an index (the rows themselves by id).
 * `sites.issues_version` counts changes to a site's issues (a statement trigger per write), so
 * counts and issue groups computed for one version can be reused until the next change.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table issues add column severity_rank smallint generated always as (
    case severity when 'critical' then 0 when 'serious' then 1 when 'moderate' then 2 else 3 end) stored`.execute(db);
  await sql`alter table issues add column page_url text`.execute(db);
  await sql`update issues i set page_url = p.url from pages p where p.id = i.page_id`.execute(db);
  await sql`alter table issues alter column page_url set not null`.execute(db);
  await sql`create function issues_set_page_url() returns trigger language plpgsql as $$
    begin
      new.page_url := (select url from pages where id = new.page_id);
      return new;
    end $$`.execute(db);
  await sql`create trigger issues_page_url before insert or update of page_id on issues
    for each row execute function issues_set_page_url()`.execute(db);
  await sql`create index issues_list_idx on issues (site_id, severity_rank, page_url, id)`.execute(db);
  await sql`create index issues_list_status_idx on issues (site_id, status, severity_rank, page_url, id)`.execute(db);
  // The page list's open-issue counts per severity, read from the index alone.
  await sql`create index issues_page_counts_idx on issues (page_id, status, severity)`.execute(db);
  await sql`create index issues_list_rule_idx on issues (site_id, rule_id, type, severity_rank, page_url, id)`.execute(db);

  await sql`alter table sites add column issues_version bigint not null default 0`.execute(db);
  // Transition tables allow one event per trigger: three triggers, one function per table name.
  for (const [event, table] of [['insert', 'new_rows'], ['update', 'new_rows'], ['delete', 'old_rows']] as const) {
    await sql`create function ${sql.raw(`issues_bump_version_${event}`)}() returns trigger language plpgsql as ${sql.lit(`
      begin
        update sites set issues_version = issues_version + 1 where id in (select distinct site_id from ${table});
        return null;
      end`)}`.execute(db);
    await sql`create trigger ${sql.raw(`issues_version_${event}`)} after ${sql.raw(event)} on issues
      referencing ${sql.raw(table === 'old_rows' ? 'old table as old_rows' : 'new table as new_rows')}
      for each statement execute function ${sql.raw(`issues_bump_version_${event}`)}()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) {
    await sql`drop trigger if exists ${sql.raw(`issues_version_${event}`)} on issues`.execute(db);
    await sql`drop function if exists ${sql.raw(`issues_bump_version_${event}`)}()`.execute(db);
  }
  await sql`alter table sites drop column if exists issues_version`.execute(db);
  await sql`drop index if exists issues_list_rule_idx`.execute(db);
  await sql`drop index if exists issues_page_counts_idx`.execute(db);
  await sql`drop index if exists issues_list_status_idx`.execute(db);
  await sql`drop index if exists issues_list_idx`.execute(db);
  await sql`drop trigger if exists issues_page_url on issues`.execute(db);
  await sql`drop function if exists issues_set_page_url()`.execute(db);
  await sql`alter table issues drop column if exists page_url`.execute(db);
  await sql`alter table issues drop column if exists severity_rank`.execute(db);
}
