import type { JSHandle, Page } from 'playwright';
import { AXE_WCAG_TAGS } from '../../shared/wcag.ts';
import type { FindingDraft } from '../../shared/findings.ts';
import { findingsFromAxe, type AxeRuleResult } from '../findings/findings.ts';
import { AXE_EXPERIMENTAL } from '../engines/axe/axe.engine.ts';
import type { AxeRunResults } from '../session/in-page.ts';
import { inPage, type Probe } from './probe.ts';

/**
 * axe, with the same rules and verdicts as the axe engine, on the probe's revealed roots only
 * (`probe.roots`, from `revealed`): the rest of the page was checked in its default state.
 * Frames are left out (`iframes: false`): a frame a state reveals is not checked.
 */
export async function checkRevealed(page: Page, probe: JSHandle<Probe>): Promise<FindingDraft[]> {
  const options = {
    runOnly: { type: 'tag', values: [...AXE_WCAG_TAGS] },
    rules: Object.fromEntries(Object.keys(AXE_EXPERIMENTAL).map((id) => [id, { enabled: true }])),
    resultTypes: ['violations', 'incomplete'],
    reporter: 'a11y-audit',
    iframes: false,
  };
  const results = await inPage(
    page,
    ({ probe, options }: { probe: Probe; options: unknown }) => {
      const w = window as unknown as { __a11yAxe?: { run(c: unknown, o: unknown): Promise<unknown> } };
      if (!w.__a11yAxe || probe.roots.length === 0) return null;
      return w.__a11yAxe.run({ include: probe.roots, exclude: [] }, options) as Promise<AxeRunResults>;
    },
    { probe, options },
  );
  if (!results) return [];
  const violations = results.violations as AxeRuleResult[];
  const incomplete = results.incomplete as AxeRuleResult[];
  return [
    ...findingsFromAxe(violations.filter((r) => (AXE_EXPERIMENTAL[r.id]?.violations ?? 'confirmed') === 'confirmed'), 'confirmed'),
    ...findingsFromAxe(violations.filter((r) => AXE_EXPERIMENTAL[r.id]?.violations === 'needs_review'), 'needs_review'),
    ...findingsFromAxe(incomplete.filter((r) => AXE_EXPERIMENTAL[r.id]?.incomplete !== 'drop'), 'needs_review'),
  ];
}
