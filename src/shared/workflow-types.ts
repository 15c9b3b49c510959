/**
 * The workflow types and their messages by name, with their signatures: the workflows (src/workflows)
 * define them under these names, and the API starts and updates them through these, so neither
 * spells a name of its own. Each workflow file checks that its function has the signature here.
 */
import type { CrawlWorkflowInput, CrawlWorkflowResult, ScanWorkflowInput, ScanWorkflowResult } from './contracts.ts';

export const WORKFLOW_TYPES = {
  crawl: 'CrawlWorkflow',
  scan: 'ScanWorkflow',
  discovery: 'DiscoveryWorkflow',
  webhook: 'WebhookDeliveryWorkflow',
} as const;

/** Updates a crawl's workflow accepts. `openCrawl`: answers once the crawl's row is written, or why it was not. */
export const CRAWL_UPDATES = { openCrawl: 'openCrawl' } as const;

export type CrawlWorkflowType = (input: CrawlWorkflowInput) => Promise<CrawlWorkflowResult>;
export type ScanWorkflowType = (input: ScanWorkflowInput) => Promise<ScanWorkflowResult>;
