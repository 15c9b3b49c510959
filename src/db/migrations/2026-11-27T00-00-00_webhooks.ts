import { sql, type Kysely } from 'kysely';

/**
 * Webhooks: a site's (`site_id`) or one single-page scan's (`scan_id`, from
 * `webhookUrl`), each with its signing secret, and one delivery row per event and subject (a
 * crawl or a scan), with its attempts: the delivery log. A site's webhook is known by its URL, so
 * a PUT that keeps a URL keeps its id, secret and log.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table webhooks (
      id uuid primary key default gen_random_uuid(),
      site_id uuid references sites(id) on delete cascade,
      scan_id uuid references page_scans(id) on delete cascade,
      url text not null,
      events text[] not null,
      secret text not null,
      new_issues_threshold integer not null default 1,
      score_drop_threshold integer not null default 5,
      position integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint webhooks_one_owner check ((site_id is null) <> (scan_id is null))
    )`.execute(db);
  await sql`create unique index webhooks_site_url on webhooks (site_id, url) where site_id is not null`.execute(db);
  await sql`create index webhooks_scan on webhooks (scan_id) where scan_id is not null`.execute(db);
  await sql`
    create table webhook_deliveries (
      id uuid primary key default gen_random_uuid(),
      webhook_id uuid not null references webhooks(id) on delete cascade,
      event text not null,
      subject_id uuid not null,
      payload jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      last_status_code integer,
      last_error text,
      created_at timestamptz not null default now(),
      last_attempt_at timestamptz,
      delivered_at timestamptz,
      unique (webhook_id, event, subject_id)
    )`.execute(db);
  await sql`create index webhook_deliveries_log on webhook_deliveries (webhook_id, created_at desc, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists webhook_deliveries`.execute(db);
  await sql`drop table if exists webhooks`.execute(db);
}
