/**
 * Seeds an ended crawl straight into the database, as finalization leaves it: pages, their scans,
 * findings, site issues with status history, a previous crawl and issues this crawl fixed. Used by
 * the export tests and by bench/reports.bench.ts (50,000 issues on 2,000 pages) without crawling.
 * (test/support: shared by test/ and bench/.)
 */
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.ts';

export interface SeededCrawl {
  siteId: string;
  crawlId: string;
  previousCrawlId: string;
  hostname: string;
  pages: number;
  issues: number;
  newIssues: number;
  fixedIssues: number;
}

/** Rules cycled through the seeded findings: id, criterion, level, severity, type, engine help. */
const RULES = [
  ['image-alt', '1.1.1', 'A', 'critical', 'confirmed', 'Images must have alternative text'],
  ['color-contrast', '1.4.3', 'AA', 'serious', 'confirmed', 'Elements must meet minimum color contrast ratio thresholds'],
  ['color-contrast', '1.4.3', 'AA', 'serious', 'needs_review', 'Elements must meet minimum color contrast ratio thresholds'],
  ['link-name', '2.4.4', 'A', 'serious', 'confirmed', 'Links must have discernible text'],
  ['label', '4.1.2', 'A', 'critical', 'confirmed', 'Form elements must have labels'],
  ['target-size', '2.5.8', 'AA', 'serious', 'confirmed', 'All touch targets must be 24px large, or leave sufficient space'],
  ['link-text-generic', '2.4.4', 'A', 'moderate', 'needs_review', 'Link text must describe the destination'],
  ['region', '1.3.1', 'A', 'moderate', 'confirmed', 'All page content should be contained by landmarks'],
  ['list', '1.3.1', 'A', 'serious', 'confirmed', '<ul> and <ol> must only directly contain <li>, <script> or <template> elements'],
  ['aria-hidden-focus', '4.1.2', 'A', 'serious', 'confirmed', 'ARIA hidden element must not be focusable or contain focusable elements'],
] as const;

