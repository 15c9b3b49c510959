import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import pg from 'pg';
import { inject } from 'vitest';
import { createEnricher, createJudgeFor } from '../../src/enrichment/create-enricher.ts';
import { createBrowserProvider, resolveChromiumPath, type BrowserProvider } from '../../src/audit/session/browser-provider.ts';
import { createTabPool, type TabPool } from '../../src/audit/session/tab-pool.ts';
import { createApp } from '../../src/api/app.ts';
import { createApiServer, listen } from '../../src/api/http-server.ts';
import type { AppDeps } from '../../src/api/env.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createDb, type Database } from '../../src/db/database.ts';
import { createHostPacer } from '../../src/activities/host-pacer.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createNotifications } from '../../src/db/notifications.ts';
import { createLogger } from '../../src/logger.ts';
import { createTargetPolicy, type TargetPolicy } from '../../src/security/target-policy.ts';
import { taskQueues, type TaskQueues } from '../../src/shared/task-queues.ts';
import { createWorkers, runWorkers, type WorkerDeps } from '../../src/workers/create-workers.ts';
import { ensureWorkflowBundle } from '../../src/workers/workflow-bundle.ts';

let runtimeInstalled = false;
function quietRuntime() {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const noop = () => {};
  Runtime.install({ logger: { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: noop } });
}

/** A fresh, migrated database of its own for one test file. */
export async function createTestDatabase(): Promise<{ url: string; db: Database; drop(): Promise<void> }> {
  const admin = inject('adminDatabaseUrl');
  const name = `a11y_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const db = createDb(url.href);
  await migrateToLatest(db);
  return {
    url: url.href,
    db,
    async drop() {
      await db.destroy();
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface TestEnv {
  config: Config;
  db: Database;
  databaseUrl: string;
  temporalAddress: string;
  queuePrefix: string;
  queues: TaskQueues;
  temporal: Client;
  browser: BrowserProvider;
  /** The workers' page-scan tabs. */
  tabs: TabPool;
  /** Base URL of the real HTTP API. */
  api: string;
  deps: AppDeps;
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** Another API process (same database and Temporal), e.g. to prove shared limits. */
  startApi(overrides?: Partial<AppDeps>): Promise<{ api: string; close(): Promise<void> }>;
  close(): Promise<void>;
}

export interface TestEnvOptions {
  env?: Record<string, string>;
  policy?: TargetPolicy;
  workers?: boolean;
  overrides?: WorkerDeps['overrides'];
  scanEngines?: WorkerDeps['scanEngines'];
  enrichmentRetry?: AppDeps['enrichmentRetry'];
  discoveryOptions?: AppDeps['discoveryOptions'];
  temporalAddress?: string;
}

/**
 * The real parts for one test file: its own database, the shared Temporal dev server with task
 * queues of its own, real workers with real Chromium, and the API on a loopback port.
 */
export async function createTestEnv(opts: TestEnvOptions = {}): Promise<TestEnv> {
  quietRuntime();
  const temporalAddress = opts.temporalAddress ?? inject('temporalAddress');
  const database = await createTestDatabase();
  const config = loadConfig({ ALLOW_PRIVATE_TARGETS: 'true', PAGE_LOAD_TIMEOUT_MS: '10000', LOG_LEVEL: 'silent', SECRETS_KEY: randomBytes(32).toString('base64'), ...opts.env });
  const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const queuePrefix = `t${randomBytes(4).toString('hex')}`;
  const queues = taskQueues(queuePrefix);
  const connection = await Connection.connect({ address: temporalAddress });
  const temporal = new Client({ connection });
  const policy = opts.policy ?? createTargetPolicy({ allowPrivate: config.allowPrivateTargets });
  const browser = createBrowserProvider({ executablePath: resolveChromiumPath(config.chromiumPath) });
  const pacer = createHostPacer(database.db, config.politeness);
  const tabs = createTabPool({
    browser,
    policy,
    pacer,
    pageLoadTimeoutMs: config.pageLoadTimeoutMs,
    slots: config.pageScanConcurrency,
    maxPagesPerTab: config.tabMaxPages,
    maxPagesPerBrowser: config.browserMaxPages,
  });

  let workers: Worker[] = [];
  let running: Promise<void> | undefined;
  let nativeConnection: NativeConnection | undefined;
  if (opts.workers !== false) {
    nativeConnection = await NativeConnection.connect({ address: temporalAddress });
    workers = await createWorkers({
      connection: nativeConnection,
      namespace: 'default',
      queues,
      workflowBundlePath: await ensureWorkflowBundle('.data/bundles'),
      db: database.db,
      browser,
      tabs,
      policy,
      pacer,
      logger,
      pageScanConcurrency: config.pageScanConcurrency,
      aiEnrichmentConcurrency: config.aiEnrichmentConcurrency,
      pageLoadTimeoutMs: config.pageLoadTimeoutMs,
      scanDeadlineMs: config.scanDeadlineMs,
      webhookTimeoutMs: config.webhookTimeoutMs,
      webhooks: config.webhooks,
      screenshots: config.screenshots,
      scanStates: config.scanStates,
      crawlsKeptPerSite: config.crawlsKeptPerSite,
      scanRetentionDays: config.scanRetentionDays,
      reuseMaxAgeMs: config.reuseMaxAgeMs,
      secretsKey: config.secretsKey,
      enricher: createEnricher(config.openai, database.db, logger),
      judge: createJudgeFor(config.openai, database.db, logger),
      overrides: opts.overrides,
      scanEngines: opts.scanEngines,
    });
    running = runWorkers(workers);
  }

  const notifications = createNotifications(database.url, logger);
  const deps: AppDeps = {
    config,
    db: database.db,
    temporal,
    notifications,
    logger,
    policy,
    queues,
    enrichmentRetry: opts.enrichmentRetry ?? { maximumAttempts: 2, initialIntervalMs: 100 },
    discoveryOptions: opts.discoveryOptions,
  };
  const servers: Server[] = [];
  /** An API server exactly as server.ts starts one, on a free loopback port. */
  async function startApi(overrides: Partial<AppDeps> = {}) {
    const app = createApp({ ...deps, ...overrides });
    const server = createApiServer(app.fetch, logger);
    servers.push(server);
    const { port } = await listen(server, 0, '127.0.0.1');
    return {
      api: `http://127.0.0.1:${port}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }
  const main = await startApi();

  return {
    config,
    db: database.db,
    databaseUrl: database.url,
    temporalAddress,
    queuePrefix,
    queues,
    temporal,
    browser,
    tabs,
    api: main.api,
    deps,
    startApi,
    request(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      return fetch(main.api + path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
    async close() {
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
      await notifications.close();
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await running?.catch(() => {});
      await nativeConnection?.close();
      await connection.close();
      await tabs.close();
      await browser.close();
      await database.drop();
    },
  };
}

export async function pollUntil<T>(fn: () => Promise<T>, done: (v: T) => boolean, opts: { timeoutMs?: number; everyMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    const v = await fn();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not reached in time; last value: ${JSON.stringify(v).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 100));
  }
}
