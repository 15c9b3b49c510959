/**
 * Which findings of a page get a picture, and pairing the pictures taken with the stored findings.
 * A single-page scan pictures its default-state findings (the first `perScan`, most severe first);
 * a crawl pictures the example of each issue group: one per group key, from the first page scanned
 * that has it, up to `perCrawl` pictures in all.
 */
import type { Database } from '../../db/database.ts';
import { crawlPictures, type NewScreenshot, type ScreenshotStoreOptions } from '../../db/repositories/screenshot.repository.ts';
import type { FindingDraft, NewFindingRecord } from '../../shared/findings.ts';
import { SEVERITIES, type ViewportName } from '../../shared/contracts.ts';
import { boundedSelector } from '../../shared/limits.ts';
import { groupKey } from '../../audit/findings/group-key.ts';
import type { FindingScreenshot, ScreenshotHook } from '../../audit/screenshots/capture.ts';

export interface ScreenshotSettings {
  /** SCREENSHOTS: off takes none. */
  enabled: boolean;
  /** SCREENSHOTS_PER_CRAWL. */
  perCrawl: number;
  /** Pictures one single-page scan takes at most. */
  perScan: number;
  /** SCREENSHOTS_PAGE_BUDGET_MS: all pictures of one page together. */
  pageBudgetMs: number;
}

export const DEFAULT_SCREENSHOT_SETTINGS: ScreenshotSettings = { enabled: true, perCrawl: 300, perScan: 60, pageBudgetMs: 10_000 };

const sevRank = (f: FindingDraft) => SEVERITIES.indexOf(f.severity);
const bySeverity = (findings: readonly FindingDraft[]) => [...findings].sort((a, b) => sevRank(a) - sevRank(b));
const groupOf = (f: FindingDraft) => groupKey(f.ruleId, boundedSelector(f.elementSelector), f.elementHtml);

/** The scan's hook for a single-page scan (`crawlId` null) or a crawl's page; undefined when pictures are off. */
export function screenshotHook(db: Database, settings: ScreenshotSettings | undefined, crawlId: string | null): ScreenshotHook | undefined {
  const s = settings ?? DEFAULT_SCREENSHOT_SETTINGS;
  if (!s.enabled) return undefined;
  if (!crawlId) return { budgetMs: s.pageBudgetMs, pick: (findings) => bySeverity(findings).slice(0, s.perScan) };
  return {
    budgetMs: s.pageBudgetMs,
    async pick(findings) {
      const first = new Map<string, FindingDraft>();
      for (const f of bySeverity(findings)) {
        const key = groupOf(f);
        if (!first.has(key)) first.set(key, f);
      }
      const { pictured, count } = await crawlPictures(db, crawlId, [...first.keys()]);
      return [...first].filter(([key]) => !pictured.has(key)).map(([, f]) => f).slice(0, Math.max(0, s.perCrawl - count));
    },
  };
}

/**
 * The pictures to store with the findings about to be saved: `rows[i]` is the record of
 * `drafts[i]`; a picture belongs to the draft of its rule and element.
 */
export function screenshotsToStore(
  shots: readonly FindingScreenshot[] | undefined,
  drafts: readonly FindingDraft[],
  rows: readonly NewFindingRecord[],
  settings: ScreenshotSettings | undefined,
  crawlId: string | null,
  /** The viewport the pictures were taken at, on crawls whose findings carry one. */
  viewport: ViewportName | null = null,
): ScreenshotStoreOptions | undefined {
  if (!shots?.length) return undefined;
  const byElement = new Map(shots.map((s) => [`${s.ruleId}\u0000${s.elementSelector}`, s]));
  const out: NewScreenshot[] = [];
  drafts.forEach((d, i) => {
    const shot = d.state || (d.viewport ?? null) !== viewport ? undefined : byElement.get(`${d.ruleId}\u0000${d.elementSelector}`);
    const row = rows[i];
    if (!shot || !row) return;
    byElement.delete(`${d.ruleId}\u0000${d.elementSelector}`);
    out.push({ fingerprint: row.fingerprint, groupKey: row.groupKey ?? null, mime: shot.mime, image: shot.image, width: shot.width, height: shot.height });
  });
  return out.length ? { crawlId, perCrawl: crawlId ? (settings ?? DEFAULT_SCREENSHOT_SETTINGS).perCrawl : null, shots: out } : undefined;
}
