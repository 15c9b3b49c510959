/**
 * The crawl-discovery activity: a thin adapter from its task queue to discovery
 * (src/discovery/crawl-discovery.ts). It gives discovery the activity's heartbeat and cancellation,
 * the site's authentication set-up opened with this worker's key, and a browser tab for a scripted
 * login; a crawl that does not exist fails without retries.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { BrowserProvider } from '../../audit/session/browser-provider.ts';
import { openTab } from '../../audit/session/page-session.ts';
import { createDiscoverer, CrawlNotFoundError, type DiscovererDeps, type DiscoverInput, type DiscoverResult } from '../../discovery/crawl-discovery.ts';
import type { SecretsKey } from '../../security/secrets.ts';
import { FAILURE_TYPES } from '../../shared/contracts.ts';
import { loadSiteAuth } from '../site-auth-source.ts';

export interface CrawlDiscoveryActivityDeps extends Omit<DiscovererDeps, 'loadAuth' | 'openLoginTab'> {
  /** For sites with a scripted login: discovery logs in in a short-lived tab and sends its session cookies. */
  browser?: BrowserProvider;
  pageLoadTimeoutMs?: number;
  /** Opens sites' authentication set-ups (SECRETS_KEY). */
  secretsKey?: SecretsKey;
}

export function createCrawlDiscoveryActivities(deps: CrawlDiscoveryActivityDeps) {
  const { browser } = deps;
  const discoverer = createDiscoverer({
    ...deps,
    loadAuth: (site) => loadSiteAuth(deps.db, deps.secretsKey, site),
    ...(browser && {
      openLoginTab: async (auth) => openTab({ browser: await browser.get(), policy: deps.policy, pageLoadTimeoutMs: deps.pageLoadTimeoutMs ?? 30_000, auth }),
    }),
  });
  return {
    /**
     * Finds the crawl's pages (see createDiscoverer): written as they are found, so scanning starts
     * at once; a retried run resumes where the last one stopped.
     */
    async discoverPages(input: DiscoverInput): Promise<DiscoverResult> {
      const ctx = Context.current();
      try {
        return await discoverer.discoverPages(input, { heartbeat: (details) => ctx.heartbeat(details), signal: ctx.cancellationSignal });
      } catch (err) {
        if (err instanceof CrawlNotFoundError) throw ApplicationFailure.nonRetryable(err.message, FAILURE_TYPES.crawlNotFound);
        throw err;
      }
    },
  };
}

export type CrawlDiscoveryActivities = ReturnType<typeof createCrawlDiscoveryActivities>;
