import { sql, type Kysely } from 'kysely';

/**
 * Every criterion a finding and an issue fail: `wcag_criteria`, the primary
 * (`wcag_criterion`) first. Rows stored before have their one criterion. A row written without
 * criteria (an older writer, a hand-made row) gets its primary by a trigger, so the column is
 * never empty and the list filters (`= any`) never miss a row. The level of a row already stored
 * stays: with one criterion it is that criterion's level.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['findings', 'issues']) {
    await sql`alter table ${sql.table(table)} add column wcag_criteria text[] not null default '{}'`.execute(db);
    await sql`update ${sql.table(table)} set wcag_criteria = array[wcag_criterion]`.execute(db);
  }
  await sql`
    create function a11y_fill_wcag_criteria() returns trigger language plpgsql as $$
    begin
      if new.wcag_criteria is null or cardinality(new.wcag_criteria) = 0 then
        new.wcag_criteria := array[new.wcag_criterion];
      elsif new.wcag_criteria[1] is distinct from new.wcag_criterion then
        new.wcag_criteria := array[new.wcag_criterion] || array_remove(new.wcag_criteria, new.wcag_criterion);
      end if;
      return new;
    end $$`.execute(db);
  for (const table of ['findings', 'issues']) {
    await sql`create trigger ${sql.raw(`${table}_fill_wcag_criteria`)} before insert or update of wcag_criterion, wcag_criteria on ${sql.table(table)}
      for each row execute function a11y_fill_wcag_criteria()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['findings', 'issues']) {
    await sql`drop trigger if exists ${sql.raw(`${table}_fill_wcag_criteria`)} on ${sql.table(table)}`.execute(db);
    await sql`alter table ${sql.table(table)} drop column if exists wcag_criteria`.execute(db);
  }
  await sql`drop function if exists a11y_fill_wcag_criteria()`.execute(db);
}
