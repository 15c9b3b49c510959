import { sql, type Kysely } from 'kysely';

/**
 * - `crawls.workflow_id`: the Temporal workflow running the crawl, written when the workflow opens
 *   it. A crawl the API starts runs as `crawl-<id>`; one a Temporal Schedule starts gets the
 *   schedule's own workflow id, so cancelling looks it up here.
 * - `crawls.issue_counts`: the issues the crawl found, by severity (`{critical, serious, moderate,
 *   minor}`), written at finalization, for the site's trend. Ended crawls get theirs from their
 *   findings now.
 * - Live progress: `event_seq` on crawls and single-page scans counts their changes (1 when
 *   written, one more per update), and every write sends `pg_notify('a11y_events', 'crawl:<id>')`
 *   or `'scan:<id>'` when its transaction commits, so every API process can push the new state to
 *   its event-stream clients; `event_seq` is the stream's event id (`Last-Event-ID` resumes).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table crawls add column workflow_id text`.execute(db);
  await sql`alter table crawls add column issue_counts jsonb`.execute(db);
  await sql`
    update crawls c set issue_counts = counts.j
    from (
      select ps.crawl_id,
             json_build_object(
               'critical', count(distinct f.fingerprint) filter (where f.severity = 'critical'),
               'serious', count(distinct f.fingerprint) filter (where f.severity = 'serious'),
               'moderate', count(distinct f.fingerprint) filter (where f.severity = 'moderate'),
               'minor', count(distinct f.fingerprint) filter (where f.severity = 'minor'))::jsonb as j
      from page_scans ps join findings f on f.page_scan_id = ps.id
      where ps.kind = 'crawl' and ps.status in ('completed', 'completed_partial')
      group by ps.crawl_id
    ) counts
    where counts.crawl_id = c.id and c.status in ('completed', 'completed_partial', 'cancelled', 'failed')`.execute(db);
  await sql`update crawls set issue_counts = '{"critical":0,"serious":0,"moderate":0,"minor":0}'::jsonb
            where issue_counts is null and status in ('completed', 'completed_partial', 'cancelled', 'failed')`.execute(db);
  // The trend: a site's ended crawls, newest first.
  await sql`create index crawls_trend_idx on crawls (site_id, completed_at desc, id desc) where completed_at is not null`.execute(db);

  await sql`alter table crawls add column event_seq bigint not null default 1`.execute(db);
  await sql`alter table page_scans add column event_seq bigint not null default 1`.execute(db);
  await sql`create function a11y_bump_event_seq() returns trigger language plpgsql as $$
    begin
      new.event_seq := old.event_seq + 1;
      return new;
    end $$`.execute(db);
  await sql`create trigger crawls_event_seq before update on crawls for each row execute function a11y_bump_event_seq()`.execute(db);
  await sql`create trigger page_scans_event_seq before update on page_scans for each row when (old.kind = 'single') execute function a11y_bump_event_seq()`.execute(db);
  await sql`create function a11y_notify_event() returns trigger language plpgsql as $$
    begin
      perform pg_notify('a11y_events', tg_argv[0] || ':' || new.id);
      return null;
    end $$`.execute(db);
  await sql`create trigger crawls_notify after insert or update on crawls for each row execute function a11y_notify_event('crawl')`.execute(db);
  await sql`create trigger page_scans_notify after insert or update on page_scans for each row when (new.kind = 'single') execute function a11y_notify_event('scan')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists page_scans_notify on page_scans`.execute(db);
  await sql`drop trigger if exists crawls_notify on crawls`.execute(db);
  await sql`drop function if exists a11y_notify_event()`.execute(db);
  await sql`drop trigger if exists page_scans_event_seq on page_scans`.execute(db);
  await sql`drop trigger if exists crawls_event_seq on crawls`.execute(db);
  await sql`drop function if exists a11y_bump_event_seq()`.execute(db);
  await sql`alter table page_scans drop column if exists event_seq`.execute(db);
  await sql`alter table crawls drop column if exists event_seq`.execute(db);
  await sql`drop index if exists crawls_trend_idx`.execute(db);
  await sql`alter table crawls drop column if exists issue_counts`.execute(db);
  await sql`alter table crawls drop column if exists workflow_id`.execute(db);
}
