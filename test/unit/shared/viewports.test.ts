import { describe, expect, it } from 'vitest';
import { ViewportsInput } from '../../../src/api/schemas/site.schema.ts';
import {
  crawlViewports,
  emulationViewport,
  isDesktopOnly,
  storedViewports,
  viewportSetup,
  viewportsProblem,
} from '../../../src/shared/viewports.ts';

describe('crawl viewports', () => {
  it('renders desktop as the scan always did, mobile as a phone, a width as a desktop window', () => {
    expect(viewportSetup('desktop')).toEqual({ width: 1280, height: 800, isMobile: false, hasTouch: false, deviceScaleFactor: 1 });
    expect(viewportSetup('mobile')).toEqual({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
    expect(viewportSetup(320)).toEqual({ width: 320, height: 800, isMobile: false, hasTouch: false, deviceScaleFactor: 1 });
    expect(viewportSetup(1920)).toMatchObject({ width: 1920, height: 1200 });
    expect(viewportSetup(3840)).toMatchObject({ width: 3840, height: 2400 });
  });

  it('takes 1 to 4 known viewports, none twice', () => {
    for (const ok of [['desktop'], ['mobile'], ['desktop', 'mobile'], [320], ['mobile', 390], ['desktop', 'mobile', 320, 1920], [3840]]) {
      expect(viewportsProblem(ok), JSON.stringify(ok)).toBeUndefined();
      expect(ViewportsInput.safeParse(ok).success, JSON.stringify(ok)).toBe(true);
    }
    const bad: Array<[unknown, RegExp]> = [
      [[], /1 to 4/],
      [['desktop', 'mobile', 320, 1920, 800], /1 to 4/],
      [['tablet'], /not a viewport|a viewport is/],
      [[319], /320 to 3840/],
      [[3841], /320 to 3840/],
      [[600.5], /320 to 3840/],
      [['600'], /320 to 3840/],
      [['desktop', 'desktop'], /given twice/],
      [['mobile', 'desktop', 'mobile'], /given twice/],
      [['desktop', 1280], /same viewport/],
      [[null], /320 to 3840/],
    ];
    for (const [list, message] of bad) {
      const parsed = ViewportsInput.safeParse(list);
      expect(parsed.success, JSON.stringify(list)).toBe(false);
      // One problem per list, in words a client can act on.
      expect(parsed.error!.issues, JSON.stringify(list)).toHaveLength(1);
      expect(parsed.error!.issues[0]!.message, JSON.stringify(list)).toMatch(message);
    }
    expect(ViewportsInput.safeParse('mobile').success).toBe(false);
  });

  it('stores desktop only as null and reads null (or anything malformed) back as desktop only', () => {
    expect(isDesktopOnly(undefined)).toBe(true);
    expect(isDesktopOnly(['desktop'])).toBe(true);
    expect(isDesktopOnly(['mobile'])).toBe(false);
    expect(isDesktopOnly([1280])).toBe(false);
    expect(storedViewports(['desktop'])).toBeNull();
    expect(storedViewports(undefined)).toBeNull();
    expect(storedViewports(['mobile', 'desktop'])).toEqual(['mobile', 'desktop']);
    expect(crawlViewports(null)).toEqual(['desktop']);
    expect(crawlViewports(['desktop', 'mobile'])).toEqual(['desktop', 'mobile']);
    expect(crawlViewports(['phone'])).toEqual(['desktop']);
    expect(crawlViewports({ a: 1 })).toEqual(['desktop']);
  });

  it('runs the emulating checks once per page: at desktop, else the widest window, else mobile', () => {
    expect(emulationViewport(['desktop'])).toBe('desktop');
    expect(emulationViewport(['mobile', 'desktop'])).toBe('desktop');
    expect(emulationViewport(['mobile', 320, 1920])).toBe(1920);
    expect(emulationViewport(['mobile'])).toBe('mobile');
  });
});
