// Re-crawls at the cost of what changed (issue 42, item 3). Serves the ipython-docs corpus (a copy
// in a temporary folder, so that a tenth of its pages can be changed) from a loopback server that
// answers ETag / Last-Modified and 304 as nginx does, starts `npm start`'s whole stack, and crawls
// the site three times:
//   1. the first crawl: every page audited in the browser;
//   2. again without change: every page should reuse its last audit (no tab opened), 0 new and
//      0 fixed issues and the same open issue ids; prints `re-crawl unchanged/first: X` (aim 0.1,
//      bound 0.25) with both durations;
//   3. with a tenth of the pages changed (every tenth page by URL): half get a planted barrier (an
//      image without a text alternative), half lose one (`lang` added to their <html>): exactly
//      those should be audited afresh, the planted barriers found new and the removed ones fixed.
// Asserts nothing; prints the figures.
//   node bench/recrawl.bench.ts [maxPages=60]
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack } from './stack.ts';
import { startStaticServer } from '../test/support/static-server.ts';

const maxPages = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 60);
const corpus = path.resolve('..', 'shared', 'corpora', 'ipython-docs', 'site');
const root = mkdtempSync(path.join(tmpdir(), 'recrawl-'));
cpSync(corpus, root, { recursive: true });
const server = await startStaticServer({}, { root, rootRedirect: '/3/index.html', validators: true });
const stack = await startStack('bench-recrawl', { MAX_CRAWL_PAGES: String(Math.max(maxPages, 1000)) });
const call = stack.call;

async function crawl(): Promise<{ crawl: any; seconds: number }> {
  const t0 = performance.now();
  const { crawlId } = await call(`/api/sites/${site.id}/crawl`, { method: 'POST', body: JSON.stringify({ maxPages }) });
  for (;;) {
    const c = await call(`/api/sites/${site.id}/crawls/${crawlId}`);
    if (!['queued', 'running'].includes(c.status)) return { crawl: c, seconds: (performance.now() - t0) / 1000 };
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function all(pathAndQuery: string): Promise<any[]> {
  const out: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await call(`${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}limit=100&offset=${offset}`);
    out.push(...page.data);
    if (page.data.length < 100) return out;
  }
}

/** Open issues by id, with their page and criterion. */
const openIssues = async () => (await all(`/api/sites/${site.id}/issues?status=open`)).map((i) => ({ id: i.id as string, page: i.pageUrl as string, criterion: i.wcagCriterion as string }));

/** The pages scanned by `crawlId` and whether their scan reused an earlier audit. */
async function scansOf(crawlId: string): Promise<Map<string, boolean>> {
  const pages = await all(`/api/sites/${site.id}/pages`);
  const out = new Map<string, boolean>();
  for (const p of pages) {
    const detail = await call(`/api/sites/${site.id}/pages/${p.id}`);
    const scan = detail.scans.find((s: any) => s.crawlId === crawlId);
    if (scan && scan.status !== 'failed') out.set(p.url, scan.reusedFrom !== null);
  }
  return out;
}

const site = await call('/api/sites', { method: 'POST', body: JSON.stringify({ url: `${server.origin}/` }) });
try {
  const first = await crawl();
  console.log(`first crawl: ${first.crawl.status}, ${first.crawl.scannedPages} pages scanned, ${first.crawl.failedPages} failed, in ${first.seconds.toFixed(1)} s`);
  const before = await openIssues();

  const second = await crawl();
  const after = await openIssues();
  const sameIds = JSON.stringify(before.map((i) => i.id).sort()) === JSON.stringify(after.map((i) => i.id).sort());
  console.log(`second crawl (unchanged): ${second.crawl.status}, ${second.crawl.scannedPages} pages, ${second.crawl.pagesReused} reused, in ${second.seconds.toFixed(1)} s`);
  console.log(
    `re-crawl unchanged/first: ${(second.seconds / first.seconds).toFixed(3)} (new ${second.crawl.newIssues}, fixed ${second.crawl.fixedIssues}); ` +
      `first ${first.seconds.toFixed(1)} s, second ${second.seconds.toFixed(1)} s; same issue ids: ${sameIds} (${after.length} open issues)`,
  );

  // A tenth of the pages scanned, every tenth by URL: a barrier planted in half, one removed in the other half.
  const scanned = [...(await scansOf(second.crawl.id)).keys()].sort();
  const changed = scanned.filter((_, i) => i % 10 === 5);
  const planted = new Set<string>();
  const fixedLang = new Set<string>();
  changed.forEach((url, i) => {
    const file = path.join(root, decodeURIComponent(new URL(url).pathname).replace(/\/$/, '/index.html'));
    const html = readFileSync(file, 'utf8');
    if (i % 2 === 0) {
      writeFileSync(file, html.replace(/<body([^>]*)>/, '<body$1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="40" height="40">'));
      planted.add(url);
    } else {
      writeFileSync(file, html.replace(/<html([^>]*)>/, (m, attrs: string) => (/\blang=/.test(attrs) ? m : `<html${attrs} lang="en">`)));
      fixedLang.add(url);
    }
  });
  const third = await crawl();
  const scans = await scansOf(third.crawl.id);
  const afresh = [...scans].filter(([, reused]) => !reused).map(([url]) => url);
  const expected = new Set(changed);
  const exact = afresh.length === expected.size && afresh.every((u) => expected.has(u));
  const now = await openIssues();
  const beforeIds = new Set(after.map((i) => i.id));
  const newOnPlanted = [...planted].filter((u) => now.some((i) => i.page === u && i.criterion === '1.1.1' && !beforeIds.has(i.id)));
  const nowIds = new Set(now.map((i) => i.id));
  const langFixed = [...fixedLang].filter((u) => after.some((i) => i.page === u && i.criterion === '3.1.1' && !nowIds.has(i.id)));
  console.log(`third crawl (a tenth changed): ${third.crawl.status}, ${third.crawl.scannedPages} pages, ${third.crawl.pagesReused} reused, in ${third.seconds.toFixed(1)} s (${(third.seconds / first.seconds).toFixed(3)} of the first)`);
  console.log(
    `audited afresh: ${afresh.length}, expected ${expected.size} (exactly those: ${exact}); new ${third.crawl.newIssues}, fixed ${third.crawl.fixedIssues}; ` +
      `planted barriers found: ${newOnPlanted.length}/${planted.size}; removed barriers found fixed: ${langFixed.length}/${fixedLang.size}`,
  );
  if (!exact) console.log(`afresh but unchanged: ${afresh.filter((u) => !expected.has(u)).join(' ')}; changed but reused: ${[...expected].filter((u) => !afresh.includes(u)).join(' ')}`);
} finally {
  await stack.stop();
  await server.close();
  rmSync(root, { recursive: true, force: true });
}
