import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { head, send, sendThen, startHostileOrigin, type HostileOrigin, type RawAnswer } from '../helpers/hostile-origin.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process.ts';
import { handMadePdf, pdfkitFile, streamObject } from '../helpers/pdf-files.ts';
import { deflateSync } from 'node:zlib';

// The issue as the tester found it: one POST /api/scans of a page whose server answers
// `HTTP/1.1 200 OK\x01` made the egress proxy throw inside an event listener, and the worker
// process exited, three times over as Temporal retried the page. Here a real worker process, with
// private targets refused (so every page goes through its egress proxy) and this origin let
// through, scans such pages and crawls a site of them. It must keep its pid, and each page must
// end once, with its page error, never retried.

const ENDED = ['completed', 'completed_partial', 'failed', 'cancelled'];
const page = (title: string, body = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1><p>Some text.</p>${body}</main></body></html>`;
const ok = (html: string) => send(head('HTTP/1.1 200 OK', html) + html);

/** A fine page for the first request (discovery's), `then` for every later one (the browser's). */
function fineOnce(html: string, then: RawAnswer): RawAnswer {
  let asked = 0;
  return (socket) => (asked++ === 0 ? ok(html) : then)(socket);
}

/**
 * How often each activity of a workflow run was scheduled, its highest attempt, and how many of
 * its runs failed or timed out. Temporal records a retried activity's last attempt in its started
 * event, so `maxAttempt` 1 means no attempt was retried.
 */
async function activityRuns(client: Client, workflowId: string, runId?: string): Promise<Record<string, { scheduled: number; maxAttempt: number; failed: number }>> {
  const runs: Record<string, { scheduled: number; maxAttempt: number; failed: number }> = {};
  const names = new Map<string, string>();
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  for (const e of history.events ?? []) {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) {
      const name = scheduled.activityType?.name ?? '?';
      names.set(String(e.eventId), name);
      runs[name] ??= { scheduled: 0, maxAttempt: 0, failed: 0 };
      runs[name].scheduled++;
    }
    const started = e.activityTaskStartedEventAttributes;
    const run = started && runs[names.get(String(started.scheduledEventId)) ?? '?'];
    if (run) run.maxAttempt = Math.max(run.maxAttempt, started.attempt ?? 0);
    const failed = e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
    const failedRun = failed && runs[names.get(String(failed.scheduledEventId)) ?? '?'];
    if (failedRun) failedRun.failed++;
  }
  return runs;
}

describe('a worker process scanning hostile origins through its egress proxy', () => {
  let env: TestEnv;
  let origin: HostileOrigin;
  let worker: WorkerProcess;
  let pid: number;

  beforeAll(async () => {
    // Documents: a stream that expands to 256 MB, a file cut off before its declared length, and a sound one.
    const bomb = handMadePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
      streamObject('/Filter /FlateDecode', deflateSync(Buffer.alloc(256 * 1024 * 1024, 0x20), { level: 9 })),
    ]);
    const good = await pdfkitFile({ tagged: true, lang: 'en', displayTitle: true, info: { Title: 'Sound' } }, (d) => {
      const root = d.struct('Document');
      d.addStructure(root);
      root.add(d.struct('P', {}, () => d.text('A sound document.')));
      root.end();
    });
    const pdfHead = (length: number) => Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/pdf\r\ncontent-length: ${length}\r\n\r\n`, 'latin1');
    const pdfAnswer = (body: Buffer, declared = body.length): RawAnswer => (socket) => void socket.end(Buffer.concat([pdfHead(declared), body]));
    origin = await startHostileOrigin({
      '/bomb.pdf': pdfAnswer(bomb),
      '/cut.pdf': pdfAnswer(good.subarray(0, 300), good.length),
      '/sound.pdf': pdfAnswer(good),
      '/reason-control': send(head('HTTP/1.1 200 OK\x01', page('Control character')) + page('Control character')),
      '/status-99': send(head('HTTP/1.1 099 Low', page('Low')) + page('Low')),
      '/robots.txt': send(head('HTTP/1.1 099 Low', 'User-agent: *\nDisallow: /\n') + 'User-agent: *\nDisallow: /\n'),
      '/sitemap.xml': send('\x00\xff not HTTP\r\n\r\n'),
      '/garbage': send('\x00\xff this is not HTTP at all\r\n\r\n'),
      '/chunks': sendThen('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\n\r\n10\r\n<html><title>x</\r\n', 150, 'zz\r\n'),
      '/switching': send('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n'),
      // Fine for discovery, then a status below 100 for the browser: the crawl's page scan meets it.
      '/turns-hostile': fineOnce(page('Turns hostile'), send(head('HTTP/1.1 099 Low', page('Low')) + page('Low'))),
      // Its images, style sheet and script are each a different kind of broken answer.
      '/': ok(
        page(
          'Hostile home',
          '<img src="/status-99" alt="One"><img src="/reason-control" alt="Two"><link rel="stylesheet" href="/chunks"><script src="/garbage"></script>' +
            ['/reason-control', '/garbage', '/chunks', '/switching', '/turns-hostile'].map((p) => `<p><a href="${p}">Go to ${p}</a></p>`).join(''),
        ),
      ),
    });
    env = await createTestEnv({ workers: false, discoveryOptions: { fetchTimeoutMs: 3000 } });
    // The production policy: private targets refused, so every page goes through the egress proxy.
    worker = await startWorkerProcess(env, { ALLOW_PRIVATE_TARGETS: 'false', ALLOWED_PRIVATE_HOSTS: origin.host, PAGE_LOAD_TIMEOUT_MS: '10000', DOCUMENT_READ_MEMORY_MB: '64' });
    pid = worker.child.pid!;
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.close();
    await origin?.close();
  });

  /** Fails at once when the worker process is gone, rather than waiting for a result that cannot come. */
  function expectWorkerAlive() {
    expect(worker.child.exitCode, 'the worker process exited').toBeNull();
    expect(worker.child.signalCode, 'the worker process was killed').toBeNull();
    expect(worker.child.pid).toBe(pid);
    expect(() => process.kill(pid, 0)).not.toThrow();
  }
  const untilEnded = <T extends { status: string }>(read: () => Promise<T>) =>
    pollUntil(
      async () => {
        expectWorkerAlive();
        return read();
      },
      (v) => ENDED.includes(v.status),
      { timeoutMs: 150_000, everyMs: 250 },
    );

  async function scanOf(url: string) {
    const res = await env.request('/api/scans', { method: 'POST', json: { url } });
    expect(res.status).toBe(202);
    const { id } = await res.json();
    const scan = await untilEnded(async () => (await env.request(`/api/scans/${id}`)).json());
    return { scan, runs: await activityRuns(env.temporal, `scan-${id}`) };
  }

  it("scans the tester's page (a control character in the reason phrase) once, and the worker lives on", async () => {
    const { scan, runs } = await scanOf(`${origin.origin}/reason-control`);
    expect(scan).toMatchObject({ status: 'completed', pageTitle: 'Control character' });
    expect(runs.scanPage).toEqual({ scheduled: 1, maxAttempt: 1, failed: 0 });
    expectWorkerAlive();
  }, 180_000);

  it('audits a sound PDF and ends a zip bomb and a cut-off file as document errors, each scanned once, and the worker lives on', async () => {
    const sound = await scanOf(`${origin.origin}/sound.pdf`);
    expect(sound.scan).toMatchObject({ status: 'completed', pageTitle: 'Sound', document: { mediaType: 'application/pdf', pages: 1 } });
    const bomb = await scanOf(`${origin.origin}/bomb.pdf`);
    expect(bomb.scan.status).toBe('failed');
    expect(bomb.scan.error).toEqual({ code: 'document_unreadable', message: 'reading the file takes more than 64 MiB of memory (a stream that expands without end)' });
    expect(bomb.runs.scanPage).toEqual({ scheduled: 1, maxAttempt: 1, failed: 0 });
    const cut = await scanOf(`${origin.origin}/cut.pdf`);
    expect(cut.scan.status).toBe('failed');
    expect(cut.scan.error.code).toBe('connection_failed');
    expect(cut.runs.scanPage).toEqual({ scheduled: 1, maxAttempt: 1, failed: 0 });
    expectWorkerAlive();
  }, 180_000);

  it('ends a page whose status is below 100 as failed with invalid_response, scanned once, and the worker lives on', async () => {
    const { scan, runs } = await scanOf(`${origin.origin}/status-99`);
    expect(scan.status).toBe('failed');
    expect(scan.error).toEqual({ code: 'invalid_response', message: `the answer of ${origin.host} is not valid HTTP: status 99, outside 100-599` });
    expect(runs.scanPage).toEqual({ scheduled: 1, maxAttempt: 1, failed: 0 });
    expectWorkerAlive();
  }, 180_000);

  it('crawls a site of such pages (robots.txt, sitemap, pages and sub-resources): every page ends once with its error, and the worker lives on', async () => {
    const created = await env.request('/api/sites', { method: 'POST', json: { url: `${origin.origin}/` } });
    expect(created.status).toBe(201);
    const site = await created.json();
    const started = await env.request(`/api/sites/${site.id}/crawl`, { method: 'POST' });
    expect(started.status).toBe(202);
    const { crawlId } = await started.json();
    const crawl = await untilEnded(async () => (await env.request(`/api/sites/${site.id}/crawls/${crawlId}`)).json());
    expect(crawl).toMatchObject({ status: 'completed_partial', totalPages: 6, scannedPages: 2, failedPages: 4 });

    const pages = await env.db
      .selectFrom('crawl_pages')
      .innerJoin('pages', 'pages.id', 'crawl_pages.page_id')
      .select(['pages.path', 'crawl_pages.state', 'crawl_pages.error'])
      .where('crawl_pages.crawl_id', '=', crawlId)
      .execute();
    const byPath = Object.fromEntries(pages.map((p) => [p.path, { state: p.state, code: p.error?.code ?? null }]));
    expect(byPath).toEqual({
      '/': { state: expect.stringMatching(/^(scanned|enriched|enrich_failed)$/), code: null },
      '/reason-control': { state: expect.stringMatching(/^(scanned|enriched|enrich_failed)$/), code: null },
      // Found failing by discovery: never handed to the browser.
      '/garbage': { state: 'failed', code: 'invalid_response' },
      '/chunks': { state: 'failed', code: 'invalid_response' },
      '/switching': { state: 'failed', code: 'invalid_response' },
      // Fine for discovery, hostile to the browser: the page scan's own page error.
      '/turns-hostile': { state: 'failed', code: 'invalid_response' },
    });
    // No page scan was retried: each ran once, and none failed as an activity.
    for await (const wf of env.temporal.workflow.list({ query: `crawlId = "${crawlId}"` })) {
      const runs = await activityRuns(env.temporal, wf.workflowId, wf.runId);
      if (runs.scanCrawlPage) expect(runs.scanCrawlPage, wf.workflowId).toMatchObject({ maxAttempt: 1, failed: 0 });
    }
    expectWorkerAlive();
  }, 240_000);
});
