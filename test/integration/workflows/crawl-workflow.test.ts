import { randomBytes } from 'node:crypto';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { DEFAULT_DISCOVERY_OPTIONS, FAILURE_TYPES, type CrawlWorkflowInput } from '../../../src/shared/contracts.ts';
import { taskQueues, type TaskQueues } from '../../../src/shared/task-queues.ts';
import { ensureWorkflowBundle } from '../../../src/workers/workflow-bundle.ts';
import { CRAWL_ID } from '../../../src/shared/search-attributes.ts';
import { pollUntil } from '../../helpers/test-env.ts';

/**
 * CrawlWorkflow against mocked activities on the test run's Temporal dev server: no database, no
 * browser, so the orchestration paths (a page failing for good, continue-as-new, cancellation)
 * run in seconds. (Temporal's time-skipping server is a separate download this machine cannot make.)
 */

interface Calls {
  opened: Array<{ crawlId: string; siteId: string; maxPages: number; reuse?: boolean }>;
  markCrawlRunning: number;
  discoverPages: number;
  claims: number;
  scanned: string[];
  enriched: string[];
  scanFailed: string[];
  enrichFailed: string[];
  finalized: Array<{ cancelled: boolean }>;
  /** Claims (with the limit asked) and scans' starts and ends, in the order the activities saw them. */
  log: string[];
}

function mockActivities(
  pages: string[],
  behaviour: { failScan?: string; failEnrich?: string; blockScans?: boolean; claimBatch?: number; inProgress?: string; reusable?: string[]; reuseFails?: string; auditedBefore?: string[]; scanMs?: number } = {},
) {
  const reuseAsked: string[] = [];
  const calls: Calls = { opened: [], markCrawlRunning: 0, discoverPages: 0, claims: 0, scanned: [], enriched: [], scanFailed: [], enrichFailed: [], finalized: [], log: [] };
  const pending = [...pages];
  const byKey = new Map<string, string[]>();
  const persistence = {
    async openCrawl(input: { crawlId: string; siteId: string; maxPages: number; reuse?: boolean }) {
      calls.opened.push(input);
      return behaviour.inProgress ? { opened: false, reason: 'crawl_in_progress', activeCrawlId: behaviour.inProgress } : { opened: true };
    },
    async markCrawlRunning() {
      calls.markCrawlRunning++;
      return { id: 'crawl' };
    },
    async markDiscoveryDone() {},
    async registerFlowPages() {
      return { flows: 0, pages: 0 };
    },
    async claimPages(input: { claimKey: string; limit: number }) {
      calls.claims++;
      calls.log.push(`claim ${input.limit}`);
      // The same key hands out the same pages again, like the real claim.
      if (!byKey.has(input.claimKey)) byKey.set(input.claimKey, pending.splice(0, Math.min(input.limit, behaviour.claimBatch ?? input.limit)));
      const pageIds = byKey.get(input.claimKey)!;
      // Pages an earlier crawl audited (the real claim reads this from page_scans).
      const reusable = pageIds.filter((id) => behaviour.auditedBefore?.includes(id));
      return { pageIds, discoveryDone: pending.length === 0, ...(reusable.length ? { reusable } : {}) };
    },
    async markPageScanFailed(input: { pageId: string }) {
      calls.scanFailed.push(input.pageId);
    },
    async markEnrichFailed(input: { pageId: string }) {
      calls.enrichFailed.push(input.pageId);
    },
    async planCrawlWebhooks() {
      return { deliveries: [] as string[] };
    },
    async finalizeCrawl(input: { cancelled: boolean }) {
      calls.finalized.push({ cancelled: input.cancelled });
      return { status: input.cancelled ? 'cancelled' : calls.scanFailed.length || calls.enrichFailed.length ? 'completed_partial' : 'completed', newIssues: 0, fixedIssues: 0 };
    },
  };
  const discovery = {
    async discoverPages() {
      calls.discoverPages++;
    },
  };
  const browser = {
    async reuseUnchangedPage(input: { pageId: string }) {
      reuseAsked.push(input.pageId);
      if (input.pageId === behaviour.reuseFails) throw ApplicationFailure.nonRetryable('the database is gone', FAILURE_TYPES.crawlNotFound);
      return behaviour.reusable?.includes(input.pageId) ? { reused: true as const, from: `scan-of-${input.pageId}`, resources: 3, findings: 1 } : { reused: false as const, reason: 'changed' };
    },
    async scanCrawlPage(input: { pageId: string }) {
      if (behaviour.blockScans) {
        calls.log.push(`scan ${input.pageId}`);
        // Until the workflow cancels: heartbeats carry the cancellation to the activity.
        for (;;) {
          Context.current().heartbeat();
          await Context.current().sleep(100);
        }
      }
      if (input.pageId === behaviour.failScan) throw ApplicationFailure.nonRetryable('the browser died twice', FAILURE_TYPES.crawlNotFound);
      calls.log.push(`scan ${input.pageId}`);
      // Long enough for the workflow to claim more pages meanwhile, if it would.
      if (behaviour.scanMs) await Context.current().sleep(behaviour.scanMs);
      calls.scanned.push(input.pageId);
      calls.log.push(`scanned ${input.pageId}`);
      return { kind: 'scanned' as const, findings: 1, pageTitle: input.pageId };
    },
  };
  const ai = {
    async enrichCrawlPage(input: { pageId: string }) {
      if (input.pageId === behaviour.failEnrich) throw ApplicationFailure.nonRetryable('the model is down', FAILURE_TYPES.scanNotFound);
      calls.enriched.push(input.pageId);
      return { enriched: 1 };
    },
  };
  return { calls, persistence, discovery, browser, ai, reuseAsked };
}

