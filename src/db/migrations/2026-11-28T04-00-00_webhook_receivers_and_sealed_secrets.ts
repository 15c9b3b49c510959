import { sql, type Kysely } from 'kysely';

/**
 * Webhooks that keep their secrets and their bounds:
 * - A webhook's signing secret is sealed with SECRETS_KEY (AES-256-GCM, bound to the webhook's id)
 *   in `secret_ciphertext`, `secret_iv`, `secret_tag`, `secret_key_id`, as sites' logins and flows
 *   are. `secret` keeps the plaintext of rows written before, and only until they are sealed: a
 *   migration has no key, so the worker seals them (at start-up, and on a delivery's first use of
 *   one); the check allows a row one form or the other, never both.
 * - `webhook_receivers`: the circuit breaker of each receiver (a URL origin), shared by every
 *   worker: consecutive failures, and how long and how often in a row it has been paused. A row
 *   lives only while its receiver has failures to remember.
 * - `webhook_receiver_leases`: the deliveries in flight to each receiver, each until it ends or
 *   its lease expires (a worker that died mid-attempt), so that a receiver gets at most
 *   WEBHOOK_RECEIVER_CONCURRENCY at once from all workers together.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table webhooks
      alter column secret drop not null,
      add column secret_ciphertext bytea,
      add column secret_iv bytea,
      add column secret_tag bytea,
      add column secret_key_id text,
      add constraint webhooks_secret_plain_or_sealed check (
        (secret is not null and secret_ciphertext is null and secret_iv is null and secret_tag is null and secret_key_id is null)
        or (secret is null and secret_ciphertext is not null and secret_iv is not null and secret_tag is not null and secret_key_id is not null)
      )`.execute(db);
  await sql`create index webhooks_secret_unsealed on webhooks (id) where secret is not null`.execute(db);
  await sql`
    create table webhook_receivers (
      origin text primary key,
      consecutive_failures integer not null default 0,
      pauses integer not null default 0,
      paused_until timestamptz,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table webhook_receiver_leases (
      delivery_id uuid primary key references webhook_deliveries(id) on delete cascade,
      origin text not null,
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index webhook_receiver_leases_origin on webhook_receiver_leases (origin, expires_at)`.execute(db);
}

/** Going back drops the webhooks whose secret is sealed: the old schema holds plaintext only, and a migration has no key to open them. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists webhook_receiver_leases`.execute(db);
  await sql`drop table if exists webhook_receivers`.execute(db);
  await sql`drop index if exists webhooks_secret_unsealed`.execute(db);
  await sql`delete from webhooks where secret is null`.execute(db);
  await sql`
    alter table webhooks
      drop constraint if exists webhooks_secret_plain_or_sealed,
      drop column secret_ciphertext,
      drop column secret_iv,
      drop column secret_tag,
      drop column secret_key_id,
      alter column secret set not null`.execute(db);
}
