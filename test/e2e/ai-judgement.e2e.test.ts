import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { extractPageData } from '../../src/enrichment/prompt.ts';
import { startFakeOpenAi, type FakeOpenAi, type RecordedRequest } from '../support/fake-openai.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';

const ENDED = ['completed', 'completed_partial', 'failed', 'cancelled'];
const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
// Says nothing of what the image shows, yet no placeholder word the structure engine decides alone ("picture" now is); the model below fails one-word alts.
const BAD_ALT = 'Sunset';
const GOOD_ALT = 'Reading room with long oak tables';

const LIBRARY = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reading room – Springfield Library</title></head><body>
  <main><h1>Reading room</h1>
  <p><img id="bad" src="${GIF}" alt="${BAD_ALT}" width="200" height="120"> The reading room seats forty.</p>
  <p><img id="good" src="${GIF}" alt="${GOOD_ALT}" width="200" height="120"> Open every day.</p>
  </main></body></html>`;

/** Three pages of one template: its header logo has a vague alt text. */
const CRAWL_PAGES = ['/', '/visit', '/events'];
const templatePage = (title: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} – Springfield Library</title></head><body>
  <header><a href="/"><img class="logo" src="${GIF}" alt="${BAD_ALT}" width="120" height="40"></a></header>
  <nav>${CRAWL_PAGES.map((p) => `<a href="${p}">${p === '/' ? 'Home' : p.slice(1)}</a>`).join(' ')}</nav>
  <main><h1>${title}</h1><p>All about ${title.toLowerCase()} at the library.</p></main></body></html>`;

const isJudgement = (r: RecordedRequest) => r.body?.response_format?.json_schema?.name === 'accessibility_judgements';

/** A model that fails an alt text of one word and passes everything else. */
function judgeContent(r: RecordedRequest): string | undefined {
  if (!isJudgement(r)) return undefined;
  const user = [...r.body.messages].reverse().find((m: any) => m.role === 'user').content as string;
  const data = extractPageData(user) as { kind: string; candidates: Array<{ id: string; text: string }> };
  return JSON.stringify({
    verdicts: data.candidates.map((c) => {
      const fails = data.kind === 'alt' && !c.text.includes(' ');
      return { id: c.id, fails, reason: fails ? `The alt text "${c.text}" does not say what the image shows.` : 'Clear in its context.' };
    }),
  });
}

