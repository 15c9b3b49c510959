import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDownAll, migrateToLatest } from '../../../src/db/migrate.ts';
import { migrations } from '../../../src/db/migrations/index.ts';
import { createTestDatabase } from '../../helpers/test-env.ts';

describe('migrations', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database?.drop());

  const tables = async () =>
    (await sql<{ t: string }>`select table_name as t from information_schema.tables where table_schema = 'public' and table_name not like 'kysely_%' order by 1`.execute(database.db)).rows.map((r) => r.t);

  it('go all the way down and up again, and up is idempotent', async () => {
    expect(await tables()).toEqual(['crawl_pages', 'crawl_rendered_links', 'crawl_urls', 'crawls', 'enrichment_cache', 'finding_screenshots', 'findings', 'host_pacing', 'issues', 'judgement_cache', 'judgement_candidates', 'judgement_claims', 'page_scans', 'pages', 'rate_limit_windows', 'site_auth', 'site_flows', 'sites', 'webhook_deliveries', 'webhook_receiver_leases', 'webhook_receivers', 'webhooks']);
    await migrateDownAll(database.db);
    expect(await tables()).toEqual([]);
    expect(await migrateToLatest(database.db)).toHaveLength(Object.keys(migrations).length);
    expect(await migrateToLatest(database.db)).toEqual([]);
    expect(await tables()).toHaveLength(22);
  });
});
