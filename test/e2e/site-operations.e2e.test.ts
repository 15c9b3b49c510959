import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaErrors } from '../helpers/sarif-schema.ts';
import { html, startStaticServer } from '../support/static-server.ts';
import { createNotifications } from '../../src/db/notifications.ts';
import { createLogger } from '../../src/logger.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';
import { startApiProcess } from '../helpers/worker-process.ts';
import { freePort } from '../../temporal-dev/dev-server.ts';

const ENDED = ['completed', 'completed_partial', 'cancelled', 'failed'];

/** Three pages; version 2 fixes the home page's image and breaks the form page's label. */
function startVersionedSite() {
  let version = 1;
  const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
  const dyn = (render: () => string) => (req: Parameters<ReturnType<typeof html>>[0], res: Parameters<ReturnType<typeof html>>[1]) => html(render())(req, res);
  return startStaticServer({
    '/': dyn(() =>
      page('Home', `<p><a href="/news">The news</a> and <a href="/form">the form</a>.</p>${version === 1 ? '<img src="/x.png" width="10" height="10">' : '<img src="/x.png" alt="Logo" width="10" height="10">'}`),
    ),
    '/news': dyn(() => page('News', '<p>Nothing new.</p>')),
    '/form': dyn(() => page('Form', version === 1 ? '<label for="q">Search</label><input id="q">' : '<input id="q"><input id="r" type="text">')),
  }).then((s) => Object.assign(s, { setVersion: (v: number) => void (version = v) }));
}

/** Reads a server-sent event stream to its end: the events, and the comments seen. */
async function readEvents(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const text = await res.text(); // the server ends the stream after the final state
  const events: Array<{ id?: string; event?: string; data: any }> = [];
  const comments: string[] = [];
  for (const block of text.split('\n\n')) {
    if (!block.trim()) continue;
    const ev: { id?: string; event?: string; data: string[] } = { data: [] };
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) comments.push(line.slice(1).trim());
      else if (line.startsWith('id: ')) ev.id = line.slice(4);
      else if (line.startsWith('event: ')) ev.event = line.slice(7);
      else if (line.startsWith('data: ')) ev.data.push(line.slice(6));
    }
    if (ev.data.length) events.push({ id: ev.id, event: ev.event, data: JSON.parse(ev.data.join('\n')) });
  }
  return { events, comments };
}


