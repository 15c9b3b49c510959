import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCrawlReport, type SeededCrawl } from '../../support/seed-report.ts';
import { createTestEnv, type TestEnv } from '../../helpers/test-env.ts';

/**
 * Every criterion an issue fails (issue 31): `wcagCriteria`, the primary first. The list and group
 * filters `wcagCriterion` and `wcagLevel` match any of them, not only the primary; rows written
 * without criteria (as the seed writes them, and as rows stored before the migration were) carry
 * their primary.
 */
describe('issues: wcagCriteria and the criterion filters', () => {
  let env: TestEnv;
  let seeded: SeededCrawl;
  let unlabelled: string;
  let emptyHeading: string;
  beforeAll(async () => {
    env = await createTestEnv({ workers: false });
    seeded = await seedCrawlReport(env.db, { pages: 3, issuesPerPage: 4 });
    // Issues this crawl found (the seed also has issues an earlier crawl found and this one did
    // not: no finding of this crawl to carry their criteria, so no group of it either).
    const ids = await env.db
      .selectFrom('issues')
      .select(['id', 'fingerprint'])
      .where('site_id', '=', seeded.siteId)
      .where('last_crawl_id', '=', seeded.crawlId)
      .where('status', '=', 'open')
      .orderBy('id')
      .execute();
    // An unlabelled field (4.1.2, also 3.3.2) and an empty heading (1.3.1 A, also 2.4.6 AA), in the
    // issue and in the crawl's findings it comes from.
    const set = async (i: number, criteria: string[]) => {
      const row = ids[i]!;
      const values = { rule_id: i === 0 ? 'label' : 'empty-heading', wcag_criterion: criteria[0]!, wcag_level: 'A' as const, wcag_criteria: criteria };
      await env.db.updateTable('issues').set(values).where('id', '=', row.id).execute();
      await env.db.updateTable('findings').set(values).where('fingerprint', '=', row.fingerprint).execute();
      return row.id;
    };
    unlabelled = await set(0, ['4.1.2', '3.3.2']);
    emptyHeading = await set(1, ['1.3.1', '2.4.6']);
  });
  afterAll(async () => env?.close());

  const list = async (q: string) => (await (await env.request(`/api/sites/${seeded.siteId}/issues?limit=100&${q}`)).json()) as { data: any[]; pagination: { total: number } };

  it('lists every issue with its criteria, the primary first; a row written without them has its primary', async () => {
    const all = await list('');
    expect(all.data.length).toBe(all.pagination.total);
    for (const i of all.data) expect(i.wcagCriteria[0], i.id).toBe(i.wcagCriterion);
    expect(all.data.find((i) => i.id === unlabelled).wcagCriteria).toEqual(['4.1.2', '3.3.2']);
    const others = all.data.filter((i) => i.id !== unlabelled && i.id !== emptyHeading);
    for (const i of others) expect(i.wcagCriteria).toEqual([i.wcagCriterion]);
    const detail = await (await env.request(`/api/sites/${seeded.siteId}/issues/${unlabelled}`)).json();
    expect(detail.wcagCriteria).toEqual(['4.1.2', '3.3.2']);
  });

  it('finds an issue by a further criterion, and counts it in the total', async () => {
    const byFurther = await list('wcagCriterion=3.3.2');
    expect(byFurther.data.map((i) => i.id)).toContain(unlabelled);
    for (const i of byFurther.data) expect(i.wcagCriteria).toContain('3.3.2');
    expect(byFurther.pagination.total).toBe(byFurther.data.length);
    const byPrimary = await list('wcagCriterion=4.1.2');
    expect(byPrimary.data.map((i) => i.id)).toContain(unlabelled);
    expect((await list('wcagCriterion=2.4.6')).data.map((i) => i.id)).toEqual([emptyHeading]);
  });

  it('matches wcagLevel against the level of any criterion: an A issue with an AA criterion is in both lists', async () => {
    const aa = await list('wcagLevel=AA');
    expect(aa.data.map((i) => i.id)).toContain(emptyHeading);
    expect(aa.data.map((i) => i.id)).not.toContain(unlabelled);
    const a = await list('wcagLevel=A');
    expect(a.data.map((i) => i.id)).toEqual(expect.arrayContaining([emptyHeading, unlabelled]));
    expect(a.data.find((i) => i.id === emptyHeading).wcagLevel).toBe('A');
  });

  it('filters and describes issue groups by any criterion too', async () => {
    const groups = await (await env.request(`/api/sites/${seeded.siteId}/issue-groups?crawlId=${seeded.crawlId}&wcagCriterion=2.4.6&limit=100`)).json();
    expect(groups.data.length).toBeGreaterThan(0);
    for (const g of groups.data) expect(g.wcagCriteria).toContain('2.4.6');
    expect(groups.data.map((g: any) => g.example.issueId)).toContain(emptyHeading);
  });

  it('refuses a criterion filter that is not a criterion number', async () => {
    expect((await env.request(`/api/sites/${seeded.siteId}/issues?wcagCriterion=abc`)).status).toBe(400);
  });
});
