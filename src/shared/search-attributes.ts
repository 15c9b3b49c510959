import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Keyword search attributes operators filter by in the Temporal Web UI (`crawlId = "…"`). */
export const SITE_ID = defineSearchAttributeKey('siteId', SearchAttributeType.KEYWORD);
export const CRAWL_ID = defineSearchAttributeKey('crawlId', SearchAttributeType.KEYWORD);

export function crawlSearchAttributes(siteId: string, crawlId: string) {
  return [
    { key: SITE_ID, value: siteId },
    { key: CRAWL_ID, value: crawlId },
  ];
}

export const crawlWorkflowId = (crawlId: string) => `crawl-${crawlId}`;
export const discoveryWorkflowId = (crawlId: string) => `discover-${crawlId}`;
export const scanWorkflowId = (scanId: string) => `scan-${scanId}`;
export const webhookWorkflowId = (deliveryId: string) => `webhook-${deliveryId}`;
