import type { InPageHelpers } from '../session/in-page.ts';

/**
 * `window` as the engines' in-page code sees it once `ensureInPage` has run: the helpers as
 * `__a11yAudit`. A type only: in-page code reads it as
 * `(window as unknown as AuditWindow).__a11yAudit` (intersected with what else it keeps on
 * `window`); nothing of this module reaches the page.
 */
export type AuditWindow = { __a11yAudit: InPageHelpers };
