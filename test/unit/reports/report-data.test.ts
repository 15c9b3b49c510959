import { describe, expect, it } from 'vitest';
import type { CrawlRecord, ScanRecord, SiteRecord } from '../../../src/db/repositories/records.ts';
import type { GroupRow, PassRow } from '../../../src/db/repositories/report.repository.ts';
import {
  criteriaResults,
  crawlSummaryText,
  notExportableReason,
  positiveFindings,
  principleOf,
  reportFileName,
  SCORE_FORMULA,
  summaryCounts,
  toGroups,
  topPriorities,
} from '../../../src/reports/report-data.ts';
import { WCAG22_A_AA } from '../../../src/shared/wcag.ts';

function group(p: Partial<GroupRow> & Pick<GroupRow, 'ruleId' | 'wcagCriterion'>): GroupRow {
  return {
    wcagLevel: 'A',
    severity: 'serious',
    type: 'confirmed',
    elements: 1,
    pages: 1,
    title: p.ruleId,
    description: '',
    fixSuggestion: '',
    enrichedBy: 'offline',
    helpUrl: null,
    examples: [],
    examplePages: [],
    ...p,
    wcagCriteria: p.wcagCriteria ?? [p.wcagCriterion],
  };
}

const pass = (ruleId: string, wcagCriterion: string, elements = 3, pages = 1): PassRow => ({ ruleId, help: `${ruleId} passes.`, wcagCriterion, elements, pages });

