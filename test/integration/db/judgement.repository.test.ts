import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.ts';
import { claimJudgementGroup, getCachedVerdicts, loadJudgementCandidates, releaseJudgementGroup, putCachedVerdicts, saveJudgementCandidates, saveJudgements } from '../../../src/db/repositories/judgement.repository.ts';
import { insertSingleScan, saveScanResult } from '../../../src/db/repositories/scan.repository.ts';
import type { NewFindingRecord } from '../../../src/shared/findings.ts';
import { createTestDatabase } from '../../helpers/test-env.ts';
import { findingRecord } from '../../helpers/finding-record.ts';

// Storing AI-assisted judgement: candidates per page scan, verdicts per scope, and findings that
// either stand on their own or annotate the heuristic finding of the same element and criterion.

const finding = (over: Partial<NewFindingRecord>): NewFindingRecord =>
  findingRecord('fp-heuristic', {
    ruleId: 'image-alt-filename',
    type: 'needs_review',
    severity: 'serious',
    elementSelector: '#logo',
    elementHtml: '<img id="logo" alt="logo.png">',
    engineHelp: 'h',
    data: { engine: 'structure' },
    groupKey: 'g',
    ...over,
  });

describe('judgement storage', () => {
  let t: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Database;
  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.db;
  });
  afterAll(async () => t?.drop());

  it('keeps a page scan\'s candidates, replaced on a retry', async () => {
    const { id } = await insertSingleScan(db, { url: 'https://example.org/', clientIp: null });
    expect(await loadJudgementCandidates(db, id)).toBeUndefined();
    const c = { kind: 'alt' as const, selector: '#a', html: '<img>', text: 'image', context: '' };
    await saveJudgementCandidates(db, id, { viewport: null, pageLang: 'en', candidates: [c] });
    await saveJudgementCandidates(db, id, { viewport: 'mobile', pageLang: 'en', candidates: [c, { ...c, selector: '#b' }] });
    expect(await loadJudgementCandidates(db, id)).toEqual({ viewport: 'mobile', pageLang: 'en', candidates: [c, { ...c, selector: '#b' }] });
  });

  it('caches verdicts per scope and namespace', async () => {
    await putCachedVerdicts(db, 'site:a', 'm@1', [{ kind: 'alt', hash: 'h1', fails: true, reason: 'Vague.' }]);
    await putCachedVerdicts(db, 'site:a', 'm@1', [{ kind: 'alt', hash: 'h1', fails: false, reason: 'Fine.' }]);
    expect(await getCachedVerdicts(db, 'site:a', 'm@1', [{ kind: 'alt', hash: 'h1' }])).toEqual([{ kind: 'alt', hash: 'h1', fails: false, reason: 'Fine.' }]);
    expect(await getCachedVerdicts(db, 'site:b', 'm@1', [{ kind: 'alt', hash: 'h1' }])).toEqual([]);
    expect(await getCachedVerdicts(db, 'site:a', 'm@2', [{ kind: 'alt', hash: 'h1' }])).toEqual([]);
  });

  it('gives a group\'s claim to one caller until it is released or stale', async () => {
    expect(await claimJudgementGroup(db, 'site:a', 'm@1', 'g1', 60_000)).toBe(true);
    expect(await claimJudgementGroup(db, 'site:a', 'm@1', 'g1', 60_000)).toBe(false);
    expect(await claimJudgementGroup(db, 'site:b', 'm@1', 'g1', 60_000)).toBe(true);
    await releaseJudgementGroup(db, 'site:a', 'm@1', 'g1');
    expect(await claimJudgementGroup(db, 'site:a', 'm@1', 'g1', 60_000)).toBe(true);
    await db.updateTable('judgement_claims').set({ claimed_at: new Date(Date.now() - 120_000) }).execute();
    expect(await claimJudgementGroup(db, 'site:a', 'm@1', 'g1', 60_000)).toBe(true);
  });

  it('annotates the heuristic finding of the same element and criterion instead of adding one, adds where there is none, and replaces its own on a retry', async () => {
    const { id } = await insertSingleScan(db, { url: 'https://example.org/', clientIp: null });
    await saveScanResult(db, id, { pageTitle: null, finalUrl: null, httpStatus: 200, score: 90, passes: [], findings: [finding({})] });
    const ai = (selector: string, fp: string) =>
      finding({ ruleId: 'ai-alt-text-quality', elementSelector: selector, fingerprint: fp, data: { engine: 'ai', ai: { fails: true, reason: 'Says nothing.' }, review: { reason: 'Says nothing.' } } });
    const passing = [{ criterion: '2.4.4', selector: '#none', viewport: null, ai: { fails: false } }];
    for (let attempt = 0; attempt < 2; attempt++) {
      const r = await saveJudgements(db, id, { findings: [ai('#logo', 'fp-ai-logo'), ai('#photo', 'fp-ai-photo')], passing });
      expect(r).toEqual({ added: 1, annotated: 1 });
    }
    const rows = await db.selectFrom('findings').select(['rule_id', 'element_selector', 'data']).where('page_scan_id', '=', id).orderBy('element_selector').execute();
    expect(rows.map((r) => [r.element_selector, r.rule_id])).toEqual([
      ['#logo', 'image-alt-filename'],
      ['#photo', 'ai-alt-text-quality'],
    ]);
    expect(rows[0]!.data).toMatchObject({ engine: 'structure', ai: { fails: true, reason: 'Says nothing.' }, alsoFlaggedBy: ['ai-alt-text-quality'] });
  });

  it('annotates a finding with a passing verdict, never removing it', async () => {
    const { id } = await insertSingleScan(db, { url: 'https://example.org/', clientIp: null });
    await saveScanResult(db, id, { pageTitle: null, finalUrl: null, httpStatus: 200, score: 90, passes: [], findings: [finding({})] });
    const r = await saveJudgements(db, id, { findings: [], passing: [{ criterion: '1.1.1', selector: '#logo', viewport: null, ai: { fails: false, reason: 'Names the logo.' } }] });
    expect(r).toEqual({ added: 0, annotated: 1 });
    const row = await db.selectFrom('findings').select(['type', 'data']).where('page_scan_id', '=', id).executeTakeFirstOrThrow();
    expect(row.type).toBe('needs_review');
    expect(row.data).toMatchObject({ ai: { fails: false, reason: 'Names the logo.' } });
  });
});
