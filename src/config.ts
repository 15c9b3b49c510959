import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { SecretsKey, SecretsKeyError } from './security/secrets.ts';
import type { WebhookSettings } from './shared/webhook-delivery.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const intIn = (min: number, max: number, def: number) =>
  z.coerce.number().int().min(min).max(max).default(def);

/** Every environment variable the service reads; the only reader of process.env. */
export const configSchema = z.object({
  PORT: intIn(0, 65535, 3000),
  HOST: z.string().min(1).optional(),
  DATABASE_URL: z.string().url().optional(),
  EMBEDDED_PG_PORT: intIn(1024, 65535, 54329),
  DATA_DIR: z.string().min(1).default('.data'),
  TEMPORAL_ADDRESS: z.string().min(1).optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_DEV_PORT: intIn(1, 65535, 7233),
  TEMPORAL_UI_PORT: intIn(1, 65535, 8233),
  TASK_QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z0-9-]*$/, 'lower-case letters, digits and dashes only')
    .default(''),
  /** How this worker process names itself to Temporal (activity histories show it); unset: the SDK's `pid@hostname`. */
  WORKER_IDENTITY: z.string().min(1).max(200).optional(),
  MAX_CRAWL_PAGES: intIn(1, 1_000_000, 1000),
  /** Unset: one more than the cores, at least 3 and at most 8 (3 on our 2-core machines). */
  PAGE_SCAN_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  /** Pages one scan slot's tab loads before it is replaced by a fresh one. */
  TAB_MAX_PAGES: intIn(1, 100_000, 100),
  /** Pages a Chromium serves before it is replaced by a fresh one (once its tabs are done). */
  BROWSER_MAX_PAGES: intIn(1, 10_000_000, 2000),
  AI_ENRICHMENT_CONCURRENCY: intIn(1, 64, 2),
  PAGE_LOAD_TIMEOUT_MS: intIn(1000, 120_000, 30_000),
  /** The whole scan of one page; under the page-scan activity's 4-minute limit. */
  SCAN_DEADLINE_MS: intIn(10_000, 200_000, 120_000),
  /** Bytes of a linked document (PDF) read at most; a larger file is the document's `too_large` error. */
  DOCUMENT_MAX_BYTES: intIn(64 * 1024, 1024 * 1024 * 1024, 50 * 1024 * 1024),
  /** Time to read one document's structure (its worker thread is ended past it). */
  DOCUMENT_READ_TIMEOUT_MS: intIn(1000, 180_000, 60_000),
  /** Memory, in MiB, reading one document may take (its heap, and the buffers its streams expand to). */
  DOCUMENT_READ_MEMORY_MB: intIn(32, 8192, 512),
  /** One webhook delivery attempt: connect, send, and the receiver's status line. */
  WEBHOOK_TIMEOUT_MS: intIn(1000, 60_000, 10_000),
  /** Webhook-delivery activity slots of one worker process (deliveries never take the workflows queue's). */
  WEBHOOK_DELIVERY_CONCURRENCY: intIn(1, 64, 2),
  /** Deliveries in flight to one receiver (a URL origin) at once, by every worker together. */
  WEBHOOK_RECEIVER_CONCURRENCY: intIn(1, 8, 1),
  /** Consecutive failures (no answer, 5xx, 408, 429, DNS) after which a receiver is paused. */
  WEBHOOK_RECEIVER_FAILURES: intIn(1, 1000, 5),
  /** A receiver's first pause; doubled each time it fails again right after one, up to an hour. */
  WEBHOOK_RECEIVER_PAUSE_MS: intIn(1000, 3_600_000, 60_000),
  /** Delivery log rows kept per webhook: the newest, and every one still being delivered. */
  WEBHOOK_DELIVERIES_KEPT: intIn(1, 100_000, 100),
  /** PUT /api/sites/{id}/webhooks per client and hour (0 = off): each writes and seals secrets. */
  WEBHOOK_RATE_LIMIT: intIn(0, 1_000_000, 30),
  /** Interaction states (menus, details, tabs, dialogs) opened and checked per page; 0 = none. */
  SCAN_STATES_MAX: intIn(0, 50, 6),
  /** Time per page for its interaction states; 0 = none. */
  SCAN_STATES_BUDGET_MS: intIn(0, 60_000, 5000),
  CHROMIUM_PATH: z.string().min(1).optional(),
  /** Pictures of findings: `on` (default) or `off`. */
  SCREENSHOTS: z.enum(['on', 'off', 'true', 'false', '1', '0', 'yes', 'no']).default('on').transform((v) => ['on', 'true', '1', 'yes'].includes(v)),
  /** Pictures one crawl keeps at most (one per issue group). */
  SCREENSHOTS_PER_CRAWL: intIn(0, 100_000, 300),
  /** How long the pictures of one page may take together. */
  SCREENSHOTS_PAGE_BUDGET_MS: intIn(500, 60_000, 10_000),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  OPENAI_TIMEOUT_MS: intIn(1000, 600_000, 30_000),
  /** AI-assisted judgement with the configured model (docs/checks.md#ai-assisted-judgement); off: the model writes texts only. */
  AI_JUDGEMENT: z.enum(['on', 'off', 'true', 'false', '1', '0', 'yes', 'no']).default('on').transform((v) => ['on', 'true', '1', 'yes'].includes(v)),
  ALLOW_PRIVATE_TARGETS: bool,
  /**
   * `host:port` pairs (comma-separated) that may be crawled although they resolve to a private
   * address: an intranet site, or a loopback test site. Everything else is still vetted, through
   * the egress proxy.
   */
  ALLOWED_PRIVATE_HOSTS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/, 'host:port pairs, e.g. intranet.example:443 or [::1]:8080'))),
  /** Ended crawls per site whose page scans and findings are kept; older ones lose them at the next crawl's end (retention). */
  CRAWLS_KEPT_PER_SITE: intIn(1, 10_000, 20),
  /** Pages of one host loaded at once, by every worker together; fewer while the site pushes back (429/503). */
  HOST_CONCURRENCY: intIn(1, 64, 4),
  /** robots.txt's Crawl-delay is honoured up to this many ms between a host's page fetches. */
  CRAWL_DELAY_MAX_MS: intIn(0, 60_000, 10_000),
  /**
   * How long a crawl page's audit may be reused by later crawls when nothing it loaded changed:
   * `30d`, `12h`, `90m`, `45s`, or a number of days; 0 or `off`: every page is audited afresh.
   */
  REUSE_MAX_AGE: z
    .string()
    .default('30d')
    .transform((v, ctx) => {
      const ms = reuseMaxAgeMs(v);
      if (ms === undefined) ctx.addIssue({ code: 'custom', message: 'a duration such as 30d, 12h, 90m or 45s, a number of days, or off' });
      return ms ?? 0;
    }),
  /** Days a single-page scan is kept after it ended (its findings and pictures with it); 0 or `off`: for ever. */
  SCAN_RETENTION_DAYS: z
    .union([z.literal('off'), z.coerce.number().int().min(0).max(36_500)], { error: 'a number of days (0 to 36500) or off' })
    .default(30),
  SCAN_RATE_LIMIT: intIn(0, 1_000_000, 10),
  CRAWL_RATE_LIMIT: intIn(0, 1_000_000, 20),
  API_KEYS: z.string().optional(),
  TRUST_PROXY: bool,
  // Who may talk to an API without keys, and what one client or process may hold.
  /**
   * Host names (or `host:port`) an API without API_KEYS answers for besides the address it is
   * bound to, localhost and loopback literals: e.g. the name a reverse proxy forwards. Any other
   * Host is refused (421), which defeats DNS rebinding.
   */
  API_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/, 'host names or host:port pairs, e.g. audit.example.org or audit.example.org:8443'))),
  /** POST /api/sites per client and hour (0 = off): each resolves a host name and may write a site. */
  SITE_RATE_LIMIT: intIn(0, 1_000_000, 60),
  /** PUT /api/sites/{id}/schedule per client and hour (0 = off): each creates or rewrites a Temporal Schedule. */
  SCHEDULE_RATE_LIMIT: intIn(0, 1_000_000, 30),
  /** Report exports one API process renders at once (0 = no cap): each streams from a pooled database connection. */
  EXPORT_CONCURRENCY: intIn(0, 1000, 4),
  /** An export whose client takes no byte for this long, while bytes wait for it, is ended and its cursor closed. */
  EXPORT_STALL_MS: intIn(1000, 3_600_000, 30_000),
  /** Event streams (…/events) one client may hold open at once in one API process (0 = no cap). */
  EVENT_STREAMS_PER_CLIENT: intIn(0, 100_000, 10),
  /** Event streams one API process serves at once (0 = no cap): each re-reads its row every 2 s. */
  EVENT_STREAMS_MAX: intIn(0, 1_000_000, 100),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** 32 bytes (64 hex digits or base64) that encrypt sites' login secrets at rest; `npm start` keeps one in DATA_DIR when unset. */
  SECRETS_KEY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      try {
        return SecretsKey.parse(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: err instanceof SecretsKeyError ? err.message : 'not a valid key' });
        return z.NEVER;
      }
    }),
});

