import { sealedSiteDocuments, type SealedSiteRow } from './sealed-site-document.ts';

/** A site's sealed authentication set-up; opening it is the caller's (src/security/site-seal.ts). */
export type SiteAuthRow = SealedSiteRow;

const store = sealedSiteDocuments('site_auth');

/** Writes (or replaces) the set-up in one statement: a failed write leaves the old one whole. */
export const putSiteAuth = store.put;
export const findSiteAuth = store.find;
/** Whether there was one to delete. */
export const deleteSiteAuth = store.delete;
/** The set-up of the site a crawl belongs to, with the site's current base URL; undefined when it has none. */
export const findCrawlSiteAuth = store.findForCrawl;
