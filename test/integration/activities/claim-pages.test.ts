import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersistenceActivities } from '../../../src/activities/persistence/index.ts';
import { registerPage } from '../../../src/db/repositories/crawl-page.repository.ts';
import { setDiscoveryDone } from '../../../src/db/repositories/crawl.repository.ts';
import type { Database } from '../../../src/db/database.ts';
import { createLogger } from '../../../src/logger.ts';
import { createTestDatabase } from '../../helpers/test-env.ts';

/**
 * The crawl loop's claim, against PostgreSQL: with `waitMs` (nothing in flight) a claim that finds
 * no page while discovery goes on waits for the page discovery registers next, rather than leaving
 * the crawl to a workflow timer.
 */
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
let activities: ReturnType<typeof createPersistenceActivities>;
beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
  activities = createPersistenceActivities({ db, logger: createLogger('test', 'silent') });
});
afterAll(async () => {
  await t?.drop();
});

async function crawlOfNewSite() {
  const host = `c${Math.random().toString(36).slice(2)}.test`;
  const site = await db.insertInto('sites').values({ hostname: host, name: host, base_url: `https://${host}/` }).returning('id').executeTakeFirstOrThrow();
  const crawl = await db.insertInto('crawls').values({ site_id: site.id, max_pages: 10, status: 'running' }).returning('id').executeTakeFirstOrThrow();
  const register = (path: string) => registerPage(db, { crawlId: crawl.id, siteId: site.id, url: `https://${host}${path}`, path, depth: 0, via: 'root', httpStatus: 200 });
  return { crawlId: crawl.id, register };
}

describe('claimPages', () => {
  it('with waitMs, hands out the page discovery registers while it waits', async () => {
    const c = await crawlOfNewSite();
    const registered = new Promise((r) => setTimeout(r, 300)).then(() => c.register('/'));
    const r = await activities.claimPages({ crawlId: c.crawlId, claimKey: 'k1', limit: 1, waitMs: 2000 });
    const { pageId } = await registered;
    expect(r).toMatchObject({ pageIds: [pageId], discoveryDone: false });
  });

  it('with waitMs, answers at once when discovery is done, and says it waited when no page came', async () => {
    const c = await crawlOfNewSite();
    const nothing = await activities.claimPages({ crawlId: c.crawlId, claimKey: 'k1', limit: 5, waitMs: 200 });
    expect(nothing).toEqual({ pageIds: [], discoveryDone: false, waited: true });
    await setDiscoveryDone(db, c.crawlId);
    const done = await activities.claimPages({ crawlId: c.crawlId, claimKey: 'k2', limit: 5, waitMs: 5000 });
    expect(done).toEqual({ pageIds: [], discoveryDone: true, waited: true });
  });

  it('with waitMs, neither waits nor says it waited for a crawl that has ended', async () => {
    const c = await crawlOfNewSite();
    await db.updateTable('crawls').set({ status: 'cancelled' }).where('id', '=', c.crawlId).execute();
    expect(await activities.claimPages({ crawlId: c.crawlId, claimKey: 'k1', limit: 5, waitMs: 5000 })).toEqual({ pageIds: [], discoveryDone: false });
  });

  it('without waitMs, answers at once and never says it waited', async () => {
    const c = await crawlOfNewSite();
    expect(await activities.claimPages({ crawlId: c.crawlId, claimKey: 'k1', limit: 5 })).toEqual({ pageIds: [], discoveryDone: false });
  });
});
