import { describe, expect, it } from 'vitest';
import { decideCrawlStatus, NO_PAGES, type CrawlOutcome } from '../../../src/shared/crawl-status.ts';

const clean: CrawlOutcome = { cancelled: false, scannedPages: 10, failedPages: 0, enrichFailedPages: 0, discoveryError: null, firstPageError: null };
const rootDown = { code: 'connection_refused', message: 'the home page refused the connection' };
const discoveryStopped = { code: 'discovery_failed', message: 'discovery gave up after 5 attempts' };

describe('decideCrawlStatus', () => {
  it('completes a crawl whose every page was scanned and enriched', () => {
    expect(decideCrawlStatus(clean)).toEqual({ status: 'completed', error: null });
  });

  it('is cancelled when cancelled, whatever else happened', () => {
    expect(decideCrawlStatus({ ...clean, cancelled: true, scannedPages: 0, discoveryError: discoveryStopped })).toEqual({ status: 'cancelled', error: null });
  });

  it('fails with the first page error when nothing was scanned', () => {
    expect(decideCrawlStatus({ ...clean, scannedPages: 0, failedPages: 1, firstPageError: rootDown, discoveryError: discoveryStopped })).toEqual({ status: 'failed', error: rootDown });
  });

  it('fails with discovery error, else no_pages, when nothing was scanned and no page failed', () => {
    expect(decideCrawlStatus({ ...clean, scannedPages: 0, discoveryError: discoveryStopped })).toEqual({ status: 'failed', error: discoveryStopped });
    expect(decideCrawlStatus({ ...clean, scannedPages: 0 })).toEqual({ status: 'failed', error: NO_PAGES });
  });

  it('is partial with the reason when discovery stopped short', () => {
    expect(decideCrawlStatus({ ...clean, discoveryError: discoveryStopped, failedPages: 2 })).toEqual({ status: 'completed_partial', error: discoveryStopped });
  });

  it('is partial without an error when pages failed to scan or to enrich', () => {
    expect(decideCrawlStatus({ ...clean, failedPages: 1 })).toEqual({ status: 'completed_partial', error: null });
    expect(decideCrawlStatus({ ...clean, enrichFailedPages: 3 })).toEqual({ status: 'completed_partial', error: null });
  });
});