function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve('src/cli/a11y-audit.ts'), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('schedules, trend, live progress and the CI client against the real stack', () => {
  let env: TestEnv;
  let site: Awaited<ReturnType<typeof startVersionedSite>>;
  let siteId: string;
  let second: Awaited<ReturnType<typeof startApiProcess>>;
  let dir: string;
  const crawls: any[] = [];

  beforeAll(async () => {
    site = await startVersionedSite();
    env = await createTestEnv({ discoveryOptions: { fetchTimeoutMs: 1500 } });
    second = await startApiProcess(env);
    dir = await mkdtemp(path.join(tmpdir(), 'a11y-cli-'));
    const res = await env.request('/api/sites', { method: 'POST', json: { url: `${site.origin}/` } });
    siteId = (await res.json()).id;
  });
  afterAll(async () => {
    await second?.stop();
    await env?.close();
    await site?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const get = async (p: string, api = env.api) => {
    const res = await fetch(api + p);
    expect(res.status, p).toBe(200);
    return res.json();
  };
  const waitEnded = (crawlId: string) =>
    pollUntil(
      () => get(`/api/sites/${siteId}/crawls/${crawlId}`),
      (c) => ENDED.includes(c.status),
      { timeoutMs: 120_000, everyMs: 200 },
    );

  it('refuses bad schedules with a problem naming the field, and has none until one is put', async () => {
    expect((await env.request(`/api/sites/${siteId}/schedule`)).status).toBe(404);
    expect((await env.request(`/api/sites/${siteId}/schedule`, { method: 'DELETE' })).status).toBe(404);
    const bad = async (json: unknown, field: string) => {
      const res = await env.request(`/api/sites/${siteId}/schedule`, { method: 'PUT', json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      const body = await res.json();
      expect(body.code).toBe('validation_error');
      expect(JSON.stringify(body.errors)).toContain(field);
    };
    await bad({ cron: 'every tuesday' }, 'cron');
    await bad({ cron: '* * * * *' }, 'cron'); // every minute: closer than 5 minutes
    await bad({ every: '1m' }, 'every');
    await bad({ every: 'soon' }, 'every');
    await bad({ cron: '0 3 * * *', every: '1d' }, 'cron');
    await bad({}, 'cron');
    await bad({ every: '1d', timezone: 'Mars/Olympus' }, 'timezone');
    await bad({ every: '1d', maxPages: 0 }, 'maxPages');
    const missing = await env.request('/api/sites/00000000-0000-4000-8000-000000000000/schedule', { method: 'PUT', json: { every: '1d' } });
    expect(missing.status).toBe(404);
    // Nothing half-written: still no schedule.
    expect((await env.request(`/api/sites/${siteId}/schedule`)).status).toBe(404);
  });

  it('puts a Temporal Schedule (201, then 200 when replaced) that pauses and shows its next runs', async () => {
    const created = await env.request(`/api/sites/${siteId}/schedule`, { method: 'PUT', json: { cron: '0 3 * * 1', timezone: 'Europe/London', maxPages: 5 } });
    expect(created.status).toBe(201);
    const s = await created.json();
    expect(s).toMatchObject({ siteId, scheduleId: `crawl-schedule-${siteId}`, cron: '0 3 * * 1', every: null, timezone: 'Europe/London', maxPages: 5, paused: false, overlap: 'skip' });
    expect(s.nextRuns.length).toBeGreaterThan(0);
    expect(new Date(s.nextRunAt).getTime()).toBeGreaterThan(Date.now());

    const paused = await env.request(`/api/sites/${siteId}/schedule`, { method: 'PUT', json: { every: '1d', maxPages: 5, paused: true } });
    expect(paused.status).toBe(200);
    expect(await paused.json()).toMatchObject({ cron: null, every: '1d', paused: true, nextRuns: [] });
    // It is Temporal's: the Web UI lists it under that id, with the overlap policy "skip".
    const d = await env.temporal.schedule.getHandle(`crawl-schedule-${siteId}`).describe();
    expect(d.state.paused).toBe(true);
    expect(d.policies.overlap).toBe('SKIP');
  });

  it('a run triggered as the Web UI does becomes a crawl of the site, with the schedule\'s page cap, and the schedule lists it', async () => {
    const put = await env.request(`/api/sites/${siteId}/schedule`, { method: 'PUT', json: { every: '1d', maxPages: 5, paused: false } });
    expect(put.status).toBe(200);
    await env.temporal.schedule.getHandle(`crawl-schedule-${siteId}`).trigger();
    const listed = await pollUntil(
      () => get(`/api/sites/${siteId}/crawls`),
      (b) => b.data.length > 0,
      { timeoutMs: 60_000, everyMs: 200 },
    );
    const crawl = await waitEnded(listed.data[0].id);
    expect(crawl).toMatchObject({ status: 'completed', maxPages: 5, scannedPages: 3, totalPages: 3 });
    crawls.push(crawl);
    const s = await get(`/api/sites/${siteId}/schedule`);
    expect(s.runsTaken).toBeGreaterThanOrEqual(1);
    expect(s.recentRuns.map((r: any) => r.crawlId)).toContain(crawl.id);
    // Deleted: gone from Temporal too; the crawl it ran stays.
    expect((await env.request(`/api/sites/${siteId}/schedule`, { method: 'DELETE' })).status).toBe(204);
    expect((await env.request(`/api/sites/${siteId}/schedule`)).status).toBe(404);
    expect((await get(`/api/sites/${siteId}/crawls/${crawl.id}`)).status).toBe('completed');
  });

  it('streams a crawl\'s progress from another API process, to its end', async () => {
    site.setVersion(2);
    const res = await env.request(`/api/sites/${siteId}/crawl`, { method: 'POST', json: {} });
    expect(res.status).toBe(202);
    const { crawlId } = await res.json();
    const { events } = await readEvents(`${second.api}/api/sites/${siteId}/crawls/${crawlId}/events`);
    expect(events.length).toBeGreaterThan(1);
    for (const e of events) expect(e.event).toBe('update');
    const ids = events.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const last = events.at(-1)!.data;
    // The last event is the crawl exactly as GET shows it now.
    const now = await get(`/api/sites/${siteId}/crawls/${crawlId}`);
    expect(last).toEqual(now);
    expect(last.status).toBe('completed');
    expect(ENDED).not.toContain(events[0]!.data.status); // followed while it ran, not only read at the end
    crawls.push(now);
  });

  it('counts the trend per crawl, and lists exactly the issues a crawl counted as new', async () => {
    const [first, secondCrawl] = crawls;
    const trend = await get(`/api/sites/${siteId}/trend`);
    expect(trend.data.map((p: any) => p.crawlId)).toEqual([secondCrawl.id, first.id]);
    for (const [point, crawl] of [
      [trend.data[0], secondCrawl],
      [trend.data[1], first],
    ]) {
      expect(point).toMatchObject({ status: 'completed', overallScore: crawl.overallScore, newIssues: crawl.newIssues, fixedIssues: crawl.fixedIssues, scannedPages: 3 });
      const c = point.issueCounts;
      expect(c.total).toBe(c.critical + c.serious + c.moderate + c.minor);
    }
    expect(secondCrawl.newIssues).toBeGreaterThan(0);
    expect(secondCrawl.fixedIssues).toBeGreaterThan(0);

    const fresh = await get(`/api/sites/${siteId}/issues?limit=100&newInCrawl=${secondCrawl.id}`);
    expect(fresh.pagination.total).toBe(secondCrawl.newIssues);
    expect(fresh.data.every((i: any) => i.pageUrl === `${site.origin}/form`)).toBe(true);
    const firstNew = await get(`/api/sites/${siteId}/issues?limit=100&newInCrawl=${first.id}`);
    expect(firstNew.pagination.total).toBe(first.newIssues);
    const bad = await env.request(`/api/sites/${siteId}/issues?newInCrawl=yesterday`);
    expect(bad.status).toBe(400);
  });

  it('streams a single-page scan from another API process; Last-Event-ID resumes', async () => {
    site.setVersion(2); // the form page without its labels
    const res = await env.request('/api/scans', { method: 'POST', json: { url: `${site.origin}/form` } });
    expect(res.status).toBe(202);
    const { id: scanId } = await res.json();
    const { events } = await readEvents(`${second.api}/api/scans/${scanId}/events`);
    const last = events.at(-1)!;
    expect(last.data.status).toBe('completed');
    expect(last.data).toEqual(await get(`/api/scans/${scanId}`));
    expect(last.data.issues.length).toBeGreaterThan(0);
    // Resumed at the last event: the scan has not changed since, so the stream ends with nothing new.
    const resumed = await readEvents(`${second.api}/api/scans/${scanId}/events`, { 'last-event-id': last.id! });
    expect(resumed.events).toEqual([]);
    // Resumed at an earlier event: only the current state comes.
    const earlier = await readEvents(`${env.api}/api/scans/${scanId}/events`, { 'last-event-id': events[0]!.id! });
    expect(earlier.events.map((e) => e.id)).toEqual([last.id]);
    // Quiet spells get keep-alive comments.
    const chatty = await env.startApi({ eventTiming: { pollMs: 50, keepAliveMs: 100 } });
    const again = await env.request('/api/scans', { method: 'POST', json: { url: `${site.origin}/news` } });
    const followed = await readEvents(`${chatty.api}/api/scans/${(await again.json()).id}/events`);
    await chatty.close();
    expect(followed.comments).toContain('keep-alive');
    expect(followed.events.at(-1)!.data.status).toBe('completed');
    const missing = await fetch(`${second.api}/api/scans/00000000-0000-4000-8000-000000000000/events`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/problem\+json/);
  });

  it('PostgreSQL notifies every change of a crawl row, with its change count bumped', async () => {
    const notifications = createNotifications(env.databaseUrl, createLogger('test', 'silent'));
    const crawlId = crawls[0].id;
    let calls = 0;
    const unsubscribe = notifications.subscribe(`crawl:${crawlId}`, () => calls++);
    const seq = async () => Number((await env.db.selectFrom('crawls').select('event_seq').where('id', '=', crawlId).executeTakeFirstOrThrow()).event_seq);
    const before = await seq();
    // The LISTEN connection opens with the first subscriber: write until a notification arrives.
    await pollUntil(
      async () => {
        await env.db.updateTable('crawls').set({ failed_pages: 0 }).where('id', '=', crawlId).execute();
        return calls;
      },
      (n) => n > 0,
      { timeoutMs: 10_000, everyMs: 100 },
    );
    expect(await seq()).toBeGreaterThan(before);
    unsubscribe();
    await notifications.close();
  });

  it('the CLI fails a build only on issues new since the previous crawl, and writes SARIF and JUnit', async () => {
    // Nothing changed since the last crawl: no new issues, the gate passes though issues remain.
    const sarifPath = path.join(dir, 'same.sarif');
    const same = await runCli(['crawl', `${site.origin}/`, '--api', env.api, '--fail-on', 'new', '--sarif', sarifPath, '--junit', path.join(dir, 'same.xml'), '--quiet']);
    expect(same.stderr).not.toMatch(/error/i);
    expect(same.code).toBe(0);
    const sarif = JSON.parse(await readFile(sarifPath, 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    expect(schemaErrors(sarif)).toEqual([]);
    expect(sarif.runs[0].results.length).toBeGreaterThan(0);
    expect(sarif.runs[0].results.every((r: any) => r.baselineState === 'unchanged')).toBe(true);
    const junit = await readFile(path.join(dir, 'same.xml'), 'utf8');
    expect(junit).toMatch(/^<\?xml/);
    expect(junit).toContain(`${site.origin}/news`);

    // The image gets its problem back: the build fails, on that issue alone.
    site.setVersion(1);
    const jsonPath = path.join(dir, 'changed.json');
    const changed = await runCli(['crawl', `${site.origin}/`, '--api', env.api, '--fail-on', 'new', '--json', jsonPath, '--quiet']);
    expect(changed.code).toBe(1);
    const result = JSON.parse(await readFile(jsonPath, 'utf8'));
    expect(result.gate.passed).toBe(false);
    expect(result.newIssueIds.length).toBe(result.crawl.newIssues);
    const newOnes = result.issues.filter((i: any) => result.newIssueIds.includes(i.id));
    expect(newOnes.every((i: any) => i.pageUrl === `${site.origin}/`)).toBe(true);

    // A single page: every issue is new; a severity gate and a count gate.
    const scan = await runCli(['scan', `${site.origin}/form`, '--api', env.api, '--fail-on', 'minor', '--quiet']);
    expect(scan.code).toBe(0); // version 1's form page is clean
    const broken = await runCli(['scan', `${site.origin}/`, '--api', env.api, '--fail-on', 'critical', '--quiet']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`critical image-alt (WCAG 1.1.1, new) on ${site.origin}/ at img`);
    const tolerated = await runCli(['scan', `${site.origin}/`, '--api', env.api, '--max-issues', '100', '--quiet']);
    expect(tolerated.code).toBe(0);

    // Usage errors and an API that is not there.
    expect((await runCli(['scan'])).code).toBe(2);
    expect((await runCli(['scan', `${site.origin}/`, '--fail-on', 'sometimes'])).code).toBe(2);
    const down = await runCli(['scan', `${site.origin}/`, '--api', `http://127.0.0.1:${await freePort()}`, '--timeout', '20', '--quiet']);
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/a11y-audit:/);
  });
});
