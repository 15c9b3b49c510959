import type { SiteAuthSetup } from '../shared/site-auth.ts';
import type { Sealed, SecretsKey } from './secrets.ts';

/** What the ciphertext is bound to: the site's row, so a copy on another site does not open. */
const binding = (siteId: string) => `site_auth:${siteId}`;

/** A site's set-up sealed for its `site_auth` row. */
export function sealSiteAuth(key: SecretsKey, siteId: string, setup: SiteAuthSetup): Sealed {
  return key.seal(JSON.stringify(setup), binding(siteId));
}

/** The set-up of a `site_auth` row; throws SecretOpenError when it does not open with this key. */
export function openSiteAuth(key: SecretsKey, siteId: string, sealed: Sealed): SiteAuthSetup {
  return JSON.parse(key.open(sealed, binding(siteId))) as SiteAuthSetup;
}
