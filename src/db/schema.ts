import type { ColumnType, Generated, Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DiscoveredVia, InteractionState, ScanCoverage, ViewportName } from '../shared/contracts.ts';
import type { JudgementCandidate } from '../shared/judgement.ts';
import type { PageWaysFacts } from '../shared/page-titles.ts';
import type { ResourceManifest, StoredRendered } from '../shared/page-reuse.ts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

export interface PageScansTable {
  id: Generated<string>;
  kind: 'single' | 'crawl';
  crawl_id: string | null;
  page_id: string | null;
  url: string;
  status: Generated<string>;
  progress: Generated<number>;
  current_stage: string | null;
  page_title: string | null;
  final_url: string | null;
  http_status: number | null;
  score: number | null;
  summary: Json<unknown> | null;
  engine_passes: Json<unknown> | null;
  /** Findings past the per-page cap, counted per rule. */
  issues_left_out: Json<{ total: number; byRule: Record<string, number> }> | null;
  /** What the scan checked beyond the default state: viewports (tagged crawls) and the states' triggers. */
  coverage: Json<ScanCoverage> | null;
  /** A crawl page's same-site links and whether it offers a search (WCAG 2.4.5 at finalization). */
  ways: Json<PageWaysFacts> | null;
  error: Json<{ code: string; message: string }> | null;
  client_ip: string | null;
  /** Changes of a single-page scan's row (1 when written), the id of its live-progress events. */
  event_seq: Generated<number>;
  created_at: Generated<Date>;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
  duration_ms: number | null;
  /** A flow page's scan: when the flow's steps were done (they are never run again for this scan). */
  flow_ran_at: Timestamp | null;
  /** What a crawl page loaded for its audit, or why that cannot be checked again (page reuse, src/audit/reuse). */
  resources: Json<ResourceManifest> | null;
  /** The engines' versions and the settings that decide findings, hashed (page reuse). */
  audit_key: string | null;
  /** A crawl page's rendered links and view as handed to discovery (a reused page hands them over again). */
  rendered: Json<StoredRendered> | null;
  /** A reused page: the scan whose audit it carries. */
  reused_from_scan_id: string | null;
  /** A reused page: when the audit it carries ran (null: this scan's own `completed_at`). */
  audited_at: Timestamp | null;
}

export interface FindingsTable {
  id: Generated<string>;
  page_scan_id: string;
  rule_id: string;
  type: 'confirmed' | 'needs_review';
  severity: 'critical' | 'serious' | 'moderate' | 'minor';
  wcag_criterion: string;
  wcag_level: 'A' | 'AA';
  /** Every criterion it fails, `wcag_criterion` first (a trigger fills it from `wcag_criterion` when empty). */
  wcag_criteria: ColumnType<string[], string[] | undefined, string[]>;
  element_selector: string;
  element_html: string;
  engine_help: string;
  engine_description: string;
  failure_summary: string;
  help_url: string | null;
  description: string;
  fix_suggestion: string;
  enriched_by: string | null;
  data: Json<Record<string, unknown>>;
  fingerprint: string;
  /** Issue group (rule + template element); null on findings stored before groups existed. */
  group_key: string | null;
  /** The interaction that revealed the element; null: the page's default state. */
  state: Json<InteractionState> | null;
  /** The viewport it failed at, on crawls with several; null: the only one. */
  viewport: Json<ViewportName> | null;
  created_at: Generated<Date>;
}

export interface RateLimitWindowsTable {
  key: string;
  window_start: Date;
  count: number;
}

export interface SitesTable {
  id: Generated<string>;
  hostname: string;
  name: string;
  base_url: string;
  created_at: Generated<Date>;
  /** Bumped by a trigger on every write to the site's issues. */
  issues_version: Generated<string>;
}

export interface CrawlsTable {
  id: Generated<string>;
  site_id: string;
  status: Generated<string>;
  max_pages: number;
  total_pages: Generated<number>;
  scanned_pages: Generated<number>;
  enriched_pages: Generated<number>;
  failed_pages: Generated<number>;
  enrich_failed_pages: Generated<number>;
  overall_score: number | null;
  new_issues: number | null;
  fixed_issues: number | null;
  discovery_done: Generated<boolean>;
  /** Why discovery stopped short; becomes the crawl's `error` at finalization. */
  discovery_error: Json<{ code: string; message: string }> | null;
  broken_links: Generated<number>;
  /** Same-site URLs over MAX_URL_LENGTH that discovery skipped. */
  skipped_urls: Generated<number>;
  /** When retention deleted the crawl's page scans, findings and frontier (null: they are kept). */
  results_deleted_at: Timestamp | null;
  error: Json<{ code: string; message: string }> | null;
  ai_calls: Generated<number>;
  ai_cache_hits: Generated<number>;
  ai_input_tokens: Generated<number>;
  ai_output_tokens: Generated<number>;
  /** The Temporal workflow running the crawl (`crawl-<id>`, or a Schedule's). */
  workflow_id: string | null;
  /** The issues the crawl found, by severity; written at finalization. */
  issue_counts: Json<{ critical: number; serious: number; moderate: number; minor: number }> | null;
  /** Changes of the row (1 when written), the id of its live-progress events. */
  event_seq: Generated<number>;
  /** The viewports each page is checked at; null: desktop only. */
  viewports: Json<ViewportName[]> | null;
  /** False: `{"reuse": false}`, every page audited afresh. */
  reuse: Generated<boolean>;
  /** Pages whose last audit was reused (nothing they loaded changed). */
  reused_pages: Generated<number>;
  /** How long the crawl's fetches waited for the site in all (Crawl-delay, 429/503 waits), summed over fetches. */
  throttled_ms: ColumnType<number, number | undefined, number>;
  created_at: Generated<Date>;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
}

