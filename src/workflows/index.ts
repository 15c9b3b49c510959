export { ScanWorkflow } from './scan.workflow.ts';
export { CrawlWorkflow } from './crawl.workflow.ts';
export { DiscoveryWorkflow } from './discovery.workflow.ts';
export { WebhookDeliveryWorkflow } from './webhook.workflow.ts';