describe('report data: pure parts', () => {
  it('maps criteria to WCAG principles by their first number', () => {
    expect(principleOf('1.4.3')).toBe('Perceivable');
    expect(principleOf('2.5.8')).toBe('Operable');
    expect(principleOf('3.1.1')).toBe('Understandable');
    expect(principleOf('4.1.2')).toBe('Robust');
  });

  it('orders groups by severity, confirmed before needs review, then reach', () => {
    const groups = toGroups([
      group({ ruleId: 'region', wcagCriterion: '1.3.1', severity: 'moderate', pages: 50 }),
      group({ ruleId: 'color-contrast', wcagCriterion: '1.4.3', severity: 'serious', type: 'needs_review', pages: 90 }),
      group({ ruleId: 'link-name', wcagCriterion: '2.4.4', severity: 'serious', pages: 3 }),
      group({ ruleId: 'image-alt', wcagCriterion: '1.1.1', severity: 'critical', pages: 1 }),
      group({ ruleId: 'target-size', wcagCriterion: '2.5.8', wcagLevel: 'AA', severity: 'serious', pages: 40 }),
    ]);
    expect(groups.map((g) => g.ruleId)).toEqual(['image-alt', 'target-size', 'link-name', 'color-contrast', 'region']);
    expect(groups[0]).toMatchObject({ criterionTitle: 'Non-text Content', principle: 'Perceivable' });
  });

  it('ranks priorities confirmed first, then severity, then pages, and says why', () => {
    const groups = toGroups([
      group({ ruleId: 'color-contrast', wcagCriterion: '1.4.3', severity: 'critical', type: 'needs_review', pages: 90, elements: 900 }),
      group({ ruleId: 'link-name', wcagCriterion: '2.4.4', severity: 'serious', pages: 3, elements: 4 }),
      group({ ruleId: 'label', wcagCriterion: '4.1.2', severity: 'serious', pages: 30, elements: 31 }),
    ]);
    const top = topPriorities(groups, 2);
    expect(top.map((t) => t.ruleId)).toEqual(['label', 'link-name']);
    expect(top[0]!.reason).toContain('31 elements on 30 pages');
    expect(top[0]!.reason).toMatch(/form field/i);
    expect(topPriorities(groups, 5)).toHaveLength(3);
  });

  it('lists every WCAG 2.2 A/AA criterion as fails, needs review, passed or not checked', () => {
    const groups = toGroups([
      group({ ruleId: 'image-alt', wcagCriterion: '1.1.1', elements: 7, pages: 2 }),
      group({ ruleId: 'role-img-alt', wcagCriterion: '1.1.1', elements: 2, pages: 5 }),
      group({ ruleId: 'color-contrast', wcagCriterion: '1.4.3', type: 'needs_review', elements: 4 }),
    ]);
    const criteria = criteriaResults(groups, [pass('image-alt', '1.1.1'), pass('document-title', '2.4.2'), pass('html-has-lang', '3.1.1')]);
    expect(criteria.map((c) => c.id)).toEqual(WCAG22_A_AA.map((sc) => sc.id));
    const by = Object.fromEntries(criteria.map((c) => [c.id, c]));
    expect(by['1.1.1']).toMatchObject({ result: 'fails', issues: 9, pages: 5, rules: ['image-alt', 'role-img-alt'] });
    expect(by['1.4.3']).toMatchObject({ result: 'needs_review', issues: 4 });
    expect(by['2.4.2']).toMatchObject({ result: 'passed', issues: 0, rules: ['document-title'] });
    expect(by['2.1.2']).toMatchObject({ result: 'not_checked', rules: [] });
  });

  it('names positive findings only for criteria with no failure, one per criterion, most checked first', () => {
    const groups = toGroups([group({ ruleId: 'image-alt', wcagCriterion: '1.1.1' })]);
    const passes = [pass('image-alt', '1.1.1', 99), pass('document-title', '2.4.2', 4, 4), pass('html-has-lang', '3.1.1', 9, 9), pass('html-lang-valid', '3.1.1', 2)];
    const found = positiveFindings(criteriaResults(groups, passes), passes);
    expect(found.map((f) => f.wcagCriterion)).toEqual(['3.1.1', '2.4.2']);
    expect(found[0]!.detail).toContain('9 elements on 9 pages');
  });

  it('counts findings by severity, type and principle', () => {
    const c = summaryCounts([
      { severity: 'critical', type: 'confirmed', principle: 1, n: 3 },
      { severity: 'serious', type: 'needs_review', principle: 1, n: 5 },
      { severity: 'minor', type: 'confirmed', principle: 4, n: 2 },
    ]);
    expect(c.bySeverity).toEqual({ critical: 3, serious: 5, moderate: 0, minor: 2, total: 10 });
    expect(c.byType).toEqual({ confirmed: 5, needs_review: 5 });
    expect(c.byPrinciple).toEqual({ Perceivable: 8, Operable: 0, Understandable: 0, Robust: 2 });
  });

  it('writes a crawl summary with the change since the previous crawl, and the limits of automated checks', () => {
    const text = crawlSummaryText({
      hostname: 'example.org',
      score: 71,
      scanned: 40,
      found: 42,
      failed: 2,
      issues: 120,
      confirmed: 100,
      pagesAffected: 38,
      criteria: 9,
      first: { title: 'Images must have alternative text', ruleId: 'image-alt', severity: 'critical', wcagCriterion: '1.1.1', elements: 12, pages: 6, reason: '' },
      change: { newIssues: 5, fixedIssues: 9, persisting: 115, previousScore: 66 },
    });
    expect(text).toContain('40 pages scanned of 42 found (2 could not be scanned)');
    expect(text).toContain('71/100');
    expect(text).toContain('120 issues (100 confirmed, 20 to review by hand) on 38 pages, against 9 WCAG criteria');
    expect(text).toContain('5 new, 9 fixed, 115 still open (score then 66/100)');
    expect(text).toContain('Images must have alternative text');
    expect(text).toMatch(/only part of all barriers/);
  });

  it('states the score formula with the weights in use', () => {
    expect(SCORE_FORMULA).toContain('critical 0.20, serious 0.12, moderate 0.06, minor 0.02');
    expect(SCORE_FORMULA).toContain('25%');
  });

  it('says why a scan or crawl cannot be exported yet', () => {
    const scan: ScanRecord = {
      id: 's1', kind: 'single', crawlId: null, pageId: null, url: 'https://a.example/', status: 'completed', progress: 100, currentStage: null,
      pageTitle: null, finalUrl: null, httpStatus: 200, score: 90, summary: null, enginePasses: null, error: null, clientIp: null,
      issuesLeftOut: null, unfinishedEngines: [], document: null, eventSeq: 1,
      createdAt: new Date(), startedAt: null, completedAt: null, durationMs: null,
    };
    expect(notExportableReason({ kind: 'scan', scan })).toBeNull();
    expect(notExportableReason({ kind: 'scan', scan: { ...scan, status: 'completed_partial' } })).toBeNull();
    expect(notExportableReason({ kind: 'scan', scan: { ...scan, status: 'running' } })).toContain('running');
    expect(notExportableReason({ kind: 'scan', scan: { ...scan, status: 'failed', error: { code: 'dns_error', message: 'no such host' } } })).toContain('dns_error: no such host');
    const crawl: CrawlRecord = {
      id: 'c1', siteId: 's', status: 'completed', maxPages: 10, viewports: ['desktop'], totalPages: 3, scannedPages: 3, enrichedPages: 3, failedPages: 0, enrichFailedPages: 0,
      brokenLinks: 0, skippedUrls: 0, throttledMs: 0, reuse: true, pagesReused: 0, resultsDeletedAt: null, overallScore: 80, newIssues: 1, fixedIssues: 0, discoveryDone: true, error: null, createdAt: new Date(), startedAt: null, completedAt: null,
      enrichment: { calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 }, workflowId: 'crawl-c1', issueCounts: null, eventSeq: 1,
    };
    const site: SiteRecord = { id: 's', hostname: 'a.example', name: 'a.example', baseUrl: 'https://a.example/', createdAt: new Date() };
    expect(notExportableReason({ kind: 'crawl', site, crawl: { ...crawl, status: 'completed' } })).toBeNull();
    expect(notExportableReason({ kind: 'crawl', site, crawl: { ...crawl, status: 'cancelled' } })).toBeNull();
    expect(notExportableReason({ kind: 'crawl', site, crawl: { ...crawl, status: 'queued' } })).toContain('queued');
    expect(notExportableReason({ kind: 'crawl', site, crawl: { ...crawl, status: 'cancelled', scannedPages: 0 } })).toContain('before any page was scanned');
    expect(notExportableReason({ kind: 'crawl', site, crawl: { ...crawl, status: 'failed', scannedPages: 0, error: { code: 'no_pages', message: 'x' } } })).toContain('no_pages');
    expect(notExportableReason({ kind: 'crawl', site, crawl: { ...crawl, resultsDeletedAt: new Date() } })).toContain('CRAWLS_KEPT_PER_SITE');
  });

  it('names report files <hostname>-<kind>-<day of completion>.<ext>', () => {
    const target = { hostname: 'www.example.org', completedAt: new Date('2026-11-20T23:59:00Z') } as never;
    expect(reportFileName({ kind: 'crawl', target, generatedAt: new Date('2026-11-23T00:00:00Z') }, 'pdf')).toBe('www.example.org-crawl-2026-11-20.pdf');
    expect(reportFileName({ kind: 'scan', target, generatedAt: new Date() }, 'excel')).toBe('www.example.org-scan-2026-11-20.xlsx');
    const odd = { hostname: 'a"b;c', completedAt: null } as never;
    expect(reportFileName({ kind: 'scan', target: odd, generatedAt: new Date('2026-01-02T03:00:00Z') }, 'pdf')).toBe('a_b_c-scan-2026-01-02.pdf');
  });
});