export type RawConfig = z.infer<typeof configSchema>;

export interface Config {
  readonly port: number;
  /** Where the API binds; loopback unless HOST is set. */
  readonly host: string;
  readonly hostExplicit: boolean;
  readonly databaseUrl: string | undefined;
  readonly embeddedPgPort: number;
  readonly dataDir: string;
  readonly temporalAddress: string | undefined;
  readonly temporalNamespace: string;
  readonly temporalDevPort: number;
  readonly temporalUiPort: number;
  readonly taskQueuePrefix: string;
  readonly workerIdentity: string | undefined;
  readonly maxCrawlPages: number;
  readonly pageScanConcurrency: number;
  readonly tabMaxPages: number;
  readonly browserMaxPages: number;
  readonly aiEnrichmentConcurrency: number;
  readonly pageLoadTimeoutMs: number;
  readonly scanDeadlineMs: number;
  /** Linked documents (DOCUMENT_MAX_BYTES, DOCUMENT_READ_TIMEOUT_MS, DOCUMENT_READ_MEMORY_MB). */
  readonly documents: { readonly maxBytes: number; readonly readTimeoutMs: number; readonly memoryMb: number };
  /** One webhook delivery attempt's limit (WEBHOOK_TIMEOUT_MS). */
  readonly webhookTimeoutMs: number;
  /** Webhook deliveries: their slots, each receiver's limit and pauses, and how many log rows a webhook keeps. */
  readonly webhooks: WebhookSettings;
  /** Webhook list writes (PUT …/webhooks) per client and hour (0 = off). */
  readonly webhookRateLimit: number;
  /** Interaction states per page (SCAN_STATES_MAX, SCAN_STATES_BUDGET_MS); `maxStates` 0 when either is 0. */
  readonly scanStates: { readonly maxStates: number; readonly budgetMs: number };
  readonly chromiumPath: string | undefined;
  /** Pictures of findings (SCREENSHOTS, SCREENSHOTS_PER_CRAWL, SCREENSHOTS_PAGE_BUDGET_MS); a single-page scan takes at most `perScan`. */
  readonly screenshots: { readonly enabled: boolean; readonly perCrawl: number; readonly perScan: number; readonly pageBudgetMs: number };
  /** Set when OPENAI_API_KEY or OPENAI_BASE_URL is: enrichment then asks that model; unset, the offline enricher writes the texts. */
  readonly openai: { readonly apiKey: string; readonly baseUrl: string | undefined; readonly model: string; readonly timeoutMs: number; readonly judgement: boolean } | undefined;
  readonly allowPrivateTargets: boolean;
  readonly allowedPrivateHosts: readonly string[];
  /** Ended crawls per site that keep their page scans and findings (retention). */
  readonly crawlsKeptPerSite: number;
  /**
   * Per-host politeness: pages at once (HOST_CONCURRENCY), the longest Crawl-delay honoured
   * (CRAWL_DELAY_MAX_MS), and how long a fetch holds a host that asks for a delay when its worker
   * never says it got its answer (a page load's timeout and a little more).
   */
  readonly politeness: { readonly hostConcurrency: number; readonly crawlDelayMaxMs: number; readonly fetchLeaseMs: number };
  /** Days a single-page scan is kept after it ended (retention); null: for ever. */
  readonly scanRetentionDays: number | null;
  /** REUSE_MAX_AGE in ms: how long an unchanged page's audit is reused by later crawls; 0: never. */
  readonly reuseMaxAgeMs: number;
  readonly scanRateLimit: number;
  /** Crawl starts per client and hour (0 = off). */
  readonly crawlRateLimit: number;
  readonly apiKeys: readonly string[];
  readonly trustProxy: boolean;
  // The API's guard: hosts it answers for without keys.
  /** Extra Host values an API without API_KEYS answers for (`name` any port, or `name:port`). */
  readonly apiAllowedHosts: readonly string[];
  /** Site creations (POST /api/sites) per client and hour (0 = off). */
  readonly siteRateLimit: number;
  /** Schedule writes (PUT …/schedule) per client and hour (0 = off). */
  readonly scheduleRateLimit: number;
  /** Report exports rendered at once by one API process (0 = no cap). */
  readonly exportConcurrency: number;
  /** How long an export may wait on a client that reads nothing before it is ended. */
  readonly exportStallMs: number;
  /** Event streams one client may hold open at once in one API process (0 = no cap). */
  readonly eventStreamsPerClient: number;
  /** Event streams one API process serves at once (0 = no cap). */
  readonly eventStreamsMax: number;
  readonly logLevel: RawConfig['LOG_LEVEL'];
  /** Encrypts sites' authentication set-ups; unset, they cannot be stored (the API says so). */
  readonly secretsKey: SecretsKey | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment once; throws a ConfigError listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Treat empty strings as unset so `FOO= npm start` behaves like no FOO.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const apiKeys = (c.API_KEYS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return Object.freeze({
    port: c.PORT,
    host: c.HOST ?? '127.0.0.1',
    hostExplicit: c.HOST !== undefined,
    databaseUrl: c.DATABASE_URL,
    embeddedPgPort: c.EMBEDDED_PG_PORT,
    dataDir: c.DATA_DIR,
    temporalAddress: c.TEMPORAL_ADDRESS,
    temporalNamespace: c.TEMPORAL_NAMESPACE,
    temporalDevPort: c.TEMPORAL_DEV_PORT,
    temporalUiPort: c.TEMPORAL_UI_PORT,
    taskQueuePrefix: c.TASK_QUEUE_PREFIX,
    workerIdentity: c.WORKER_IDENTITY,
    maxCrawlPages: c.MAX_CRAWL_PAGES,
    pageScanConcurrency: c.PAGE_SCAN_CONCURRENCY ?? defaultPageScanSlots(),
    tabMaxPages: c.TAB_MAX_PAGES,
    browserMaxPages: c.BROWSER_MAX_PAGES,
    aiEnrichmentConcurrency: c.AI_ENRICHMENT_CONCURRENCY,
    pageLoadTimeoutMs: c.PAGE_LOAD_TIMEOUT_MS,
    scanDeadlineMs: Math.max(c.SCAN_DEADLINE_MS, c.PAGE_LOAD_TIMEOUT_MS + 20_000),
    documents: Object.freeze({ maxBytes: c.DOCUMENT_MAX_BYTES, readTimeoutMs: c.DOCUMENT_READ_TIMEOUT_MS, memoryMb: c.DOCUMENT_READ_MEMORY_MB }),
    webhookTimeoutMs: c.WEBHOOK_TIMEOUT_MS,
    webhooks: Object.freeze({
      deliveryConcurrency: c.WEBHOOK_DELIVERY_CONCURRENCY,
      receiverConcurrency: c.WEBHOOK_RECEIVER_CONCURRENCY,
      receiverFailures: c.WEBHOOK_RECEIVER_FAILURES,
      receiverPauseMs: c.WEBHOOK_RECEIVER_PAUSE_MS,
      deliveriesKept: c.WEBHOOK_DELIVERIES_KEPT,
    }),
    webhookRateLimit: c.WEBHOOK_RATE_LIMIT,
    scanStates: Object.freeze({ maxStates: c.SCAN_STATES_BUDGET_MS > 0 ? c.SCAN_STATES_MAX : 0, budgetMs: c.SCAN_STATES_BUDGET_MS }),
    chromiumPath: c.CHROMIUM_PATH,
    screenshots: Object.freeze({ enabled: c.SCREENSHOTS, perCrawl: c.SCREENSHOTS_PER_CRAWL, perScan: 60, pageBudgetMs: c.SCREENSHOTS_PAGE_BUDGET_MS }),
    // A local OpenAI-compatible server (vLLM, Ollama, a test double) may need no key: its URL alone enables it.
    openai:
      c.OPENAI_API_KEY || c.OPENAI_BASE_URL
        ? Object.freeze({ apiKey: c.OPENAI_API_KEY ?? 'unused', baseUrl: c.OPENAI_BASE_URL, model: c.OPENAI_MODEL, timeoutMs: c.OPENAI_TIMEOUT_MS, judgement: c.AI_JUDGEMENT })
        : undefined,
    allowPrivateTargets: c.ALLOW_PRIVATE_TARGETS,
    allowedPrivateHosts: Object.freeze(c.ALLOWED_PRIVATE_HOSTS),
    crawlsKeptPerSite: c.CRAWLS_KEPT_PER_SITE,
    politeness: Object.freeze({ hostConcurrency: c.HOST_CONCURRENCY, crawlDelayMaxMs: c.CRAWL_DELAY_MAX_MS, fetchLeaseMs: c.PAGE_LOAD_TIMEOUT_MS + 10_000 }),
    scanRetentionDays: c.SCAN_RETENTION_DAYS === 'off' || c.SCAN_RETENTION_DAYS === 0 ? null : c.SCAN_RETENTION_DAYS,
    reuseMaxAgeMs: c.REUSE_MAX_AGE,
    scanRateLimit: c.SCAN_RATE_LIMIT,
    crawlRateLimit: c.CRAWL_RATE_LIMIT,
    apiKeys: Object.freeze(apiKeys),
    trustProxy: c.TRUST_PROXY,
    // The API's guard
    apiAllowedHosts: Object.freeze(c.API_ALLOWED_HOSTS),
    siteRateLimit: c.SITE_RATE_LIMIT,
    scheduleRateLimit: c.SCHEDULE_RATE_LIMIT,
    exportConcurrency: c.EXPORT_CONCURRENCY,
    exportStallMs: c.EXPORT_STALL_MS,
    eventStreamsPerClient: c.EVENT_STREAMS_PER_CLIENT,
    eventStreamsMax: c.EVENT_STREAMS_MAX,
    logLevel: c.LOG_LEVEL,
    secretsKey: c.SECRETS_KEY,
  });
}

/**
 * Page-scan slots when PAGE_SCAN_CONCURRENCY is unset: a page's checks keep one core busy, with
 * waits for the network and for layout in between, so one slot more than the cores keeps them
 * busy; at least 3 (the specification's stage concurrency), at most 8 (memory: a tab each).
 */
export function defaultPageScanSlots(cores = availableParallelism()): number {
  return Math.min(8, Math.max(3, cores + 1));
}

const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** REUSE_MAX_AGE read: `30d`, `12h`, `90m`, `45s`, a number of days, or 0/`off`; undefined when it is none of those. */
export function reuseMaxAgeMs(v: string): number | undefined {
  const t = v.trim().toLowerCase();
  if (t === 'off') return 0;
  const m = /^(\d+(?:\.\d+)?)\s*([smhd]?)$/.exec(t);
  if (!m) return undefined;
  const ms = Math.round(Number(m[1]) * DURATION_UNITS[m[2] || 'd']!);
  return ms <= 10 * 365 * DURATION_UNITS.d! ? ms : undefined;
}
