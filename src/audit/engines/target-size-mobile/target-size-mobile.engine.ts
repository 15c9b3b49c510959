import { DESKTOP_VIEWPORT, MOBILE_VIEWPORT } from '../../../shared/audit-setup.ts';
import { findingsFromAxe, type AxeRuleResult } from '../../findings/findings.ts';
import { ensureInPage } from '../../session/in-page.ts';
import type { EngineResult, PageSession, PhoneTargetSize, ScanEngine } from '../engine.ts';

export const TARGET_SIZE_MOBILE_ID = 'target-size-mobile';

/** Two animation frames: enough for a new layout after a resize, with no network wait. */
export async function nextLayout(page: PageSession['page']): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** axe's target-size rule on the page as it is laid out now (the caller has set the phone viewport). */
export async function targetSizeHere(page: PageSession['page']): Promise<PhoneTargetSize> {
  await ensureInPage(page);
  const results = await page.evaluate(
    () =>
      (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: unknown[]; incomplete: unknown[] }> } }).axe.run(document, {
        runOnly: { type: 'rule', values: ['target-size'] },
        resultTypes: ['violations', 'incomplete'],
      }),
  );
  return { violations: results.violations, incomplete: results.incomplete };
}

/** Whether an engine that lays the page out at the phone viewport anyway should measure target sizes there for this one. */
export function wantsPhoneTargetSize(session: PageSession): boolean {
  return !!session.layouts && !!session.engineIds?.includes(TARGET_SIZE_MOBILE_ID);
}

/**
 * axe's target-size rule again at a phone's viewport, where layouts shrink and crowd controls,
 * reported as `target-size-mobile`. When reflow ran before it, it measured them in its own phone
 * layout (`session.layouts`, one viewport change fewer each way); otherwise this engine sets the
 * viewport itself and puts it back.
 */
export const targetSizeMobileEngine: ScanEngine = {
  id: TARGET_SIZE_MOBILE_ID,
  stage: 'CustomChecks',
  async run(session: PageSession): Promise<EngineResult> {
    const { page } = session;
    const results = session.layouts?.phoneTargetSize ?? (await atPhoneViewport(page));
    const ruleIdFor = (id: string) => (id === 'target-size' ? TARGET_SIZE_MOBILE_ID : id);
    const data = { viewport: `${MOBILE_VIEWPORT.width}x${MOBILE_VIEWPORT.height}` };
    return {
      findings: [
        ...findingsFromAxe(results.violations as AxeRuleResult[], 'confirmed', { ruleIdFor, data }),
        ...findingsFromAxe(results.incomplete as AxeRuleResult[], 'needs_review', { ruleIdFor, data }),
      ],
    };
  },
};

async function atPhoneViewport(page: PageSession['page']): Promise<PhoneTargetSize> {
  // Put back as found: the tab's window is the crawl's viewport, not always the desktop's.
  const original = page.viewportSize() ?? DESKTOP_VIEWPORT;
  await page.setViewportSize(MOBILE_VIEWPORT);
  try {
    await nextLayout(page);
    return await targetSizeHere(page);
  } finally {
    await page.setViewportSize(original);
  }
}
