import type { TaskQueues } from './task-queues.ts';

/** Stage names of a single-page scan, in order, with the progress reached when each starts. */
export const SCAN_STAGES = [
  { name: 'Loading', progress: 5 },
  { name: 'AxeChecks', progress: 30 },
  { name: 'CustomChecks', progress: 55 },
  { name: 'AiEnrichment', progress: 70 },
  { name: 'Finalizing', progress: 90 },
] as const;

export type ScanStage = (typeof SCAN_STAGES)[number]['name'];

export function stageProgress(stage: ScanStage): number {
  return SCAN_STAGES.find((s) => s.name === stage)!.progress;
}

export const SCAN_STATUSES = ['queued', 'running', 'completed', 'completed_partial', 'failed', 'cancelled'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];
export const ENDED_SCAN_STATUSES: readonly ScanStatus[] = ['completed', 'completed_partial', 'failed', 'cancelled'];

export const SEVERITIES = ['critical', 'serious', 'moderate', 'minor'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const WCAG_LEVELS = ['A', 'AA'] as const;
export type WcagLevel = (typeof WCAG_LEVELS)[number];

export const ISSUE_TYPES = ['confirmed', 'needs_review'] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];

/** Why a page could not be scanned; part of the public error object of a failed scan. */
export const PAGE_ERROR_CODES = [
  'dns_error',
  'connection_refused',
  'connection_failed',
  'tls_error',
  'timeout',
  'http_error',
  'not_html',
  'forbidden_target',
  'too_many_redirects',
  'too_large',
  'browser_error',
  /** The site has an authentication set-up and the page still landed on its login form (or answered 401). */
  'auth_required',
  /**
   * The server's answer is not valid HTTP: a status outside 100-599, a malformed status line or
   * header, conflicting lengths, broken chunked or content encoding, interim answers without end.
   */
  'invalid_response',
  /**
   * A page that stands for a site's scripted flow: a step failed (its element or URL did not come
   * in time, the page left the site), or the flow could not be read (removed, or no SECRETS_KEY).
   */
  'flow_failed',
  /**
   * The site kept answering 429 Too Many Requests or 503 Service Unavailable to the page or to a
   * stylesheet, script or font it needs, after the scan waited and tried again as long as it may:
   * the site limited the crawl. Never audited without what the server refused.
   */
  'rate_limited',
  /**
   * A linked document (a PDF) that cannot be read: not a PDF despite its type, truncated or broken,
   * or too large or too slow to read within DOCUMENT_READ_TIMEOUT_MS / DOCUMENT_READ_MEMORY_MB.
   */
  'document_unreadable',
  /** A linked document that needs a password to open: nothing in it can be audited (or read by its visitors' assistive technology without it). */
  'document_encrypted',
] as const;
export type PageErrorCode = (typeof PAGE_ERROR_CODES)[number];

export interface PageError {
  code: PageErrorCode;
  message: string;
}

export interface ScanWorkflowInput {
  scanId: string;
  /** Queue names travel as input: workflows never read configuration. */
  queues: TaskQueues;
  /** Retry budget of the enrichment stage; tests shorten it. */
  enrichment?: { maximumAttempts: number; initialIntervalMs: number };
}

/** What the page-scan activity returns: counts and ids only, never page content. */
export type ScanPageResult =
  | { kind: 'scanned'; findings: number; pageTitle: string | null }
  | { kind: 'page-error'; error: PageError };

export interface ScanWorkflowResult {
  scanId: string;
  status: ScanStatus;
  findings: number;
}

export interface DiscoveryOptions {
  /** Per request, discovery's plain HTTP fetches. */
  fetchTimeoutMs: number;
  maxDepth: number;
  /** Distinct query strings admitted per path (query-string traps). */
  maxQueryVariants: number;
  /** Fetches in flight at once within the one discovery slot. */
  concurrency: number;
}

export const DEFAULT_DISCOVERY_OPTIONS: DiscoveryOptions = { fetchTimeoutMs: 10_000, maxDepth: 20, maxQueryVariants: 10, concurrency: 4 };

export interface CrawlWorkflowInput {
  /** Chosen by whoever starts the crawl (the API); a Temporal Schedule leaves it out and the workflow makes one. */
  crawlId?: string;
  siteId: string;
  /** Page cap of this crawl. */
  maxPages: number;
  /** The viewports each page is checked at (see src/shared/viewports.ts); absent: desktop only. */
  viewports?: ViewportName[];
  queues: TaskQueues;
  discovery: DiscoveryOptions;
  /** Pages in flight (scanning or enriching) at once; worker slots bound what actually runs. */
  window?: number;
  /** History events past which a run continues as new (default 8,000); tests lower it. */
  maxRunEvents?: number;
  /** Carried across continue-as-new. */
  state?: { opened?: boolean; discoveryStarted: boolean; run: number };
  enrichment?: { maximumAttempts: number; initialIntervalMs: number };
  /** Set on crawls a Temporal Schedule starts: the schedule as the API was given it (informative only). */
  scheduledBy?: ScheduledBy;
  /** `false`: every page is audited afresh; absent: a page whose last audit loaded nothing that changed reuses it. */
  reuse?: false;
}