export interface PagesTable {
  id: Generated<string>;
  site_id: string;
  url: string;
  path: string;
  title: string | null;
  depth: number;
  discovered_via: DiscoveredVia;
  http_status: number | null;
  /** A document's media type (`application/pdf`); null for an HTML page. */
  media_type: string | null;
  latest_score: number | null;
  last_scanned_at: Timestamp | null;
  created_at: Generated<Date>;
}

export type CrawlPageState = 'pending' | 'dispatched' | 'scanned' | 'failed' | 'enriched' | 'enrich_failed';

export interface CrawlPagesTable {
  crawl_id: string;
  page_id: string;
  seq: Generated<number>;
  depth: number;
  state: Generated<CrawlPageState>;
  claim_key: string | null;
  error: Json<{ code: string; message: string }> | null;
}

export interface CrawlUrlsTable {
  crawl_id: string;
  url: string;
  seq: Generated<number>;
  depth: number;
  via: DiscoveredVia;
  state: Generated<'queued' | 'done'>;
  outcome: string | null;
  /** Fetches the site answered 429 or 503 so far. */
  attempts: Generated<number>;
  /** Fetched again no earlier than this (the wait the site asked for). */
  not_before: Timestamp | null;
}

/** Per host, what the site asked for and how it behaved (see src/shared/politeness.ts). */
export interface HostPacingTable {
  host: string;
  crawl_delay_ms: Generated<number>;
  next_fetch_at: Generated<Date>;
  paused_until: Timestamp | null;
  /** Pages loaded at once (AIMD); null: the configured maximum. */
  window: number | null;
  /** The fetch in flight to the host while it asks for a Crawl-delay (its holder's token), and its lease. */
  fetching_token: string | null;
  fetching_until: Timestamp | null;
  /** When the host's last fetch got its answer: its Crawl-delay counts from there. */
  last_fetch_done_at: Timestamp | null;
  updated_at: Generated<Date>;
}

export interface StatusChange {
  from: string | null;
  to: string;
  changedBy: 'user' | 'crawl';
  crawlId: string | null;
  note: string | null;
  at: string;
}

