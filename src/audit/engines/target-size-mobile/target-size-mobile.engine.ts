import { DESKTOP_VIEWPORT, MOBILE_VIEWPORT } from '../../../shared/audit-setup.ts';
import { findingsFromAxe, type AxeRuleResult } from '../../findings/findings.ts';
import { ensureInPage } from '../../session/in-page.ts';
import type { EngineResult, PageSession, ScanEngine } from '../engine.ts';

/** Two animation frames: enough for a new layout after a resize, with no network wait. */
export async function nextLayout(page: PageSession['page']): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * axe's target-size rule again at a phone's viewport, where layouts shrink and crowd controls,
 * reported as `target-size-mobile`.
 */
export const targetSizeMobileEngine: ScanEngine = {
  id: 'target-size-mobile',
  stage: 'CustomChecks',
  async run({ page }: PageSession): Promise<EngineResult> {
    await ensureInPage(page);
    // Put back as found: the tab's window is the crawl's viewport, not always the desktop's.
    const original = page.viewportSize() ?? DESKTOP_VIEWPORT;
    await page.setViewportSize(MOBILE_VIEWPORT);
    try {
      await nextLayout(page);
      const results = await page.evaluate(
        () =>
          (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: unknown[]; incomplete: unknown[] }> } }).axe.run(document, {
            runOnly: { type: 'rule', values: ['target-size'] },
            resultTypes: ['violations', 'incomplete'],
          }),
      );
      const ruleIdFor = (id: string) => (id === 'target-size' ? 'target-size-mobile' : id);
      const data = { viewport: `${MOBILE_VIEWPORT.width}x${MOBILE_VIEWPORT.height}` };
      return {
        findings: [
          ...findingsFromAxe(results.violations as AxeRuleResult[], 'confirmed', { ruleIdFor, data }),
          ...findingsFromAxe(results.incomplete as AxeRuleResult[], 'needs_review', { ruleIdFor, data }),
        ],
      };
    } finally {
      await page.setViewportSize(original);
    }
  },
};
