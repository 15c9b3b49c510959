import { createHash } from 'node:crypto';
import pkg from '../../../package.json' with { type: 'json' };
import type { ViewportName } from '../../shared/contracts.ts';

/**
 * Bumped whenever what the engines find on unchanged bytes can change without the package's
 * version or axe-core's changing (a check's rules, a selector's form, how findings merge): every
 * stored audit then stops being reusable.
 */
export const AUDIT_GENERATION = 1;

/** What decides a page's findings besides its bytes: an audit is reused only under the very same. */
export interface AuditSetting {
  /** The engines' ids, in the order they run. */
  engines: readonly string[];
  /** The crawl's viewports (desktop alone when none were asked for). */
  viewports: readonly ViewportName[];
  /** Interaction states per page (SCAN_STATES_*). */
  states: { maxStates: number; budgetMs: number } | null;
  /** The site's authentication set-up, by what identifies its version (null: none). */
  login: string | null;
  /** AI-assisted judgement's model (null: none) and the enricher that writes the texts. */
  judge: string | null;
  enricher: string;
  /** Pictures of findings on or off (a reused page's pictures are copied). */
  screenshots: boolean;
}

/** The engines' versions: this package's, axe-core's and AUDIT_GENERATION. */
export function engineVersion(): string {
  const deps = (pkg as { dependencies?: Record<string, string> }).dependencies ?? {};
  return `a11y-audit@${pkg.version}+axe-core@${deps['axe-core'] ?? '?'}+g${AUDIT_GENERATION}`;
}

/**
 * The audit key: a hash of the engines' versions and every setting that changes findings. Two
 * scans of the same bytes under the same key find the same; a page is reused only from a scan of
 * the same key.
 */
export function auditKey(s: AuditSetting, version = engineVersion()): string {
  const canonical = JSON.stringify({
    version,
    engines: [...s.engines],
    viewports: [...s.viewports],
    states: s.states && s.states.maxStates > 0 && s.states.budgetMs > 0 ? { maxStates: s.states.maxStates, budgetMs: s.states.budgetMs } : null,
    login: s.login,
    judge: s.judge,
    enricher: s.enricher,
    screenshots: s.screenshots,
  });
  return createHash('sha256').update(canonical).digest('hex');
}
