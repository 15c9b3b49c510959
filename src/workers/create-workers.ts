import { NativeConnection, Worker } from '@temporalio/worker';
import { createAiEnrichmentActivities, type AiEnrichmentActivities } from '../activities/ai-enrichment/index.ts';
import { createPageScanActivities, type PageScanActivities, type PageScanActivityDeps } from '../activities/page-scan/index.ts';
import type { BrowserProvider } from '../audit/session/browser-provider.ts';
import type { TabPool } from '../audit/session/tab-pool.ts';
import { createCrawlDiscoveryActivities, type CrawlDiscoveryActivities } from '../activities/crawl-discovery/index.ts';
import { createPersistenceActivities, type PersistenceActivities } from '../activities/persistence/index.ts';
import { createWebhookActivities } from '../activities/webhooks/index.ts';
import type { Enricher } from '../enrichment/enricher.ts';
import type { Judge } from '../enrichment/judge/judge.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { TargetPolicy } from '../security/target-policy.ts';
import type { SecretsKey } from '../security/secrets.ts';
import type { TaskQueues } from '../shared/task-queues.ts';
import type { HostPacer } from '../shared/politeness.ts';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../shared/webhook-delivery.ts';

export interface WorkerDeps {
  connection: NativeConnection;
  namespace: string;
  /** The name activity histories give this process (WORKER_IDENTITY); unset: the SDK's `pid@hostname`. */
  identity?: string;
  queues: TaskQueues;
  workflowBundlePath: string;
  db: Database;
  browser: BrowserProvider;
  /** The page-scan slots' tabs (createTabPool with `pageScanConcurrency` slots); whoever makes it closes it. */
  tabs: TabPool;
  policy: TargetPolicy;
  logger: Logger;
  pageScanConcurrency: number;
  aiEnrichmentConcurrency: number;
  pageLoadTimeoutMs: number;
  scanDeadlineMs?: number;
  /** Linked documents' limits (DOCUMENT_*). */
  documents?: PageScanActivityDeps['documents'];
  /** Pictures of findings (SCREENSHOTS*). */
  screenshots?: PageScanActivityDeps['screenshots'];
  /** Interaction states per page (SCAN_STATES_MAX, SCAN_STATES_BUDGET_MS); unset: none. */
  scanStates?: PageScanActivityDeps['scanStates'];
  /** Ended crawls per site whose page scans and findings are kept (CRAWLS_KEPT_PER_SITE). */
  crawlsKeptPerSite?: number;
  /** Days a single-page scan is kept after it ended (SCAN_RETENTION_DAYS); null: for ever. */
  scanRetentionDays?: number | null;
  /** How long an unchanged crawl page's audit is reused (REUSE_MAX_AGE, ms); 0: never; unset: 30 days. */
  reuseMaxAgeMs?: number;
  /** Opens sites' authentication set-ups (SECRETS_KEY): scans and discovery read them from the database by site id. */
  secretsKey?: SecretsKey;
  /** Writes issue texts: chosen once from configuration (`createEnricher`). */
  enricher: Enricher;
  /** AI-assisted judgement (`createJudgeFor`): set when a model is configured. */
  judge?: Judge;
  /** The engines each page runs; the production set unless a test picks others. */
  scanEngines?: PageScanActivityDeps['scanEngines'];
  /** Webhook deliveries' slots, receivers' limits and breaker, the log's bound (WEBHOOK_*); unset: the defaults. */
  webhooks?: WebhookSettings;
  /** One webhook delivery attempt's limit (WEBHOOK_TIMEOUT_MS). */
  webhookTimeoutMs?: number;
  /** Each host's pacing (createHostPacer), shared by discovery, the page scans and their tabs (give the same one to createTabPool). */
  pacer?: HostPacer;
  /** Replace activities (tests inject failures this way). */
  overrides?: {
    ai?: Partial<AiEnrichmentActivities>;
    browser?: Partial<PageScanActivities>;
    persistence?: Partial<PersistenceActivities>;
    discovery?: Partial<CrawlDiscoveryActivities>;
  };
}

/**
 * One Worker per task queue, all in this process and on one connection. Slots per queue are
 * the spec's stage concurrency; more processes add slots.
 */
export async function createWorkers(deps: WorkerDeps): Promise<Worker[]> {
  // Heartbeats carry cancellations to activities; the SDK's default throttle (0.8 x the heartbeat
  // timeout, 24 s for a page scan) would let a cancelled scan run that long. 2 s is the scan's own beat.
  const common = { connection: deps.connection, namespace: deps.namespace, maxHeartbeatThrottleInterval: '2 seconds', defaultHeartbeatThrottleInterval: '2 seconds', ...(deps.identity ? { identity: deps.identity } : {}) } as const;
  const webhooks = createWebhookActivities(deps);
  // `deliverWebhook` is here too for deliveries whose history put it on the workflows queue
  // (started before deliveries had their own); every newer one runs on `webhook-delivery`.
  const persistence = { ...createPersistenceActivities(deps), ...webhooks, ...deps.overrides?.persistence };
  const browser = { ...createPageScanActivities(deps), ...deps.overrides?.browser };
  const ai = { ...createAiEnrichmentActivities(deps), ...deps.overrides?.ai };
  const discovery = { ...createCrawlDiscoveryActivities(deps), ...deps.overrides?.discovery };
  return Promise.all([
    Worker.create({
      ...common,
      taskQueue: deps.queues.workflows,
      workflowBundle: { codePath: deps.workflowBundlePath },
      activities: persistence,
      maxConcurrentActivityTaskExecutions: 20,
      maxEagerActivityReservationsPerWorkflowTask: 0,
    }),
    Worker.create({
      ...common,
      taskQueue: deps.queues.discovery,
      activities: discovery,
      maxConcurrentActivityTaskExecutions: 1,
    }),
    Worker.create({
      ...common,
      taskQueue: deps.queues.pageScan,
      activities: browser,
      maxConcurrentActivityTaskExecutions: deps.pageScanConcurrency,
    }),
    Worker.create({
      ...common,
      taskQueue: deps.queues.enrichment,
      activities: ai,
      maxConcurrentActivityTaskExecutions: deps.aiEnrichmentConcurrency,
    }),
    Worker.create({
      ...common,
      taskQueue: deps.queues.webhookDelivery,
      activities: { deliverWebhook: webhooks.deliverWebhook },
      maxConcurrentActivityTaskExecutions: (deps.webhooks ?? DEFAULT_WEBHOOK_SETTINGS).deliveryConcurrency,
    }),
  ]);
}

/** Runs the workers until one fails or `signal` aborts; then shuts all of them down. */
export async function runWorkers(workers: Worker[], signal?: AbortSignal): Promise<void> {
  const stop = () => workers.forEach((w) => w.getState() === 'RUNNING' && w.shutdown());
  signal?.addEventListener('abort', stop, { once: true });
  try {
    await Promise.all(workers.map((w) => w.run().finally(stop)));
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}