export interface IssuesTable {
  id: Generated<string>;
  site_id: string;
  page_id: string;
  fingerprint: string;
  group_key: string | null;
  rule_id: string;
  type: 'confirmed' | 'needs_review';
  severity: 'critical' | 'serious' | 'moderate' | 'minor';
  /** Generated from `severity`: critical 0 .. minor 3, for the list's index order. */
  severity_rank: ColumnType<number, never, never>;
  /** The URL of `page_id`, kept by a trigger, for the list's index order. */
  page_url: Generated<string>;
  wcag_criterion: string;
  wcag_level: 'A' | 'AA';
  /** Every criterion it fails, `wcag_criterion` first (a trigger fills it from `wcag_criterion` when empty). */
  wcag_criteria: ColumnType<string[], string[] | undefined, string[]>;
  element_selector: string;
  element_html: string;
  description: string;
  fix_suggestion: string;
  help_url: string | null;
  data: Json<Record<string, unknown>>;
  state: Json<InteractionState> | null;
  viewport: Json<ViewportName> | null;
  status: Generated<'open' | 'fixed' | 'dismissed' | 'cant_fix'>;
  /** The last STATUS_HISTORY_CAP changes (see a11y_cap_status_history). */
  status_history: Json<StatusChange[]>;
  /** Every change ever made, including those no longer in `status_history`. */
  status_history_total: Generated<number>;
  last_finding_id: string | null;
  first_crawl_id: string | null;
  last_crawl_id: string | null;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Texts a model wrote for an issue group, by group key and namespace (model and prompt version). */
export interface EnrichmentCacheTable {
  /** Whose pages the texts were written from: `site:<siteId>`, or `scan-host:<hostname>` for single-page scans. */
  scope: string;
  group_key: string;
  namespace: string;
  status: 'pending' | 'done';
  description: string | null;
  fix_suggestion: string | null;
  input_tokens: Generated<number>;
  output_tokens: Generated<number>;
  claimed_at: Timestamp | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/**
 * Every table, declared once by hand beside the migrations that make them (not generated by
 * kysely-codegen: that reads a live database, and would widen the JSON columns' shapes and the
 * narrowed string unions these declarations give).
 */
export interface DB {
  enrichment_cache: EnrichmentCacheTable;
  sites: SitesTable;
  crawls: CrawlsTable;
  pages: PagesTable;
  crawl_pages: CrawlPagesTable;
  crawl_urls: CrawlUrlsTable;
  issues: IssuesTable;
  page_scans: PageScansTable;
  findings: FindingsTable;
  rate_limit_windows: RateLimitWindowsTable;
  host_pacing: HostPacingTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_receivers: WebhookReceiversTable;
  webhook_receiver_leases: WebhookReceiverLeasesTable;
  site_auth: SiteAuthTable;
  site_flows: SiteFlowsTable;
  finding_screenshots: FindingScreenshotsTable;
  crawl_rendered_links: CrawlRenderedLinksTable;
  judgement_candidates: JudgementCandidatesTable;
  judgement_cache: JudgementCacheTable;
  judgement_claims: JudgementClaimsTable;
}

/** The one handle type for the database: a pool's `Kysely`, or a transaction (which is one). */
export type Database = Kysely<DB>;

export type PageScan = Selectable<PageScansTable>;
export type NewPageScan = Insertable<PageScansTable>;
export type PageScanUpdate = Updateable<PageScansTable>;
export type Finding = Selectable<FindingsTable>;
export type NewFinding = Insertable<FindingsTable>;

export type Site = Selectable<SitesTable>;
export type Crawl = Selectable<CrawlsTable>;
export type Page = Selectable<PagesTable>;
export type Issue = Selectable<IssuesTable>;

/** A site's authentication set-up, sealed (see migration 2026-11-25T01-00-00_site_auth). */
export interface SiteAuthTable {
  site_id: string;
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
  key_id: string;
  summary: Json<unknown>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A site's named scripted flows, encrypted as one document with the same columns as its authentication set-up. */
export type SiteFlowsTable = SiteAuthTable;

/** The failing element in context, outlined: at most one per finding. */
export interface FindingScreenshotsTable {
  finding_id: string;
  crawl_id: string | null;
  mime: string;
  image: Buffer;
  width: number;
  height: number;
  created_at: Generated<Date>;
}

/** A site's webhook, or a single-page scan's (`webhookUrl`): where to send which events, signed with `secret`. */
export interface WebhooksTable {
  id: Generated<string>;
  site_id: string | null;
  scan_id: string | null;
  url: string;
  events: string[];
  /** The plaintext secret of a row written before secrets were sealed, until a worker seals it; null once sealed. */
  secret: string | null;
  /** The signing secret sealed with SECRETS_KEY, bound to the row's id (src/security/webhook-seal.ts). */
  secret_ciphertext: Buffer | null;
  secret_iv: Buffer | null;
  secret_tag: Buffer | null;
  secret_key_id: string | null;
  new_issues_threshold: Generated<number>;
  score_drop_threshold: Generated<number>;
  position: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** One event sent to one webhook for one crawl or scan: the delivery log. */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  webhook_id: string;
  event: string;
  subject_id: string;
  payload: Json<Record<string, unknown>>;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Generated<Date>;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
}

/** A receiver (URL origin) with failures to remember: its circuit breaker, shared by every worker. */
export interface WebhookReceiversTable {
  origin: string;
  consecutive_failures: Generated<number>;
  /** How many pauses in a row (each one longer); back to 0 once a delivery gets through. */
  pauses: Generated<number>;
  paused_until: Date | null;
  updated_at: Generated<Date>;
}

/** A delivery in flight to a receiver, until it ends or `expires_at` (its worker died). */
export interface WebhookReceiverLeasesTable {
  delivery_id: string;
  origin: string;
  expires_at: Date;
}

/** Links a crawl's scanned pages showed once rendered, waiting for discovery or taken by it. */
export interface CrawlRenderedLinksTable {
  crawl_id: string;
  url: string;
  seq: Generated<number>;
  depth: number;
  found_on: string;
  found_on_hash: string | null;
  state: Generated<'queued' | 'admitted' | 'refused'>;
}

/** What a page's scan collected for AI-assisted judgement (only with a model configured). */
export interface JudgementCandidatesTable {
  page_scan_id: string;
  /** The viewport the candidates were read at ; null on desktop-only crawls and scans. */
  viewport: Json<ViewportName> | null;
  page_lang: string | null;
  candidates: Json<JudgementCandidate[]>;
  created_at: Generated<Date>;
}

/** A model's verdict on one candidate, per scope, kind, content hash and namespace (model and prompt version). */
export interface JudgementCacheTable {
  scope: string;
  kind: string;
  content_hash: string;
  namespace: string;
  fails: boolean;
  reason: string;
  created_at: Generated<Date>;
}

/** A worker asking the model about a group of candidates right now (stale after the call's timeout). */
export interface JudgementClaimsTable {
  scope: string;
  group_hash: string;
  namespace: string;
  claimed_at: Generated<Date>;
}

