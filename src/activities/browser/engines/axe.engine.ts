import AxeBuilder from '@axe-core/playwright';
import { AXE_WCAG_TAGS } from '../../../shared/wcag.ts';
import { findingsFromAxe, passedRules, type AxeRuleResult, type FindingDraft } from '../axe-findings.ts';
import { AXE_WITH_CUSTOM_RULES } from '../in-page.ts';
import type { EngineResult, PageSession, ScanEngine } from './engine.ts';

/**
 * axe rules whose results the service trusts differently from axe's own verdict (each is also
 * switched on, which the experimental ones need).
 * - `css-orientation-lock` (1.3.4): its violations had no false positive on the ACT cases; its
 *   "needs review" results are only noise, so they are dropped.
 * - `label-content-name-mismatch` (2.5.3): its violations gave axe's only label-in-name false
 *   positives on ACT, so they are reported as `needs_review`.
 */
export const AXE_EXPERIMENTAL: Readonly<Record<string, { violations: 'confirmed' | 'needs_review'; incomplete: 'needs_review' | 'drop' }>> = {
  'css-orientation-lock': { violations: 'confirmed', incomplete: 'drop' },
  'label-content-name-mismatch': { violations: 'needs_review', incomplete: 'needs_review' },
};

/** axe-core with WCAG 2.0/2.1/2.2 A/AA tags, plus the service's rules registered into the same pass. */
export const axeEngine: ScanEngine = {
  id: 'axe',
  stage: 'AxeChecks',
  async run({ page }: PageSession): Promise<EngineResult> {
    // `options()` replaces every option set before it, so the tags go in the same object.
    const results = await new AxeBuilder({ page, axeSource: AXE_WITH_CUSTOM_RULES })
      .options({
        runOnly: { type: 'tag', values: [...AXE_WCAG_TAGS] },
        rules: Object.fromEntries(Object.keys(AXE_EXPERIMENTAL).map((id) => [id, { enabled: true }])),
      })
      .analyze();
    const violations = results.violations as AxeRuleResult[];
    const incomplete = results.incomplete as AxeRuleResult[];
    const confirmedNow = violations.filter((r) => (AXE_EXPERIMENTAL[r.id]?.violations ?? 'confirmed') === 'confirmed');
    const downgraded = violations.filter((r) => AXE_EXPERIMENTAL[r.id]?.violations === 'needs_review');
    const review = incomplete.filter((r) => AXE_EXPERIMENTAL[r.id]?.incomplete !== 'drop');
    const findings: FindingDraft[] = [
      ...findingsFromAxe(confirmedNow, 'confirmed'),
      ...findingsFromAxe(downgraded, 'needs_review'),
      ...findingsFromAxe(review, 'needs_review'),
    ];
    return { findings, passes: passedRules(results.passes as AxeRuleResult[]) };
  },
};
