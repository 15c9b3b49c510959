export { ScanWorkflow } from './scan.workflow.ts';
export { CrawlWorkflow, DiscoveryWorkflow } from './crawl.workflow.ts';