describe('AI-assisted judgement through an OpenAI-compatible endpoint', () => {
  let site: StaticServer;
  let model: FakeOpenAi;
  beforeAll(async () => {
    model = await startFakeOpenAi({ contentFor: judgeContent });
    site = await startStaticServer({ '/room': html(LIBRARY), ...Object.fromEntries(CRAWL_PAGES.map((p) => [p, html(templatePage(p === '/' ? 'Welcome' : p.slice(1)))])) });
  });
  afterAll(async () => {
    await site?.close();
    await model?.close();
  });

  async function scan(env: TestEnv) {
    const res = await env.request('/api/scans', { method: 'POST', json: { url: `${site.origin}/room` } });
    expect(res.status).toBe(202);
    const { id } = await res.json();
    return pollUntil(
      async () => (await env.request(`/api/scans/${id}`)).json(),
      (s) => ENDED.includes(s.status),
      { timeoutMs: 90_000 },
    );
  }

  describe('with a model', () => {
    let env: TestEnv;
    beforeAll(async () => {
      env = await createTestEnv({
        env: { OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'sk-test-secret', OPENAI_MODEL: 'judge-model', OPENAI_TIMEOUT_MS: '3000', SCAN_RATE_LIMIT: '1000' },
      });
    });
    afterAll(async () => env?.close());

    it('turns the model\'s failing verdict into one needs_review issue with its reason; the good alt is no issue', async () => {
      model.reset();
      const s = await scan(env);
      expect(s.status).toBe('completed');
      const ai = s.issues.filter((i: any) => i.axeRuleId.startsWith('ai-'));
      expect(ai).toHaveLength(1);
      expect(ai[0]).toMatchObject({ axeRuleId: 'ai-alt-text-quality', type: 'needs_review', wcagCriterion: '1.1.1' });
      expect(ai[0].elementSelector).toContain('bad');
      expect(ai[0].evidence.review.reason).toBe(`The alt text "${BAD_ALT}" does not say what the image shows.`);
      expect(ai[0].description).toContain(`The alt text "${BAD_ALT}" does not say what the image shows.`);
      const row = await env.db
        .selectFrom('findings')
        .select(['data', 'type'])
        .where('page_scan_id', '=', s.id)
        .where('rule_id', '=', 'ai-alt-text-quality')
        .executeTakeFirstOrThrow();
      expect((row.data as any).review.reason).toBe(`The alt text "${BAD_ALT}" does not say what the image shows.`);
      expect((row.data as any).ai).toMatchObject({ model: 'judge-model', fails: true });
      // The alt texts went to the model as data; one call per group, the images one group.
      const calls = model.completions().filter(isJudgement);
      const alt = calls.filter((r) => (extractPageData([...r.body.messages].reverse().find((m: any) => m.role === 'user').content) as any).kind === 'alt');
      expect(alt).toHaveLength(1);
      expect(JSON.stringify(alt[0]!.body)).toContain(GOOD_ALT);
    });

    it('asks nothing new on a second scan: the verdicts come from the cache', async () => {
      const before = model.completions().filter(isJudgement).length;
      expect(before).toBeGreaterThan(0);
      const s = await scan(env);
      expect(s.status).toBe('completed');
      expect(model.completions().filter(isJudgement)).toHaveLength(before);
      expect(s.issues.filter((i: any) => i.axeRuleId === 'ai-alt-text-quality')).toHaveLength(1);
    });

    it('judges a template\'s header once for a whole crawl and reports it on every page', async () => {
      model.reset();
      const siteId = (await (await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } })).json()).id;
      const start = await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST' });
      const { crawlId } = await start.json();
      const crawl = await pollUntil(
        async () => (await env.request(`/api/sites/${siteId}/crawls/${crawlId}`)).json(),
        (c) => ENDED.includes(c.status),
        { timeoutMs: 120_000 },
      );
      expect(crawl.status).toBe('completed');
      expect(crawl.scannedPages).toBe(CRAWL_PAGES.length);
      const issues = await (await env.request(`/api/sites/${siteId}/issues?ruleId=ai-alt-text-quality&limit=100`)).json();
      expect(issues.pagination.total).toBe(CRAWL_PAGES.length);
      expect(new Set(issues.data.map((i: any) => new URL(i.pageUrl).pathname))).toEqual(new Set(CRAWL_PAGES));
      expect(issues.data.every((i: any) => i.type === 'needs_review' && i.evidence.review.reason.includes(BAD_ALT))).toBe(true);
      // The logo's alt text went to the model once, whatever the order the pages were judged in.
      const dataOf = (r: RecordedRequest) => extractPageData([...r.body.messages].reverse().find((m: any) => m.role === 'user').content) as { kind: string; candidates: Array<{ text: string }> };
      const asked = model.completions().filter(isJudgement).filter((r) => dataOf(r).kind === 'alt' && dataOf(r).candidates.some((c) => c.text === BAD_ALT));
      expect(asked).toHaveLength(1);
    });

    it('leaves the heuristics\' result and completes when the model answers garbage', async () => {
      await env.db.deleteFrom('judgement_cache').execute();
      model.reset();
      model.script(...Array.from({ length: 12 }, () => ({ content: 'not json at all' })));
      const s = await scan(env);
      expect(['completed', 'completed_partial']).toContain(s.status);
      expect(model.completions().filter(isJudgement).length).toBeGreaterThan(0);
      expect(s.issues.filter((i: any) => i.axeRuleId.startsWith('ai-'))).toEqual([]);
    });
  });

  describe('offline', () => {
    let env: TestEnv;
    beforeAll(async () => {
      env = await createTestEnv({ env: { SCAN_RATE_LIMIT: '1000' } });
    });
    afterAll(async () => env?.close());

    it('collects nothing, calls nothing and reports no ai-* issue', async () => {
      model.reset();
      const s = await scan(env);
      expect(s.status).toBe('completed');
      expect(s.issues.filter((i: any) => i.axeRuleId.startsWith('ai-'))).toEqual([]);
      const stored = await sql<{ n: number }>`select count(*)::int as n from judgement_candidates`.execute(env.db);
      expect(stored.rows[0]!.n).toBe(0);
      expect(model.requests).toHaveLength(0);
    });
  });
});
