import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

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
  error: Json<{ code: string; message: string }> | null;
  client_ip: string | null;
  created_at: Generated<Date>;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
  duration_ms: number | null;
}

export interface FindingsTable {
  id: Generated<string>;
  page_scan_id: string;
  rule_id: string;
  type: 'confirmed' | 'needs_review';
  severity: 'critical' | 'serious' | 'moderate' | 'minor';
  wcag_criterion: string;
  wcag_level: 'A' | 'AA';
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
  created_at: Generated<Date>;
}

export interface RateLimitWindowsTable {
  key: string;
  window_start: Date;
  count: number;
}

export interface DB {
  page_scans: PageScansTable;
  findings: FindingsTable;
  rate_limit_windows: RateLimitWindowsTable;
}

export type PageScan = Selectable<PageScansTable>;
export type NewPageScan = Insertable<PageScansTable>;
export type PageScanUpdate = Updateable<PageScansTable>;
export type Finding = Selectable<FindingsTable>;
export type NewFinding = Insertable<FindingsTable>;
