import type { SiteFlowsSetup } from '../shared/site-flows.ts';
import type { Sealed, SecretsKey } from './secrets.ts';

/** What the ciphertext is bound to: the site's `site_flows` row, so a copy on another site (or in `site_auth`) does not open. */
const binding = (siteId: string) => `site_flows:${siteId}`;

/** A site's flows sealed for its `site_flows` row. */
export function sealSiteFlows(key: SecretsKey, siteId: string, setup: SiteFlowsSetup): Sealed {
  return key.seal(JSON.stringify(setup), binding(siteId));
}

/** The flows of a `site_flows` row; throws SecretOpenError when they do not open with this key. */
export function openSiteFlows(key: SecretsKey, siteId: string, sealed: Sealed): SiteFlowsSetup {
  return JSON.parse(key.open(sealed, binding(siteId))) as SiteFlowsSetup;
}
