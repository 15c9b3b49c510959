import type { Database } from '../db/database.ts';
import { findCrawlSiteAuth, findSiteAuth, type SiteAuthRow } from '../db/repositories/site-auth.repository.ts';
import type { SecretsKey } from '../security/secrets.ts';
import { openSiteAuth } from '../security/site-seal.ts';
import type { SiteAuthLoad } from '../audit/session/site-login.ts';

function opened(key: SecretsKey | undefined, row: SiteAuthRow, baseUrl: string): SiteAuthLoad {
  if (!key) return { kind: 'unavailable', message: "the site has an authentication set-up but this worker has no SECRETS_KEY to open it" };
  try {
    return { kind: 'auth', auth: { origin: new URL(baseUrl).origin, setup: openSiteAuth(key, row.siteId, row.sealed) } };
  } catch {
    return { kind: 'unavailable', message: "the site's authentication set-up does not open with this worker's SECRETS_KEY (another key sealed it, or it was altered); store it again" };
  }
}

export async function loadCrawlAuth(db: Database, key: SecretsKey | undefined, crawlId: string): Promise<SiteAuthLoad> {
  const row = await findCrawlSiteAuth(db, crawlId);
  return row ? opened(key, row, row.baseUrl) : { kind: 'none' };
}

export async function loadSiteAuth(db: Database, key: SecretsKey | undefined, site: { id: string; baseUrl: string }): Promise<SiteAuthLoad> {
  const row = await findSiteAuth(db, site.id);
  return row ? opened(key, row, site.baseUrl) : { kind: 'none' };
}
