/** What the CLI prints: progress lines while a run goes on, and the summary at its end. Pure. */
import type { GateDecision } from './gate.ts';
import { SEVERITIES, type AuditIssue, type Crawl, type Scan } from './types.ts';

/** Enough of a UUID to find it in a list; the full id is printed once when the run starts. */
export const shortId = (id: string) => (id.length > 8 ? `${id.slice(0, 8)}…` : id);

export function scanProgressLine(scan: Pick<Scan, 'id' | 'status' | 'progress' | 'currentStage'>): string {
  const parts: string[] = [scan.status];
  if (scan.status === 'running' && scan.currentStage) parts.push(scan.currentStage);
  if (scan.status === 'running' || scan.status === 'completed' || scan.status === 'completed_partial') parts.push(`${scan.progress ?? 0}%`);
  return `scan ${shortId(scan.id)}: ${parts.join(', ')}`;
}

export function crawlProgressLine(crawl: Pick<Crawl, 'id' | 'status' | 'totalPages' | 'scannedPages' | 'failedPages' | 'enrichedPages'>): string {
  const parts: string[] = [crawl.status];
  if (crawl.status !== 'queued') {
    parts.push(`${crawl.scannedPages ?? 0} of ${crawl.totalPages ?? 0} pages scanned`);
    if (crawl.failedPages > 0) parts.push(`${crawl.failedPages} failed`);
    // Enrichment runs after the scans: without this the line would stand still through it.
    if (crawl.enrichedPages > 0) parts.push(`${crawl.enrichedPages} enriched`);
  }
  return `crawl ${shortId(crawl.id)}: ${parts.join(', ')}`;
}

/** Writes a progress line only when it differs from the previous one. */
export function changedLines(write: (line: string) => void): (line: string) => void {
  let last: string | undefined;
  return (line) => {
    if (line === last) return;
    last = line;
    write(line);
  };
}

function bySeverity(issues: readonly AuditIssue[]): string {
  const counts = SEVERITIES.map((s) => [s, issues.filter((i) => i.severity === s).length] as const).filter(([, n]) => n > 0);
  return counts.length === 0 ? '' : ` (${counts.map(([s, n]) => `${s} ${n}`).join(', ')})`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export interface SummaryInput {
  /** The run's headline, e.g. `crawl c9d2… of https://example.org/: completed, 120 pages scanned`. */
  headline: string;
  issues: readonly AuditIssue[];
  hasBaseline: boolean;
  includeNeedsReview: boolean;
  gate: GateDecision;
  reports: ReadonlyArray<{ kind: string; path: string }>;
}

export function summaryLines(s: SummaryInput): string[] {
  const confirmed = s.issues.filter((i) => i.type === 'confirmed');
  const review = s.issues.filter((i) => i.type !== 'confirmed');
  const newCount = s.issues.filter((i) => i.isNew).length;
  const newText = s.hasBaseline ? `${newCount} new since the previous crawl` : 'all new (a single-page scan has no baseline)';
  const lines = [
    s.headline,
    `Issues: ${confirmed.length} confirmed${bySeverity(confirmed)}; ` +
      `${plural(review.length, 'needs review', 'need review')}${bySeverity(review)}${review.length > 0 ? (s.includeNeedsReview ? ', counted' : ', not counted') : ''}; ${newText}`,
    `Gate: ${s.gate.verdict}`,
  ];
  if (s.reports.length > 0) lines.push(`Reports: ${s.reports.map((r) => `${r.kind} ${r.path}`).join(', ')}`);
  return lines;
}

/** The issues behind a failed gate, worst first, so the build log says what to fix without opening a report. */
export function failingLines(failing: readonly AuditIssue[], limit = 10): string[] {
  if (failing.length === 0) return [];
  const sorted = [...failing].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || a.pageUrl.localeCompare(b.pageUrl));
  const lines = sorted.slice(0, limit).map((i) => `  ${i.severity} ${i.ruleId} (WCAG ${i.wcagCriterion}${i.isNew ? ', new' : ''}) on ${i.pageUrl} at ${i.selector}`);
  if (failing.length > limit) lines.push(`  … and ${failing.length - limit} more (see the reports)`);
  return lines;
}
