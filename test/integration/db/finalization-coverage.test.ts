import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalizeCrawl } from '../../../src/db/repositories/finalization.repository.ts';
import type { Database } from '../../../src/db/database.ts';
import type { InteractionState, ScanCoverage, ViewportName } from '../../../src/shared/contracts.ts';
import { createTestDatabase } from '../../helpers/test-env.ts';

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
});
afterAll(async () => {
  await t?.drop();
});

const MENU: InteractionState = { action: 'click', target: '#menu-button', label: 'Menu' };

/** A site with one page and four open issues from an earlier crawl: default state, behind the menu, at mobile, at desktop. */
async function seed() {
  const site = await db.insertInto('sites').values({ hostname: `x${Math.random().toString(36).slice(2)}.test`, name: 'x', base_url: 'https://x.test/' }).returning('id').executeTakeFirstOrThrow();
  const page = await db
    .insertInto('pages')
    .values({ site_id: site.id, url: 'https://x.test/', path: '/', depth: 0, discovered_via: 'root' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const issue = (fingerprint: string, state: InteractionState | null, viewport: ViewportName | null) => ({
    site_id: site.id,
    page_id: page.id,
    fingerprint,
    rule_id: 'image-alt',
    type: 'confirmed' as const,
    severity: 'critical' as const,
    wcag_criterion: '1.1.1',
    wcag_level: 'A' as const,
    element_selector: `#${fingerprint}`,
    element_html: '<img>',
    description: 'd',
    fix_suggestion: 'f',
    data: '{}',
    state: state ? JSON.stringify(state) : null,
    viewport: viewport !== null ? JSON.stringify(viewport) : null,
    status_history: '[]',
    first_seen_at: new Date(),
    last_seen_at: new Date(),
  });
  await db
    .insertInto('issues')
    .values([issue('plain', null, null), issue('menu', MENU, null), issue('mobile', null, 'mobile'), issue('desktop', null, 'desktop')])
    .execute();
  return { siteId: site.id, pageId: page.id };
}

/** A crawl that scanned the page, found nothing, and checked what `coverage` says. */
async function crawlChecking(s: { siteId: string; pageId: string }, coverage: ScanCoverage | null) {
  const crawl = await db.insertInto('crawls').values({ site_id: s.siteId, max_pages: 10, status: 'running' }).returning('id').executeTakeFirstOrThrow();
  await db
    .insertInto('page_scans')
    .values({ kind: 'crawl', crawl_id: crawl.id, page_id: s.pageId, url: 'https://x.test/', status: 'completed', score: 100, coverage: coverage ? JSON.stringify(coverage) : null })
    .execute();
  await finalizeCrawl(db, crawl.id, { cancelled: false });
  const rows = await db.selectFrom('issues').select(['fingerprint', 'status']).where('site_id', '=', s.siteId).execute();
  return Object.fromEntries(rows.map((r) => [r.fingerprint, r.status]));
}

describe('the diff finds an issue fixed only where the scan checked its viewport and state', () => {
  it('keeps open the issues of a state not opened and of a viewport not checked this time', async () => {
    const s = await seed();
    expect(await crawlChecking(s, { viewports: ['desktop'], states: [] })).toEqual({ plain: 'fixed', menu: 'open', mobile: 'open', desktop: 'fixed' });
  });

  it('finds them fixed once the state was opened and the viewport checked', async () => {
    const s = await seed();
    expect(await crawlChecking(s, { viewports: ['desktop', 'mobile'], states: ['#menu-button'] })).toEqual({ plain: 'fixed', menu: 'fixed', mobile: 'fixed', desktop: 'fixed' });
  });

  it('keeps state issues open on a scan that opened no states (states off), and reads a scan without coverage as before', async () => {
    const s = await seed();
    expect(await crawlChecking(s, null)).toEqual({ plain: 'fixed', menu: 'open', mobile: 'fixed', desktop: 'fixed' });
  });
});

describe('the diff does not find an issue fixed on a page where the engine that finds it did not finish', () => {
  it('keeps open the issues of an engine that ran out of time or failed there, and finds the finished engines\' issues fixed', async () => {
    const s = await seed();
    await db.updateTable('issues').set({ data: JSON.stringify({ engine: 'keyboard' }) }).where('fingerprint', '=', 'plain').where('site_id', '=', s.siteId).execute();
    await db.updateTable('issues').set({ data: JSON.stringify({ engine: 'axe' }) }).where('fingerprint', '=', 'desktop').where('site_id', '=', s.siteId).execute();
    await db.updateTable('issues').set({ data: JSON.stringify({ engine: 'reflow' }) }).where('fingerprint', '=', 'mobile').where('site_id', '=', s.siteId).execute();
    const coverage: ScanCoverage = {
      viewports: ['desktop', 'mobile'],
      states: ['#menu-button'],
      unfinishedEngines: [
        { engine: 'keyboard', reason: 'out_of_time' },
        { engine: 'reflow', reason: 'failed' },
      ],
    };
    expect(await crawlChecking(s, coverage)).toEqual({ plain: 'open', menu: 'fixed', mobile: 'open', desktop: 'fixed' });
  });
});
