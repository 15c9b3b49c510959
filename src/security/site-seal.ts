import type { SiteAuthSetup } from '../shared/site-auth.ts';
import type { SiteFlowsSetup } from '../shared/site-flows.ts';
import type { Sealed, SecretsKey } from './secrets.ts';

/** The rows that keep a site's secrets: its authentication set-up, its scripted flows. */
type SealedSiteRow = 'site_auth' | 'site_flows';

/** What a ciphertext is bound to: its row kind and site, so a copy on another site or in the other table does not open. */
const binding = (row: SealedSiteRow, siteId: string) => `${row}:${siteId}`;

function sealFor(row: SealedSiteRow, key: SecretsKey, siteId: string, value: unknown): Sealed {
  return key.seal(JSON.stringify(value), binding(row, siteId));
}

/** Throws SecretOpenError when it does not open with this key. */
function openFor<T>(row: SealedSiteRow, key: SecretsKey, siteId: string, sealed: Sealed): T {
  return JSON.parse(key.open(sealed, binding(row, siteId))) as T;
}

/** A site's authentication set-up sealed for its `site_auth` row. */
export const sealSiteAuth = (key: SecretsKey, siteId: string, setup: SiteAuthSetup): Sealed => sealFor('site_auth', key, siteId, setup);
/** The set-up of a `site_auth` row; throws SecretOpenError when it does not open with this key. */
export const openSiteAuth = (key: SecretsKey, siteId: string, sealed: Sealed): SiteAuthSetup => openFor('site_auth', key, siteId, sealed);
/** A site's flows sealed for its `site_flows` row. */
export const sealSiteFlows = (key: SecretsKey, siteId: string, setup: SiteFlowsSetup): Sealed => sealFor('site_flows', key, siteId, setup);
/** The flows of a `site_flows` row; throws SecretOpenError when they do not open with this key. */
export const openSiteFlows = (key: SecretsKey, siteId: string, sealed: Sealed): SiteFlowsSetup => openFor('site_flows', key, siteId, sealed);
