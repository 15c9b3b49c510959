import { describe, expect, it } from 'vitest';
import { scanRecord } from '../../../src/audit/scan-record.ts';
import type { ScanUrlResult } from '../../../src/audit/scan-url.ts';
import { fingerprint } from '../../../src/audit/findings/findings.ts';
import { MAX_FINDINGS_PER_PAGE } from '../../../src/shared/findings-cap.ts';
import { pageScore } from '../../../src/shared/score.ts';
import { findingRecord } from '../../helpers/finding-record.ts';

type Scanned = Extract<ScanUrlResult, { kind: 'scanned' }>;
const URL_ = 'https://example.org/a';

function scanned(over: Partial<Scanned> = {}): Scanned {
  return { kind: 'scanned', pageTitle: 'A', finalUrl: URL_, httpStatus: 200, findings: [], passes: [], blocked: [], engines: [], statesChecked: [], ...over } as Scanned;
}
const draft = (i: number, over: Record<string, unknown> = {}) => {
  const { fingerprint: _f, groupKey: _g, description: _d, fixSuggestion: _x, ...rest } = findingRecord(`el-${i}`, over);
  return { ...rest, engineHelp: 'Images must have alternative text', engineDescription: 'No alt', failureSummary: '' };
};

describe('what a page audit becomes when stored', () => {
  it('scores every finding, keeps those under the cap and counts the rest per rule', () => {
    const findings = Array.from({ length: MAX_FINDINGS_PER_PAGE + 5 }, (_, i) => draft(i)) as unknown as Scanned['findings'];
    const r = scanRecord({ url: URL_, result: scanned({ findings }), checked: { viewports: ['desktop'], states: new Set() }, tagged: false });
    expect(r.score).toBe(pageScore(findings));
    expect(r.kept).toHaveLength(MAX_FINDINGS_PER_PAGE);
    expect(r.leftOut).toEqual({ total: 5, byRule: { 'image-alt': 5 } });
    expect(r.rows).toHaveLength(MAX_FINDINGS_PER_PAGE);
  });

  it('gives each finding its engine texts, its identity on the page and the blocked requests it was found with', () => {
    const state = { action: 'click' as const, target: '#menu', label: 'Menu' };
    const findings = [draft(1, { state, viewport: 'mobile' })] as unknown as Scanned['findings'];
    const r = scanRecord({ url: URL_, result: scanned({ findings, blocked: ['https://t.example/x.js'] as unknown as Scanned['blocked'] }), checked: { viewports: ['desktop', 'mobile'], states: new Set(['#menu']) }, tagged: true });
    expect(r.rows[0]).toMatchObject({
      description: 'Images must have alternative text. No alt.',
      fixSuggestion: 'Images must have alternative text',
      fingerprint: fingerprint(URL_, 'image-alt', '#el-1', { state, viewport: 'mobile' }),
      data: { blockedRequests: 1 },
    });
    expect(r.coverage).toEqual({ viewports: ['desktop', 'mobile'], states: ['#menu'] });
  });

  it('names no viewports for a document, and lists engines that did not finish', () => {
    const r = scanRecord({
      url: URL_,
      result: scanned({ document: { mediaType: 'application/pdf', bytes: 10, pages: 1 }, engines: [{ engine: 'document', ms: 5, findings: [] }, { engine: 'keyboard', ms: 9, findings: [], unfinished: 'out_of_time' }] as unknown as Scanned['engines'] }),
      checked: { viewports: ['desktop'], states: new Set() },
      tagged: true,
    });
    expect(r.coverage).toEqual({ viewports: null, states: [], unfinishedEngines: [{ engine: 'keyboard', reason: 'out_of_time' }], document: { mediaType: 'application/pdf', bytes: 10, pages: 1 } });
  });
});
