import type { Migration } from 'kysely/migration';
import * as m0001 from './2026-11-22T00-00-00_scans_and_findings.ts';
import * as m0002 from './2026-11-22T01-00-00_sites_crawls_issues.ts';
import * as m0003 from './2026-11-23T00-00-00_report_indexes.ts';
import * as m0004 from './2026-11-23T01-00-00_issue_groups_and_enrichment_cache.ts';
import * as m0005 from './2026-11-23T02-00-00_crawl_robustness.ts';
import * as m0006 from './2026-11-24T00-00-00_issue_list_order.ts';
import * as m0007 from './2026-11-25T00-00-00_crawl_workflow_and_counts.ts';
import * as m0008 from './2026-11-25T01-00-00_site_auth.ts';
import * as m0009 from './2026-11-25T02-00-00_list_tables_vacuum.ts';
import * as m0010 from './2026-11-26T00-00-00_tenant_isolation.ts';
import * as m0011 from './2026-11-26T01-00-00_bounds_and_retention.ts';
import * as m0012 from './2026-11-26T02-00-00_states_viewports_flows_screenshots.ts';
import * as m0013 from './2026-11-26T03-00-00_findings_per_state_and_viewport.ts';
import * as m0014 from './2026-11-26T03-00-00_rendered_links.ts';
import * as m0015 from './2026-11-26T04-00-00_scan_coverage.ts';
import * as m0016 from './2026-11-26T05-00-00_wcag_criteria.ts';
import * as m0017 from './2026-11-26T06-00-00_ai_judgement.ts';
import * as m0018 from './2026-11-26T07-00-00_crawl_page_links.ts';
import * as m0019 from './2026-11-27T00-00-00_webhooks.ts';
import * as m0020 from './2026-11-28T00-00-00_flow_ran.ts';
import * as m0021 from './2026-11-28T01-00-00_polite_crawling.ts';
import * as m0022 from './2026-11-28T04-00-00_webhook_receivers_and_sealed_secrets.ts';
import * as m0023 from './2026-11-28T05-00-00_page_reuse.ts';
import * as m0024 from './2026-11-29T00-00-00_host_fetch_leases.ts';
import * as m0025 from './2026-11-29T01-00-00_page_media_type.ts';

/** Every migration, by name; names sort in the order they apply. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T00-00-00_scans_and_findings': m0001,
  '2026-11-22T01-00-00_sites_crawls_issues': m0002,
  '2026-11-23T00-00-00_report_indexes': m0003,
  '2026-11-23T01-00-00_issue_groups_and_enrichment_cache': m0004,
  '2026-11-23T02-00-00_crawl_robustness': m0005,
  '2026-11-24T00-00-00_issue_list_order': m0006,
  '2026-11-25T00-00-00_crawl_workflow_and_counts': m0007,
  '2026-11-25T01-00-00_site_auth': m0008,
  '2026-11-25T02-00-00_list_tables_vacuum': m0009,
  '2026-11-26T00-00-00_tenant_isolation': m0010,
  '2026-11-26T01-00-00_bounds_and_retention': m0011,
  '2026-11-26T02-00-00_states_viewports_flows_screenshots': m0012,
  '2026-11-26T03-00-00_findings_per_state_and_viewport': m0013,
  '2026-11-26T03-00-00_rendered_links': m0014,
  '2026-11-26T04-00-00_scan_coverage': m0015,
  '2026-11-26T05-00-00_wcag_criteria': m0016,
  '2026-11-26T06-00-00_ai_judgement': m0017,
  '2026-11-26T07-00-00_crawl_page_links': m0018,
  '2026-11-27T00-00-00_webhooks': m0019,
  '2026-11-28T00-00-00_flow_ran': m0020,
  '2026-11-28T01-00-00_polite_crawling': m0021,
  '2026-11-28T04-00-00_webhook_receivers_and_sealed_secrets': m0022,
  '2026-11-28T05-00-00_page_reuse': m0023,
  '2026-11-29T00-00-00_host_fetch_leases': m0024,
  '2026-11-29T01-00-00_page_media_type': m0025,
};
