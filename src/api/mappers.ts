import type { Finding, PageScan } from '../db/schema.ts';
import { iso } from './schemas/common.schema.ts';

export function scanIssueDto(f: Finding, status: 'open' | 'fixed' | 'dismissed' | 'cant_fix' = 'open') {
  const data = (f.data ?? {}) as { alsoFlaggedBy?: string[] };
  return {
    id: f.id,
    type: f.type,
    severity: f.severity,
    wcagCriterion: f.wcag_criterion,
    wcagLevel: f.wcag_level,
    elementSelector: f.element_selector,
    elementHtml: f.element_html,
    description: f.description,
    fixSuggestion: f.fix_suggestion,
    axeRuleId: f.rule_id,
    status,
    helpUrl: f.help_url,
    alsoFlaggedBy: data.alsoFlaggedBy ?? [],
  };
}

export function scanListItemDto(s: PageScan) {
  return {
    id: s.id,
    url: s.url,
    status: s.status as 'queued',
    progress: s.progress,
    currentStage: s.status === 'running' ? s.current_stage : null,
    createdAt: iso(s.created_at)!,
    startedAt: iso(s.started_at),
    completedAt: iso(s.completed_at),
    pageTitle: s.page_title,
    overallScore: hasResults(s) ? s.score : null,
    error: (s.error as { code: 'timeout'; message: string } | null) ?? null,
  };
}

export function hasResults(s: PageScan): boolean {
  return s.status === 'completed' || s.status === 'completed_partial';
}

export function scanDto(s: PageScan, findings: Finding[] | null) {
  const results = hasResults(s);
  return {
    ...scanListItemDto(s),
    summary: results ? ((s.summary as any) ?? null) : null,
    issues: results && findings ? findings.map((f) => scanIssueDto(f)) : null,
  };
}
