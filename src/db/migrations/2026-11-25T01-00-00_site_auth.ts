import { sql, type Kysely } from 'kysely';

/**
 * `site_auth`: a site's authentication set-up (headers, cookies, basic credentials, scripted
 * login), one row per site. The set-up is stored only sealed (AES-256-GCM, `iv` and `tag` beside
 * it, bound to the site id); `key_id` names the SECRETS_KEY that sealed it (a hash, never the key).
 * `summary` is what the API shows: names and step shapes, no value.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table site_auth (
    site_id uuid primary key references sites (id) on delete cascade,
    ciphertext bytea not null,
    iv bytea not null,
    tag bytea not null,
    key_id text not null,
    summary jsonb not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists site_auth`.execute(db);
}
