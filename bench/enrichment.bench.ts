// AI enrichment on a real site: crawls ../shared/corpora/ipython-docs/site twice with enrichment
// pointed at a local OpenAI-compatible test server, and prints per crawl the issues, the issue
// groups, the model calls, cache hits and tokens; then three offline texts of the largest groups
// (what a deployment without a model writes). Asserts nothing.
//   node bench/enrichment.bench.ts [maxPages=1000]
import path from 'node:path';
import { describeFinding } from '../src/enrichment/offline-enricher.ts';
import { createDb } from '../src/db/database.ts';
import { findingFromRow } from '../src/db/repositories/records.ts';
import { startFakeOpenAi } from '../test/support/fake-openai.ts';
import { startStack } from './stack.ts';
import { startStaticServer } from '../test/support/static-server.ts';

const maxPages = Number(process.argv[2] ?? 1000);
const corpus = path.resolve('..', 'shared', 'corpora', 'ipython-docs', 'site');
const { origin, close: closeCorpus } = await startStaticServer({}, { root: corpus, rootRedirect: '/3/index.html' });
const model = await startFakeOpenAi();
const stack = await startStack('bench-enrichment', {
  MAX_CRAWL_PAGES: String(Math.max(maxPages, 1000)),
  OPENAI_BASE_URL: model.baseURL,
  OPENAI_API_KEY: 'bench-key',
  OPENAI_MODEL: 'bench-model',
  // The texts' cost only; judgement's calls are its own.
  AI_JUDGEMENT: 'off',
  LOG_LEVEL: 'info',
});
const db = createDb(stack.databaseUrl);
try {
  const site = await stack.call('/api/sites', { method: 'POST', body: JSON.stringify({ url: `${origin}/` }) });
  for (const run of [1, 2]) {
    const before = model.requests.length;
    const t0 = performance.now();
    const { crawlId } = await stack.call(`/api/sites/${site.id}/crawl`, { method: 'POST', body: JSON.stringify({ maxPages }) });
    let crawl: any;
    do {
      await new Promise((r) => setTimeout(r, 1000));
      crawl = await stack.call(`/api/sites/${site.id}/crawls/${crawlId}`);
    } while (['queued', 'running'].includes(crawl.status));
    const seconds = (performance.now() - t0) / 1000;
    const issues = await stack.call(`/api/sites/${site.id}/issues?limit=1&status=open`);
    const groups = await stack.call(`/api/sites/${site.id}/issue-groups?limit=1&crawlId=${crawlId}`);
    const cost = await db.selectFrom('crawls').select(['ai_calls', 'ai_cache_hits', 'ai_input_tokens', 'ai_output_tokens']).where('id', '=', crawlId).executeTakeFirstOrThrow();
    console.log(
      `crawl ${run}: ${crawl.status} in ${seconds.toFixed(0)} s, ${crawl.scannedPages} pages scanned, ${crawl.enrichedPages} enriched; ` +
        `${issues.pagination.total} open issues in ${groups.pagination.total} issue groups; model requests ${model.requests.length - before} ` +
        `(crawl counted ${cost.ai_calls} calls, ${cost.ai_cache_hits} cache hits, ${cost.ai_input_tokens} input and ${cost.ai_output_tokens} output tokens)`,
    );
  }
  const top = await stack.call(`/api/sites/${site.id}/issue-groups?limit=3`);
  for (const g of top.data) {
    const member = await stack.call(`/api/sites/${site.id}/issues?limit=1&groupKey=${g.groupKey}`);
    const row = await db.selectFrom('findings').selectAll().where('id', '=', (await db.selectFrom('issues').select('last_finding_id').where('id', '=', member.data[0].id).executeTakeFirstOrThrow()).last_finding_id!).executeTakeFirstOrThrow();
    const texts = describeFinding(findingFromRow(row));
    console.log(`\n--- ${g.ruleId} (WCAG ${g.wcagCriterion}, ${g.severity}, ${g.type}): ${g.elements} elements on ${g.pages} pages, e.g. ${g.example.selector}`);
    console.log(`description: ${texts.description}`);
    console.log(`fix: ${texts.fixSuggestion}`);
  }
} finally {
  await db.destroy();
  await stack.stop();
  await model.close();
  await closeCorpus();
}
