import path from 'node:path';
import { NativeConnection, Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { createBrowserProvider, resolveChromiumPath } from '../audit/session/browser-provider.ts';
import { createTabPool } from '../audit/session/tab-pool.ts';
import { loadConfig } from '../config.ts';
import { createDb } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createLogger } from '../logger.ts';
import { createTargetPolicy } from '../security/target-policy.ts';
import { taskQueues } from '../shared/task-queues.ts';
import { createEnricher, createJudgeFor } from '../enrichment/create-enricher.ts';
import { createWorkers, runWorkers } from './create-workers.ts';
import { createHostPacer } from '../activities/host-pacer.ts';
import { purgeExpiredSingleScans } from '../activities/persistence/index.ts';
import { ensureWorkflowBundle } from './workflow-bundle.ts';
import { sealPlaintextWebhookSecrets } from '../activities/webhooks/plaintext-secrets.ts';

const config = loadConfig();
const logger = createLogger('worker', config.logLevel);
if (!config.databaseUrl || !config.temporalAddress) {
  logger.fatal('the worker needs DATABASE_URL and TEMPORAL_ADDRESS (npm start sets both)');
  process.exit(2);
}

Runtime.install({
  logger: {
    log: (level, message, meta) => logger[level === 'TRACE' ? 'trace' : (level.toLowerCase() as 'info')]({ ...meta }, message),
    trace: (m, meta) => logger.trace(meta ?? {}, m),
    debug: (m, meta) => logger.debug(meta ?? {}, m),
    info: (m, meta) => logger.info(meta ?? {}, m),
    warn: (m, meta) => logger.warn(meta ?? {}, m),
    error: (m, meta) => logger.error(meta ?? {}, m),
  },
  telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} } },
});

const db = createDb(config.databaseUrl);
await migrateToLatest(db);
// Scans that came due while no scan ended (an idle service, a lowered SCAN_RETENTION_DAYS) go too.
await purgeExpiredSingleScans({ db, logger, scanRetentionDays: config.scanRetentionDays });
if (config.secretsKey) {
  const sealed = await sealPlaintextWebhookSecrets(db, config.secretsKey);
  if (sealed) logger.info({ sealed }, 'sealed webhook secrets stored in plaintext');
}
const bundle = await ensureWorkflowBundle(path.join(config.dataDir, 'bundles'));
const connection = await NativeConnection.connect({ address: config.temporalAddress });
const browser = createBrowserProvider({
  executablePath: resolveChromiumPath(config.chromiumPath),
  onFallback: (mode, err) =>
    logger.warn({ mode, reason: String((err as Error)?.message ?? err).split('\n')[0] }, 'Chromium did not start this way; trying the next, less isolated way'),
  onLaunch: (mode) => logger.info({ sandbox: mode }, 'Chromium started'),
});
const policy = createTargetPolicy({ allowPrivate: config.allowPrivateTargets, allowHosts: config.allowedPrivateHosts });
// What each site asked for (Crawl-delay, pauses after 429/503, pages at once), kept in PostgreSQL.
const pacer = createHostPacer(db, config.politeness);
const tabs = createTabPool({
  browser,
  policy,
  pacer,
  pageLoadTimeoutMs: config.pageLoadTimeoutMs,
  slots: config.pageScanConcurrency,
  maxPagesPerTab: config.tabMaxPages,
  maxPagesPerBrowser: config.browserMaxPages,
  logger,
});
// Chromium and one tab ready before the first page comes (a crawl's first page is scanned sooner).
tabs.warm();
const queues = taskQueues(config.taskQueuePrefix);
const workers = await createWorkers({
  connection,
  namespace: config.temporalNamespace,
  identity: config.workerIdentity,
  queues,
  workflowBundlePath: bundle,
  db,
  browser,
  tabs,
  policy,
  pacer,
  logger,
  pageScanConcurrency: config.pageScanConcurrency,
  aiEnrichmentConcurrency: config.aiEnrichmentConcurrency,
  pageLoadTimeoutMs: config.pageLoadTimeoutMs,
  scanDeadlineMs: config.scanDeadlineMs,
  documents: config.documents,
  webhookTimeoutMs: config.webhookTimeoutMs,
  webhooks: config.webhooks,
  screenshots: config.screenshots,
  scanStates: config.scanStates,
  crawlsKeptPerSite: config.crawlsKeptPerSite,
  scanRetentionDays: config.scanRetentionDays,
  reuseMaxAgeMs: config.reuseMaxAgeMs,
  secretsKey: config.secretsKey,
  enricher: createEnricher(config.openai, db, logger),
  judge: createJudgeFor(config.openai, db, logger),
});

const shutdown = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    logger.info({ signal: sig }, 'shutting down: finishing in-flight activities');
    shutdown.abort();
  });
}
logger.info({ queues, pageScan: config.pageScanConcurrency, aiEnrichment: config.aiEnrichmentConcurrency, webhookDelivery: config.webhooks.deliveryConcurrency }, 'worker ready');
try {
  await runWorkers(workers, shutdown.signal);
} finally {
  await tabs.close();
  await browser.close();
  await connection.close();
  await db.destroy();
  logger.info('worker stopped');
}