describe('CrawlWorkflow with mocked activities', () => {
  let connection: NativeConnection;
  let clientConnection: Connection;
  let client: Client;
  let bundlePath: string;
  beforeAll(async () => {
    const address = inject('temporalAddress');
    connection = await NativeConnection.connect({ address });
    clientConnection = await Connection.connect({ address });
    client = new Client({ connection: clientConnection });
    bundlePath = await ensureWorkflowBundle('.data/bundles');
  }, 120_000);
  afterAll(async () => {
    await clientConnection?.close();
    await connection?.close();
  });

  /** Runs `fn` while workers serve the mocked activities on task queues of their own. */
  async function withWorkers<T>(mocks: ReturnType<typeof mockActivities>, fn: (queues: TaskQueues) => Promise<T>): Promise<T> {
    const queues = taskQueues(`wf${randomBytes(4).toString('hex')}`);
    const workers = await Promise.all([
      Worker.create({ connection, taskQueue: queues.workflows, workflowBundle: { codePath: bundlePath }, activities: mocks.persistence }),
      Worker.create({ connection, taskQueue: queues.discovery, activities: mocks.discovery }),
      Worker.create({ connection, taskQueue: queues.pageScan, activities: mocks.browser, maxHeartbeatThrottleInterval: '200 milliseconds' }),
      Worker.create({ connection, taskQueue: queues.enrichment, activities: mocks.ai }),
    ]);
    const running = Promise.all(workers.map((w) => w.run()));
    try {
      return await fn(queues);
    } finally {
      for (const w of workers) w.shutdown();
      await running;
    }
  }

  const input = (queues: TaskQueues, extra: Partial<CrawlWorkflowInput> = {}): CrawlWorkflowInput => ({
    crawlId: `c${randomBytes(6).toString('hex')}`,
    siteId: 's1',
    maxPages: 50,
    queues,
    discovery: DEFAULT_DISCOVERY_OPTIONS,
    enrichment: { maximumAttempts: 1, initialIntervalMs: 100 },
    ...extra,
  });

  it('scans and enriches every page, then finalizes once', { timeout: 60_000 }, async () => {
    const mocks = mockActivities(['p1', 'p2', 'p3', 'p4', 'p5']);
    const result = await withWorkers(mocks, (queues) =>
      client.workflow.execute('CrawlWorkflow', { taskQueue: queues.workflows, workflowId: `crawl-test-${randomBytes(4).toString('hex')}`, args: [input(queues)] }),
    );
    expect(result).toMatchObject({ status: 'completed' });
    expect(mocks.calls.scanned.sort()).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(mocks.calls.enriched.sort()).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(mocks.calls.finalized).toEqual([{ cancelled: false }]);
    expect(mocks.calls.discoverPages).toBe(1);
  });

  it('scans the first page alone: it is claimed by itself, and the next claim waits for its scan', { timeout: 60_000 }, async () => {
    const mocks = mockActivities(['p1', 'p2', 'p3', 'p4'], { scanMs: 700 });
    const result = await withWorkers(mocks, (queues) =>
      client.workflow.execute('CrawlWorkflow', { taskQueue: queues.workflows, workflowId: `crawl-test-${randomBytes(4).toString('hex')}`, args: [input(queues)] }),
    );
    expect(result).toMatchObject({ status: 'completed' });
    expect(mocks.calls.log.slice(0, 3)).toEqual(['claim 1', 'scan p1', 'scanned p1']);
    // The whole window then (less the first page, if it is still being enriched).
    expect(mocks.calls.log[3]).toMatch(/^claim 1[12]$/);
    // Then the others side by side: every one started before the first of them ended.
    const rest = mocks.calls.log.slice(4).filter((e) => e.startsWith('scan'));
    expect(rest.slice(0, 3).sort()).toEqual(['scan p2', 'scan p3', 'scan p4']);
    expect(mocks.calls.scanned.sort()).toEqual(['p1', 'p2', 'p3', 'p4']);
  });

  it('reuses unchanged pages without scanning or enriching them; asks only about pages audited before; a failed reuse check scans the page; {"reuse": false} never asks', { timeout: 60_000 }, async () => {
    const mocks = mockActivities(['p1', 'p2', 'p3', 'p4', 'p5'], { auditedBefore: ['p1', 'p2', 'p3', 'p4'], reusable: ['p1', 'p3'], reuseFails: 'p4' });
    const result = await withWorkers(mocks, (queues) =>
      client.workflow.execute('CrawlWorkflow', { taskQueue: queues.workflows, workflowId: `crawl-test-${randomBytes(4).toString('hex')}`, args: [input(queues)] }),
    );
    expect(result).toMatchObject({ status: 'completed' });
    expect(mocks.reuseAsked.sort()).toEqual(['p1', 'p2', 'p3', 'p4']);
    expect(mocks.calls.scanned.sort()).toEqual(['p2', 'p4', 'p5']);
    expect(mocks.calls.enriched.sort()).toEqual(['p2', 'p4', 'p5']);

    const fresh = mockActivities(['p1', 'p2'], { auditedBefore: ['p1', 'p2'], reusable: ['p1', 'p2'] });
    await withWorkers(fresh, (queues) =>
      client.workflow.execute('CrawlWorkflow', { taskQueue: queues.workflows, workflowId: `crawl-test-${randomBytes(4).toString('hex')}`, args: [input(queues, { reuse: false })] }),
    );
    expect(fresh.reuseAsked).toEqual([]);
    expect(fresh.calls.scanned.sort()).toEqual(['p1', 'p2']);
    expect(fresh.calls.opened[0]).toMatchObject({ reuse: false });
  });

  it('opens the crawl itself first; started without an id (as by a Schedule) it makes one and tags itself with it', { timeout: 60_000 }, async () => {
    const mocks = mockActivities(['p1']);
    const { result, tagged } = await withWorkers(mocks, async (queues) => {
      const workflowId = `scheduled-${randomBytes(4).toString('hex')}`;
      const { crawlId: _omit, ...withoutId } = input(queues);
      const result = await client.workflow.execute('CrawlWorkflow', { taskQueue: queues.workflows, workflowId, args: [withoutId] });
      const d = await client.workflow.getHandle(workflowId).describe();
      return { result, tagged: d.typedSearchAttributes.get(CRAWL_ID) };
    });
    expect(mocks.calls.opened).toHaveLength(1);
    const opened = mocks.calls.opened[0]!;
    expect(opened).toMatchObject({ siteId: 's1', maxPages: 50 });
    expect(opened.crawlId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result).toEqual({ crawlId: opened.crawlId, status: 'completed' });
    expect(tagged).toBe(opened.crawlId);
  });

  it('ends at once, without discovery or finalization, when the site already has a crawl under way', { timeout: 60_000 }, async () => {
    const mocks = mockActivities(['p1'], { inProgress: 'other-crawl' });
    const result = await withWorkers(mocks, (queues) =>
      client.workflow.execute('CrawlWorkflow', { taskQueue: queues.workflows, workflowId: `crawl-test-${randomBytes(4).toString('hex')}`, args: [input(queues)] }),
    );
    expect(result).toMatchObject({ status: 'crawl_in_progress' });
    expect(mocks.calls.markCrawlRunning).toBe(0);
    expect(mocks.calls.discoverPages).toBe(0);
    expect(mocks.calls.finalized).toEqual([]);
  });

  it('marks a page whose scan fails for good, and one whose enrichment fails, and still finalizes the rest', { timeout: 60_000 }, async () => {
    const mocks = mockActivities(['p1', 'p2', 'p3'], { failScan: 'p2', failEnrich: 'p3' });
    const result = await withWorkers(mocks, (queues) =>
      client.workflow.execute('CrawlWorkflow', { taskQueue: queues.workflows, workflowId: `crawl-test-${randomBytes(4).toString('hex')}`, args: [input(queues)] }),
    );
    expect(result).toMatchObject({ status: 'completed_partial' });
    expect(mocks.calls.scanFailed).toEqual(['p2']);
    expect(mocks.calls.enrichFailed).toEqual(['p3']);
    expect(mocks.calls.enriched).toEqual(['p1']);
    expect(mocks.calls.finalized).toEqual([{ cancelled: false }]);
  });

  it('continues as new when its history grows, without starting discovery or marking the crawl running again', { timeout: 120_000 }, async () => {
    const pages = Array.from({ length: 24 }, (_, i) => `p${i}`);
    const mocks = mockActivities(pages, { claimBatch: 2 });
    const { result, runs } = await withWorkers(mocks, async (queues) => {
      const workflowId = `crawl-test-${randomBytes(4).toString('hex')}`;
      const result = await client.workflow.execute('CrawlWorkflow', { taskQueue: queues.workflows, workflowId, args: [input(queues, { maxRunEvents: 60 })] });
      let runs = 0;
      for await (const _ of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs++;
      return { result, runs };
    });
    expect(result).toMatchObject({ status: 'completed' });
    expect(runs).toBeGreaterThan(1);
    expect(mocks.calls.scanned.sort()).toEqual([...pages].sort());
    expect(new Set(mocks.calls.scanned).size).toBe(pages.length);
    expect(mocks.calls.discoverPages).toBe(1);
    expect(mocks.calls.markCrawlRunning).toBe(1);
    expect(mocks.calls.opened).toHaveLength(1);
    expect(mocks.calls.finalized).toEqual([{ cancelled: false }]);
  });

  it('on cancel, stops the scans in flight, finalizes as cancelled and ends cancelled', { timeout: 60_000 }, async () => {
    const mocks = mockActivities(['p1', 'p2'], { blockScans: true });
    const error = await withWorkers(mocks, async (queues) => {
      const handle = await client.workflow.start('CrawlWorkflow', { taskQueue: queues.workflows, workflowId: `crawl-test-${randomBytes(4).toString('hex')}`, args: [input(queues)] });
      // Once the first page's scan is under way (it never ends by itself), cancel.
      await pollUntil(async () => mocks.calls.log, (log) => log.includes('scan p1'), { timeoutMs: 30_000, everyMs: 20 });
      await handle.cancel();
      return handle.result().then(
        () => undefined,
        (err: unknown) => err,
      );
    });
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect((error as WorkflowFailedError).cause?.name).toBe('CancelledFailure');
    expect(mocks.calls.log).toEqual(['claim 1', 'scan p1']);
    expect(mocks.calls.finalized).toEqual([{ cancelled: true }]);
    expect(mocks.calls.scanned).toEqual([]);
  });
});
