import type { Database } from '../db/database.ts';
import { findCrawlSiteFlows } from '../db/repositories/site-flows.repository.ts';
import type { SecretsKey } from '../security/secrets.ts';
import { openSiteFlows } from '../security/site-seal.ts';
import type { PageError } from '../shared/contracts.ts';
import { flowStartUrl } from '../shared/site-flows.ts';
import { stepValues } from '../shared/typed-values.ts';
import { runFlow } from '../audit/session/flow-runner.ts';
import type { ScanUrlOptions } from '../audit/scan-url.ts';

export type CrawlFlowLoad = { kind: 'flow'; scan: NonNullable<ScanUrlOptions['flow']> } | { kind: 'error'; error: PageError };

const failed = (message: string): CrawlFlowLoad => ({ kind: 'error', error: { code: 'flow_failed', message } });

/**
 * The flow named `name` of the site a crawl belongs to, read and opened from the database by the
 * page scan (never an activity input), as scanUrl's `flow` option. A flow removed or renamed since
 * the crawl registered its page, or flows this worker cannot open, are the page's error.
 */
export async function loadCrawlFlow(db: Database, key: SecretsKey | undefined, crawlId: string, name: string, pageLoadTimeoutMs: number): Promise<CrawlFlowLoad> {
  const gone = `the site has no flow named "${name}" any more (removed or renamed after the crawl started)`;
  const row = await findCrawlSiteFlows(db, crawlId);
  if (!row) return failed(gone);
  if (!key) return failed("the site's flows cannot be run: this worker has no SECRETS_KEY to open them");
  let flows;
  try {
    flows = openSiteFlows(key, row.siteId, row.sealed).flows;
  } catch {
    return failed("the site's flows do not open with this worker's SECRETS_KEY (another key sealed them, or they were altered); store them again");
  }
  const flow = flows.find((f) => f.name === name);
  if (!flow) return failed(gone);
  const startUrl = flowStartUrl(flow, row.baseUrl);
  const host = new URL(startUrl).hostname;
  return { kind: 'flow', scan: { startUrl, typed: stepValues(flow.steps), run: (page, signal) => runFlow(page, flow, { host, pageLoadTimeoutMs, signal }) } };
}
