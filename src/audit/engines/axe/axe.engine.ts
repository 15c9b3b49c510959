import { AXE_WCAG_TAGS } from '../../../shared/wcag.ts';
import { findingsFromAxe, passedRules, type AxeRuleResult } from '../../findings/findings.ts';
import type { FindingDraft } from '../../../shared/findings.ts';
import { withoutBrokenImages } from '../pixel-contrast/background-images.ts';
import { runAxe } from '../../session/in-page.ts';
import type { EngineResult, PageSession, ScanEngine } from '../engine.ts';

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

/**
 * Rules about reaching or operating an element with the keyboard. An element made inert (by the
 * `inert` attribute, or by a modal `<dialog>` open outside it) cannot be reached at all while it
 * is inert, so these rules do not apply to it; axe does not know inertness (ACT akn7bn's
 * inapplicable cases: a frame behind an open modal dialog).
 */
const KEYBOARD_REACH_RULES = new Set(['frame-focusable-content', 'scrollable-region-focusable']);

/** Drops the nodes of keyboard-reach violations that are inert on the page as it is now. */
async function withoutInert(page: PageSession['page'], rules: AxeRuleResult[]): Promise<AxeRuleResult[]> {
  // A node inside a frame (target [frame, inner]) is inert when its frame element is.
  const top = (t: unknown[]) => (typeof t[0] === 'string' ? t[0] : undefined);
  const selectors = rules
    .filter((r) => KEYBOARD_REACH_RULES.has(r.id))
    .flatMap((r) => r.nodes.map((n) => top(n.target)))
    .filter((sel): sel is string => !!sel);
  if (selectors.length === 0) return rules;
  const inert = new Set(
    await page
      .evaluate((sels: string[]) => {
        const modal = document.querySelector('dialog:modal');
        return sels.filter((sel) => {
          let el: Element | null = null;
          try {
            el = document.querySelector(sel);
          } catch {
            return false;
          }
          if (!el) return false;
          return !!el.closest('[inert]') || (!!modal && !modal.contains(el));
        });
      }, selectors)
      .catch(() => [] as string[]),
  );
  if (inert.size === 0) return rules;
  return rules
    .map((r) => (KEYBOARD_REACH_RULES.has(r.id) ? { ...r, nodes: r.nodes.filter((n) => !inert.has(top(n.target) ?? '')) } : r))
    .filter((r) => r.nodes.length > 0);
}

/** axe-core with WCAG 2.0/2.1/2.2 A/AA tags, plus the service's rules registered into the same pass, run inside the page. */
export const axeEngine: ScanEngine = {
  id: 'axe',
  stage: 'AxeChecks',
  async run({ page }: PageSession): Promise<EngineResult> {
    // Background images that paint nothing (they fail to load) are away while axe runs: no pixel
    // changes, and axe no longer gives up on the contrast of every text they hold.
    const results = await withoutBrokenImages(page, () =>
      runAxe(page, {
        runOnly: { type: 'tag', values: [...AXE_WCAG_TAGS] },
        rules: Object.fromEntries(Object.keys(AXE_EXPERIMENTAL).map((id) => [id, { enabled: true }])),
        // Passes are only read for their rule ids: one node each is enough, and far less to copy.
        resultTypes: ['violations', 'incomplete'],
      }),
    );
    const violations = await withoutInert(page, results.violations as AxeRuleResult[]);
    const incomplete = results.incomplete as AxeRuleResult[];
    const confirmedNow = violations.filter((r) => (AXE_EXPERIMENTAL[r.id]?.violations ?? 'confirmed') === 'confirmed');
    const downgraded = violations.filter((r) => AXE_EXPERIMENTAL[r.id]?.violations === 'needs_review');
    const review = incomplete.filter((r) => AXE_EXPERIMENTAL[r.id]?.incomplete !== 'drop');
    const findings: FindingDraft[] = [
      ...findingsFromAxe(confirmedNow, 'confirmed'),
      ...findingsFromAxe(downgraded, 'needs_review'),
      ...findingsFromAxe(review, 'needs_review'),
    ];
    return { findings, passes: passedRules(results.passes as AxeRuleResult[], results.passCounts) };
  },
};