/** A site's re-crawl schedule: a cron expression or an interval (`6h`, `1d`), in a time zone. */
export interface ScheduledBy {
  cron?: string;
  every?: string;
  timezone?: string;
}

export interface CrawlWorkflowResult {
  crawlId: string;
  status: string;
}

/** ApplicationFailure types; the Temporal UI shows them on failed attempts. */
export const FAILURE_TYPES = {
  crawlNotFound: 'CrawlNotFound',
  scanNotFound: 'ScanNotFound',
  browserCrashed: 'BrowserCrashed',
  enrichmentFailed: 'EnrichmentFailed',
  /** The model API refused the request itself (bad key, unknown model, invalid request, refusal): retrying cannot help. */
  enrichmentRejected: 'EnrichmentRejected',
  /** A webhook's receiver did not answer 2xx (or could not be reached): retried with back-off. */
  webhookFailed: 'WebhookDeliveryFailed',
  /** The receiver has its share of deliveries in flight: this one waits (retried after a short, growing wait; not an attempt). */
  webhookReceiverBusy: 'WebhookReceiverBusy',
  /** The receiver failed too often in a row and is paused: this one waits until the pause ends (not an attempt). */
  webhookReceiverPaused: 'WebhookReceiverPaused',
  /** The receiver's name did not resolve for a temporary reason (EAI_AGAIN, SERVFAIL, a timeout): retried with back-off. */
  webhookDnsFailed: 'WebhookDnsFailed',
  /** The webhook's secret does not open (no SECRETS_KEY on this worker, or another key sealed it): no retry. */
  webhookSecretUnavailable: 'WebhookSecretUnavailable',
  /** The delivery was not sent within its deadline (24 hours): no retry. */
  webhookExpired: 'WebhookDeliveryExpired',
  /** A webhook's URL is refused by the target policy: no retry. */
  webhookForbidden: 'WebhookTargetForbidden',
  /** The delivery's webhook was deleted meanwhile. */
  webhookGone: 'WebhookGone',
  /** The site answered 429 or 503 (or asked for a pause): the page is tried again after the wait it asked for. */
  siteThrottled: 'SiteThrottled',
} as const;

/** A stored `{code, message}` error (crawls, crawl pages). */
export interface ErrorInfo {
  code: string;
  message: string;
}

export type CrawlStatus = 'queued' | 'running' | 'completed' | 'completed_partial' | 'cancelled' | 'failed';

export type IssueStatus = 'open' | 'fixed' | 'dismissed' | 'cant_fix';

/**
 * How a page was found: the home page, a link in served HTML, a sitemap, a link only the rendered
 * page has (`rendered`), or a site's scripted flow whose end state is audited as a page (`flow`).
 */
export type DiscoveredVia = 'root' | 'link' | 'sitemap' | 'rendered' | 'flow';

/**
 * The interaction that revealed an issue: what the scan did (`click`) to which element (a CSS
 * selector) and that element's accessible name. Null on issues of a page's default state.
 */
export interface InteractionState {
  action: 'click';
  target: string;
  label: string;
}

/**
 * What one page's scan checked beyond its default state: the viewports it was checked at (null on
 * crawls of the desktop viewport alone, whose findings carry none) and the interaction states it
 * opened, by `state.target`. Only an issue of a checked viewport and state can be found fixed.
 */
export interface ScanCoverage {
  viewports: ViewportName[] | null;
  states: string[];
  /**
   * The engines that did not finish on the page (at any of its viewports): out of the scan's time,
   * or failed. Their rules were not (fully) checked, so the page's issues they find are not found
   * fixed by this scan. Absent or empty: every engine finished.
   */
  unfinishedEngines?: UnfinishedEngine[];
  /** Set when the URL was a document (a PDF) audited from the file rather than a page in the browser. */
  document?: { mediaType: string; pages: number; bytes: number };
}

/** An engine that did not finish on a page (see `ScanCoverage.unfinishedEngines`). */
export interface UnfinishedEngine {
  engine: string;
  reason: 'out_of_time' | 'failed';
}

/** The engines of `runs` that did not finish, once each (the first reason seen), in run order. */
export function unfinishedEngines(runs: ReadonlyArray<{ engine: string; unfinished?: UnfinishedEngine['reason'] }>): UnfinishedEngine[] {
  const out = new Map<string, UnfinishedEngine>();
  for (const r of runs) if (r.unfinished && !out.has(r.engine)) out.set(r.engine, { engine: r.engine, reason: r.unfinished });
  return [...out.values()];
}

/** A crawl's viewport: `desktop` (1280x800), `mobile` (390x844, touch, device pixel ratio 3) or a width in CSS px. */
export type ViewportName = 'desktop' | 'mobile' | number;

/** Open issues (or findings) counted by severity. */
export interface IssueCounts {
  critical: number;
  serious: number;
  moderate: number;
  minor: number;
}
