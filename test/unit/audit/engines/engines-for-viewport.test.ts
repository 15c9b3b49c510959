import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINES, enginesForViewport } from '../../../../src/audit/engines/index.ts';
import type { ViewportName } from '../../../../src/shared/contracts.ts';

const ids = (viewport: ViewportName, viewports: ViewportName[]) => enginesForViewport(DEFAULT_ENGINES, viewport, viewports).map((e) => e.id);
const ALL = DEFAULT_ENGINES.map((e) => e.id);
const PLAIN = ALL.filter((id) => id !== 'reflow' && id !== 'target-size-mobile');

describe('engines per viewport', () => {
  it('desktop alone runs every engine, the 390 px target sizes included', () => {
    expect(ids('desktop', ['desktop'])).toEqual(ALL);
    expect(ALL).toContain('target-size-mobile');
    expect(ALL).toContain('reflow');
  });

  it('beside a real mobile viewport the 390 px emulation is left out everywhere; reflow runs once, at desktop', () => {
    expect(ids('desktop', ['desktop', 'mobile'])).toEqual(ALL.filter((id) => id !== 'target-size-mobile'));
    expect(ids('mobile', ['desktop', 'mobile'])).toEqual(PLAIN);
    expect(ids('mobile', ['mobile'])).toEqual(ALL.filter((id) => id !== 'target-size-mobile'));
  });

  it('without desktop the emulating checks run at the widest window, once', () => {
    expect(ids(1920, [320, 1920])).toEqual(ALL);
    expect(ids(320, [320, 1920])).toEqual(PLAIN);
    expect(ids(1920, ['mobile', 1920])).toEqual(ALL.filter((id) => id !== 'target-size-mobile'));
    expect(ids('desktop', ['desktop', 320])).toEqual(ALL);
    expect(ids(320, ['desktop', 320])).toEqual(PLAIN);
  });
});
