/**
 * What a page's audit becomes when it is stored: its score over every finding, the findings kept
 * under the per-page cap (the rest counted per rule), each finding's stored form (engine texts until
 * enrichment replaces them, its identity within the site and its group) and what the scan covered.
 * Pure: the page-scan activity stores it.
 */
import { unfinishedEngines, type ScanCoverage, type UnfinishedEngine, type ViewportName } from '../shared/contracts.ts';
import { capFindings } from '../shared/findings-cap.ts';
import type { NewFindingRecord } from '../shared/findings.ts';
import { boundedSelector } from '../shared/limits.ts';
import { pageScore } from '../shared/score.ts';
import { fingerprint } from './findings/findings.ts';
import { groupKey } from './findings/group-key.ts';
import type { ScanUrlResult } from './scan-url.ts';

type Scanned = Extract<ScanUrlResult, { kind: 'scanned' }>;

export interface ScanRecordInput {
  url: string;
  result: Scanned;
  /** The viewports and interaction states really checked: only their issues can be found fixed later. */
  checked: { viewports: readonly ViewportName[]; states: ReadonlySet<string> };
  /** The crawl checks several viewports (or another than desktop alone): coverage names them. */
  tagged: boolean;
}

export interface ScanRecord {
  score: number;
  /** The findings kept, in the audit's order (the result's own list is left as it was). */
  kept: Scanned['findings'];
  leftOut: { total: number; byRule: Record<string, number> } | null;
  unfinished: UnfinishedEngine[];
  rows: NewFindingRecord[];
  coverage: ScanCoverage;
}

export function scanRecord({ url, result, checked, tagged }: ScanRecordInput): ScanRecord {
  // The score counts every finding; only the stored list is capped.
  const score = pageScore(result.findings);
  const { kept, leftOut } = capFindings(result.findings);
  // Engines that ran out of the scan's time or broke: the page stands with the others' findings.
  const unfinished = unfinishedEngines(result.engines);
  const rows = kept.map((found) => {
    // A selector is indexed and part of the identity: the page decides its length.
    const f = { ...found, elementSelector: boundedSelector(found.elementSelector) };
    const context = { state: f.state ?? null, viewport: f.viewport ?? null };
    return {
      ...f,
      ...context,
      // Engine texts until enrichment replaces them; they stay if enrichment fails.
      description: `${f.engineHelp}. ${f.engineDescription}.`.replace(/\.\./g, '.'),
      fixSuggestion: f.failureSummary || f.engineHelp,
      data: { ...f.data, ...(result.blocked.length ? { blockedRequests: result.blocked.length } : {}) },
      fingerprint: fingerprint(url, f.ruleId, f.elementSelector, context),
      groupKey: groupKey(f.ruleId, f.elementSelector, f.elementHtml),
    };
  });
  const isDocument = result.document !== undefined;
  return {
    score,
    kept,
    leftOut: leftOut ?? null,
    unfinished,
    rows,
    coverage: {
      viewports: tagged && !isDocument ? [...checked.viewports] : null,
      states: [...checked.states],
      ...(unfinished.length ? { unfinishedEngines: unfinished } : {}),
      ...(result.document ? { document: result.document } : {}),
    },
  };
}
