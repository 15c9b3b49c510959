import { describe, expect, it } from 'vitest';
import { screenshotHook, screenshotsToStore } from '../../../src/activities/page-scan/screenshots.ts';
import type { Database } from '../../../src/db/database.ts';
import type { FindingDraft, NewFindingRecord } from '../../../src/shared/findings.ts';

const draft = (ruleId: string, selector: string, severity: FindingDraft['severity'], extra: Partial<FindingDraft> = {}) =>
  ({ ruleId, elementSelector: selector, elementHtml: `<b id="${selector}">`, severity, type: 'confirmed', ...extra }) as FindingDraft;
const row = (fingerprint: string, groupKey: string) => ({ fingerprint, groupKey }) as NewFindingRecord;
const shot = (ruleId: string, elementSelector: string) => ({ ruleId, elementSelector, mime: 'image/png' as const, image: Buffer.from('png'), width: 10, height: 10 });
const noDb = {} as Database;

describe('which findings get a picture', () => {
  it('takes none when pictures are off', () => {
    expect(screenshotHook(noDb, { enabled: false, perCrawl: 300, perScan: 60, pageBudgetMs: 1000 }, null)).toBeUndefined();
    expect(screenshotHook(noDb, { enabled: false, perCrawl: 300, perScan: 60, pageBudgetMs: 1000 }, 'crawl-1')).toBeUndefined();
  });

  it('pictures a single-page scan\u2019s findings, most severe first, up to its cap', async () => {
    const hook = screenshotHook(noDb, { enabled: true, perCrawl: 300, perScan: 2, pageBudgetMs: 1234 }, null)!;
    expect(hook.budgetMs).toBe(1234);
    const picked = await hook.pick([draft('a', '#a', 'minor'), draft('b', '#b', 'critical'), draft('c', '#c', 'serious')]);
    expect(picked.map((f) => f.ruleId)).toEqual(['b', 'c']);
  });
});

describe('pairing pictures with the stored findings', () => {
  it('keys each picture to its finding\u2019s fingerprint, never to a finding revealed by an interaction', () => {
    const drafts = [draft('a', '#a', 'minor'), draft('b', '#b', 'serious', { state: { action: 'click', target: '#m', label: 'Menu' } }), draft('c', '#c', 'minor')];
    const rows = [row('fa', 'ga'), row('fb', 'gb'), row('fc', 'gc')];
    const out = screenshotsToStore([shot('a', '#a'), shot('b', '#b'), shot('x', '#x')], drafts, rows, undefined, 'crawl-1')!;
    expect(out.crawlId).toBe('crawl-1');
    expect(out.perCrawl).toBe(300);
    expect(out.shots.map((s) => [s.fingerprint, s.groupKey])).toEqual([['fa', 'ga']]);
    // A single-page scan has no crawl cap.
    expect(screenshotsToStore([shot('c', '#c')], drafts, rows, undefined, null)).toMatchObject({ crawlId: null, perCrawl: null, shots: [{ fingerprint: 'fc' }] });
    expect(screenshotsToStore([], drafts, rows, undefined, null)).toBeUndefined();
    expect(screenshotsToStore(undefined, drafts, rows, undefined, null)).toBeUndefined();
  });
});
