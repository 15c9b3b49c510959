import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Database } from '../../db/database.ts';
import { findScan, listFindings, saveSummary, updateFindingTexts } from '../../db/repositories/scan.repository.ts';
import type { Finding, PageScan } from '../../db/schema.ts';
import { FAILURE_TYPES } from '../../shared/contracts.ts';
import type { Logger } from '../../logger.ts';
import { describeFinding, summarise, type EnrichableFinding, type PassedRuleInfo, type ScanSummary } from './offline-enricher.ts';

export interface AiActivityDeps {
  db: Database;
  logger: Logger;
}

export function toEnrichable(f: Finding): EnrichableFinding {
  return {
    id: f.id,
    ruleId: f.rule_id,
    type: f.type,
    severity: f.severity,
    wcagCriterion: f.wcag_criterion,
    wcagLevel: f.wcag_level,
    elementSelector: f.element_selector,
    engineHelp: f.engine_help,
    engineDescription: f.engine_description,
    failureSummary: f.failure_summary,
  };
}

/** The summary the engine's results alone support; also what a scan keeps when enrichment fails. */
export function engineSummary(scan: PageScan, findings: readonly Finding[]): ScanSummary {
  return summarise({
    pageTitle: scan.page_title,
    url: scan.url,
    score: scan.score ?? 100,
    findings: findings.map(toEnrichable),
    passes: (scan.engine_passes as PassedRuleInfo[] | null) ?? [],
  });
}

export function createAiActivities(deps: AiActivityDeps) {
  return {
    /** Writes each finding's description and fix, and the page summary. Idempotent. */
    async enrichScan(input: { scanId: string }): Promise<{ enriched: number }> {
      const scan = await findScan(deps.db, input.scanId);
      if (!scan) throw ApplicationFailure.nonRetryable(`scan ${input.scanId} does not exist`, FAILURE_TYPES.scanNotFound);
      const findings = await listFindings(deps.db, input.scanId);
      Context.current().heartbeat({ findings: findings.length });
      const texts = findings.map((f) => ({ ...describeFinding(toEnrichable(f)), enrichedBy: 'offline' }));
      await deps.db.transaction().execute(async (trx) => {
        await updateFindingTexts(trx, texts);
        await saveSummary(trx, input.scanId, engineSummary(scan, findings));
      });
      deps.logger.info({ scanId: input.scanId, enriched: texts.length }, 'page enriched');
      return { enriched: texts.length };
    },
  };
}

export type AiActivities = ReturnType<typeof createAiActivities>;
