import type { JSHandle, Page } from 'playwright';
import type { FindingDraft } from '../../shared/findings.ts';
import type { AxeRuleResult } from '../findings/findings.ts';
import { axeDrafts, axeRuleSelection } from '../engines/axe/axe.engine.ts';
import type { AxeRunResults } from '../session/in-page.ts';
import { inPage, type Probe } from './probe.ts';

/**
 * axe, with the same rules and verdicts as the axe engine, on the probe's revealed roots only
 * (`probe.roots`, from `revealed`): the rest of the page was checked in its default state.
 * Frames are left out (`iframes: false`): a frame a state reveals is not checked.
 */
export async function checkRevealed(page: Page, probe: JSHandle<Probe>): Promise<FindingDraft[]> {
  const options = {
    ...axeRuleSelection(),
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
  return axeDrafts(results.violations as AxeRuleResult[], results.incomplete as AxeRuleResult[]);
}
