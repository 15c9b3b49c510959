import { sealedSiteDocuments, type SealedSiteRow } from './sealed-site-document.ts';

/** A site's sealed flows; opening them is the caller's (src/security/site-seal.ts). `summary` has no value typed. */
export type SiteFlowsRow = SealedSiteRow;

const store = sealedSiteDocuments('site_flows');

/** Writes (or replaces) the site's flows in one statement: a failed write leaves the old ones whole. */
export const putSiteFlows = store.put;
export const findSiteFlows = store.find;
/** Whether there were flows to delete. */
export const deleteSiteFlows = store.delete;
/** The flows of the site a crawl belongs to, with the site's current base URL; undefined when it has none. */
export const findCrawlSiteFlows = store.findForCrawl;