const NOW_ISO = sql`to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export async function seedCrawlReport(
  db: Database,
  opts: { pages: number; issuesPerPage: number; hostname?: string; fixedIssues?: number },
): Promise<SeededCrawl> {
  const hostname = opts.hostname ?? `seeded-${Math.random().toString(36).slice(2, 8)}.example`;
  const base = `https://${hostname}`;
  const fixed = opts.fixedIssues ?? Math.max(1, Math.floor(opts.pages / 4));
  const rules = sql.join(RULES.map((r, i) => sql`(${i}::int, ${r[0]}, ${r[1]}, ${r[2]}, ${r[3]}, ${r[4]}, ${r[5]})`));

  return db.transaction().execute(async (trx) => {
    const site = await trx.insertInto('sites').values({ hostname, name: hostname, base_url: `${base}/` }).returning('id').executeTakeFirstOrThrow();
    const previous = await trx
      .insertInto('crawls')
      .values({
        site_id: site.id,
        status: 'completed',
        max_pages: 5000,
        total_pages: opts.pages,
        scanned_pages: opts.pages,
        enriched_pages: opts.pages,
        overall_score: 52,
        new_issues: opts.pages * opts.issuesPerPage,
        fixed_issues: 0,
        created_at: new Date(Date.now() - 8 * 86_400_000),
        started_at: new Date(Date.now() - 8 * 86_400_000),
        completed_at: new Date(Date.now() - 8 * 86_400_000 + 600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const crawl = await trx
      .insertInto('crawls')
      .values({
        site_id: site.id,
        status: 'completed',
        max_pages: 5000,
        total_pages: opts.pages,
        scanned_pages: opts.pages,
        enriched_pages: opts.pages,
        created_at: new Date(Date.now() - 3_600_000),
        started_at: new Date(Date.now() - 3_600_000),
        completed_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    await sql`
      insert into pages (site_id, url, path, title, depth, discovered_via, http_status, latest_score, last_scanned_at)
      select ${site.id}, ${base} || case when g = 1 then '/' else '/docs/page-' || g || '.html' end,
             case when g = 1 then '/' else '/docs/page-' || g || '.html' end,
             case when g = 2 then '=HYPERLINK("http://evil.example","x")' else 'Documentation page ' || g end,
             least(g, 4), case when g = 1 then 'root' else 'link' end, 200, 30 + (g * 37) % 70, now()
      from generate_series(1, ${opts.pages}) g`.execute(trx);
    await sql`
      insert into crawl_pages (crawl_id, page_id, depth, state)
      select ${crawl.id}, id, depth, 'enriched' from pages where site_id = ${site.id}`.execute(trx);
    await sql`
      insert into page_scans (kind, crawl_id, page_id, url, final_url, status, progress, page_title, http_status, score,
                              engine_passes, started_at, completed_at, duration_ms)
      select 'crawl', ${crawl.id}, p.id, p.url, p.url, 'completed', 100, p.title, 200, p.latest_score,
             '[{"ruleId":"document-title","help":"Documents must have <title> element to aid in navigation","wcagCriterion":"2.4.2","elements":1},
               {"ruleId":"button-name","help":"Buttons must have discernible text","wcagCriterion":"4.1.2","elements":3},
               {"ruleId":"html-has-lang","help":"<html> element must have a lang attribute","wcagCriterion":"3.1.1","elements":1}]'::jsonb,
             now() - interval '1 minute', now(), 1800
      from pages p where p.site_id = ${site.id}`.execute(trx);
    await sql`
      insert into findings (page_scan_id, rule_id, type, severity, wcag_criterion, wcag_level, element_selector, element_html,
                            engine_help, engine_description, failure_summary, help_url, description, fix_suggestion, enriched_by,
                            data, fingerprint)
      select ps.id, r.rule_id, r.type, r.severity, r.sc, r.level,
             case when k = 1 and ps.url like '%/page-3.html' then '@SUM(1+1)' else '#content > section:nth-child(' || k || ') > a.item-' || k end,
             '<a href="/docs/topic-' || k || '.html" class="item">' || case when k = 1 then '=cmd|'' /C calc''!A0' else 'Read more about topic ' || k end || '</a>',
             r.help, r.help || ' (engine description)', 'Fix any of the following: element has no accessible name',
             'https://dequeuniversity.com/rules/axe/4.14/' || r.rule_id,
             r.help || '. People who use screen readers cannot tell what this element is for.',
             'Give the element a name that says what it does, e.g. <a href="/docs/topic-' || k || '.html">Read the topic ' || k || ' guide</a>.',
             'offline', case when k % 7 = 0 then '{"alsoFlaggedBy":["target-size-mobile"]}'::jsonb else '{}'::jsonb end,
             md5(ps.url || ' ' || r.rule_id || ' ' || k)
      from page_scans ps
      cross join generate_series(1, ${opts.issuesPerPage}) k
      join (values ${rules}) as r(idx, rule_id, sc, level, severity, type, help) on r.idx = (k - 1) % ${RULES.length}
      where ps.crawl_id = ${crawl.id}`.execute(trx);

    // Every tenth issue is new in this crawl (every twentieth of those was fixed before and came
    // back: reopened); the rest were first found by the previous crawl.
    const history = (crawlId: string, from: string | null, to: string) =>
      sql`jsonb_build_object('from', ${from}::text, 'to', ${to}::text, 'changedBy', 'crawl', 'crawlId', ${crawlId}::text, 'note', null, 'at', ${NOW_ISO})`;
    await sql`
      insert into issues (site_id, page_id, fingerprint, rule_id, type, severity, wcag_criterion, wcag_level, element_selector,
                          element_html, description, fix_suggestion, help_url, data, status, status_history, last_finding_id,
                          first_crawl_id, last_crawl_id, first_seen_at, last_seen_at)
      select ${site.id}, ps.page_id, f.fingerprint, f.rule_id, f.type, f.severity, f.wcag_criterion, f.wcag_level, f.element_selector,
             f.element_html, f.description, f.fix_suggestion, f.help_url, f.data,
             case when row_number() over (order by f.id) % 13 = 0 then 'dismissed' else 'open' end,
             case when row_number() over (order by f.id) % 200 = 0
                    then jsonb_build_array(${history(previous.id, null, 'open')}, ${history(previous.id, 'open', 'fixed')}, ${history(crawl.id, 'fixed', 'open')})
                  when row_number() over (order by f.id) % 10 = 0 then jsonb_build_array(${history(crawl.id, null, 'open')})
                  else jsonb_build_array(${history(previous.id, null, 'open')}) end,
             f.id, ${previous.id}, ${crawl.id}, now() - interval '8 days', now()
      from findings f join page_scans ps on ps.id = f.page_scan_id
      where ps.crawl_id = ${crawl.id}`.execute(trx);
    // Issues the previous crawl found that this crawl no longer sees.
    await sql`
      insert into issues (site_id, page_id, fingerprint, rule_id, type, severity, wcag_criterion, wcag_level, element_selector,
                          element_html, description, fix_suggestion, help_url, data, status, status_history,
                          first_crawl_id, last_crawl_id, first_seen_at, last_seen_at)
      select ${site.id}, p.id, md5('fixed ' || g), 'image-alt', 'confirmed', 'critical', '1.1.1', 'A', '#hero-' || g,
             '<img src="/img/hero-' || g || '.png">', 'Images must have alternative text.', 'Add an alt attribute.',
             'https://dequeuniversity.com/rules/axe/4.14/image-alt', '{}'::jsonb, 'fixed',
             jsonb_build_array(${history(previous.id, null, 'open')}, ${history(crawl.id, 'open', 'fixed')}),
             ${previous.id}, ${previous.id}, now() - interval '8 days', now() - interval '8 days'
      from generate_series(1, ${fixed}) g
      join lateral (select id from pages where site_id = ${site.id} order by url offset (g % ${opts.pages}) limit 1) p on true`.execute(trx);

    const counts = await sql<{ issues: number; new_issues: number; score: number }>`
      select (select count(*)::int from findings f join page_scans ps on ps.id = f.page_scan_id where ps.crawl_id = ${crawl.id}) as issues,
             (select count(*)::int from issues where site_id = ${site.id}
                and status_history @> ${JSON.stringify([{ crawlId: crawl.id, to: 'open' }])}::jsonb) as new_issues,
             (select round(avg(score))::int from page_scans where crawl_id = ${crawl.id}) as score`.execute(trx);
    const c = counts.rows[0]!;
    await trx.updateTable('crawls').set({ overall_score: c.score, new_issues: c.new_issues, fixed_issues: fixed }).where('id', '=', crawl.id).execute();
    return {
      siteId: site.id,
      crawlId: crawl.id,
      previousCrawlId: previous.id,
      hostname,
      pages: opts.pages,
      issues: c.issues,
      newIssues: c.new_issues,
      fixedIssues: fixed,
    };
  });
}
