import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCrawlReport, type SeededCrawl } from '../../support/seed-report.ts';
import { createTestEnv, type TestEnv } from '../../helpers/test-env.ts';

/**
 * The issue list reads its order from an index (severity rank and page URL kept on the issue) and
 * reuses counts and issue groups for one version of the site's issues: a status change must show
 * at once in totals, filters and groups, however many times the same list was read before.
 */
describe('issue lists: index order and answers reused per issues version', () => {
  let env: TestEnv;
  let seeded: SeededCrawl;
  beforeAll(async () => {
    env = await createTestEnv({ workers: false });
    seeded = await seedCrawlReport(env.db, { pages: 6, issuesPerPage: 5 });
  });
  afterAll(async () => env?.close());

  const get = async (path: string) => (await env.request(`/api/sites/${seeded.siteId}${path}`)).json();

  it('orders issues by severity, then page URL, then id, across pages of the list', async () => {
    const all: any[] = [];
    for (let offset = 0; ; offset += 7) {
      const page = await get(`/issues?limit=7&offset=${offset}`);
      all.push(...page.data);
      if (page.data.length < 7) break;
    }
    const rank = { critical: 0, serious: 1, moderate: 2, minor: 3 } as const;
    const sorted = [...all].sort(
      (a, b) => rank[a.severity as keyof typeof rank] - rank[b.severity as keyof typeof rank] || (a.pageUrl < b.pageUrl ? -1 : a.pageUrl > b.pageUrl ? 1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    expect(all.map((i) => i.id)).toEqual(sorted.map((i) => i.id));
    expect(all.length).toBe((await get('/issues?limit=1')).pagination.total);
    const pages = await env.db.selectFrom('pages').select(['id', 'url']).where('site_id', '=', seeded.siteId).execute();
    const urlOf = new Map(pages.map((p) => [p.id, p.url]));
    for (const i of all) expect(i.pageUrl).toBe(urlOf.get(i.pageId));
  });

  it('reads a page from where an earlier page ended, with the rows a read from the start gives, also after the order changed', async () => {
    const site = await seedCrawlReport(env.db, { pages: 5, issuesPerPage: 6 });
    const list = async (q: string) => (await (await env.request(`/api/sites/${site.siteId}/issues?${q}`)).json()).data.map((i: any) => i.id);
    const truth = await list('limit=100');
    const n = truth.length;
    expect(n).toBeGreaterThanOrEqual(30);
    // Paging through leaves a bookmark at the end of each page; the next pages read on from them.
    const paged: string[] = [];
    for (let offset = 0; offset < n; offset += 4) paged.push(...(await list(`limit=4&offset=${offset}`)));
    expect(paged).toEqual(truth);
    expect(await list('limit=5&offset=9')).toEqual(truth.slice(9, 14));
    expect(await list(`limit=3&offset=${n - 3}`)).toEqual(truth.slice(n - 3));
    expect(await list(`limit=3&offset=${n}`)).toEqual([]);
    // A page read at a fresh offset also bookmarks its own start (the row before it), so the same
    // deep page read again, or a page starting just after it, reads on from there.
    const open = await list('status=open&limit=100');
    expect(await list('status=open&limit=3&offset=10')).toEqual(open.slice(10, 13));
    expect(await list('status=open&limit=2&offset=10')).toEqual(open.slice(10, 12));
    expect(await list('status=open&limit=2&offset=11')).toEqual(open.slice(11, 13));
    expect(await list('status=open&limit=3&offset=10')).toEqual(open.slice(10, 13));
    // The first rows move to the end of the list: a bookmark taken before must not be read on from.
    const moved = truth.slice(0, 6);
    await env.db.updateTable('issues').set({ severity: 'minor', page_url: 'https://zzz.example/last' }).where('id', 'in', moved).execute();
    const after = await list('limit=5&offset=9');
    const fresh = await list('limit=100');
    expect(fresh.slice(-6).sort()).toEqual([...moved].sort());
    expect(after).toEqual(fresh.slice(9, 14));
  });

  it('lists each issue exactly as its own detail shows it (without the status history), odd content included', async () => {
    const odd = await seedCrawlReport(env.db, { pages: 2, issuesPerPage: 3 });
    const ids = (await env.db.selectFrom('issues').select('id').where('site_id', '=', odd.siteId).orderBy('id').execute()).map((r) => r.id);
    const oddities = [
      { element_html: '<p title="a &quot;b&quot;">\u0001 \\ "quoted" \u2028 \ud83d\ude00 </script></p>', description: 'Tab\there\nnew line', data: '{}', help_url: null, group_key: null },
      { element_html: '<img alt="">', data: JSON.stringify({ alsoFlaggedBy: 'not-a-list', contrast: { ratioRange: [1.2, 4.4] } }) },
      { element_html: '<a>ü é 漢字</a>', data: JSON.stringify({ alsoFlaggedBy: ['forms-label', 'page-title-shared'], element: { tag: 'a', text: 'x' } }) },
    ];
    for (const [i, set] of oddities.entries()) {
      await env.db.updateTable('issues').set(set as never).where('id', '=', ids[i]!).execute();
    }
    const list = await (await env.request(`/api/sites/${odd.siteId}/issues?limit=100`)).json();
    expect(list.data.length).toBe(ids.length);
    expect(list.pagination).toEqual({ total: ids.length, limit: 100, offset: 0, count: ids.length });
    for (const item of list.data) {
      const { statusHistory, statusHistoryTotal, ...detail } = await (await env.request(`/api/sites/${odd.siteId}/issues/${item.id}`)).json();
      expect(Array.isArray(statusHistory)).toBe(true);
      expect(statusHistoryTotal).toBe(statusHistory.length);
      expect(item).toEqual(detail);
    }
    const byId = Object.fromEntries(list.data.map((i: any) => [i.id, i]));
    expect(byId[ids[0]!]).toMatchObject({ alsoFlaggedBy: [], evidence: {}, helpUrl: null, groupKey: null, description: 'Tab\there\nnew line' });
    expect(byId[ids[1]!]).toMatchObject({ alsoFlaggedBy: [], evidence: { contrast: { ratioRange: [1.2, 4.4] } } });
    expect(byId[ids[2]!]).toMatchObject({ alsoFlaggedBy: ['forms-label', 'page-title-shared'], evidence: { element: { tag: 'a', text: 'x' } }, elementHtml: '<a>ü é 漢字</a>' });
  });

  it('shows a status change at once in totals, filters and groups read before it', async () => {
    const open = await get('/issues?status=open&limit=100');
    const dismissedBefore = (await get('/issues?status=dismissed')).pagination.total;
    const groupsBefore = await get('/issue-groups?status=open&limit=100');
    // A group whose open members are all dismissed leaves the open groups and joins the dismissed ones.
    const target = groupsBefore.data[0];
    const key: string = target.groupKey;
    const members = await env.db
      .selectFrom('issues')
      .select('id')
      .where('site_id', '=', seeded.siteId)
      .where('status', '=', 'open')
      .where(key.startsWith('finding:') ? 'fingerprint' : 'group_key', '=', key.replace(/^finding:/, ''))
      .execute();
    expect(members.length).toBeGreaterThan(0);
    for (const m of members) {
      const res = await env.request(`/api/sites/${seeded.siteId}/issues/${m.id}`, { method: 'PATCH', json: { status: 'dismissed' } });
      expect(res.status).toBe(200);
    }
    expect((await get('/issues?status=open')).pagination.total).toBe(open.pagination.total - members.length);
    expect((await get('/issues?status=dismissed')).pagination.total).toBe(dismissedBefore + members.length);
    const groupsAfter = await get('/issue-groups?status=open&limit=100');
    expect(groupsAfter.pagination.total).toBe(groupsBefore.pagination.total - 1);
    expect(groupsAfter.data.map((g: any) => g.groupKey)).not.toContain(target.groupKey);
    expect((await get('/issue-groups?status=dismissed')).data.map((g: any) => g.groupKey)).toContain(target.groupKey);
  });

  it('bumps the site issues version on every write to its issues, and only that site', async () => {
    const other = await seedCrawlReport(env.db, { pages: 1, issuesPerPage: 1 });
    const version = async (id: string) => (await env.db.selectFrom('sites').select('issues_version').where('id', '=', id).executeTakeFirstOrThrow()).issues_version;
    const [a, b] = [await version(seeded.siteId), await version(other.siteId)];
    await env.db.updateTable('issues').set({ description: 'changed' }).where('site_id', '=', seeded.siteId).execute();
    expect(BigInt(await version(seeded.siteId))).toBeGreaterThan(BigInt(a));
    expect(await version(other.siteId)).toBe(b);
  });
});
