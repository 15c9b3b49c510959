import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { findCrawlPageScan, transitionPage } from '../../db/repositories/crawl.repository.ts';
import { findScan, listFindings, saveSummary, updateFindingTexts } from '../../db/repositories/scan.repository.ts';
import type { FindingRecord, ScanRecord } from '../../db/repositories/records.ts';
import type { DB } from '../../db/schema.ts';
import { FAILURE_TYPES } from '../../shared/contracts.ts';
import type { Logger } from '../../logger.ts';
import { describeFinding, summarise, type ScanSummary } from './offline-enricher.ts';

export interface AiActivityDeps {
  db: Database;
  logger: Logger;
}

/** The summary the engine's results alone support; also what a scan keeps when enrichment fails. */
export function engineSummary(scan: ScanRecord, findings: readonly FindingRecord[]): ScanSummary {
  return summarise({ pageTitle: scan.pageTitle, url: scan.url, score: scan.score ?? 100, findings, passes: scan.enginePasses ?? [] });
}

export function createAiActivities(deps: AiActivityDeps) {
  /** Writes each finding's description and fix, and the page summary, in one transaction. Idempotent. */
  async function enrichPageScan(scanId: string, then?: (trx: Transaction<DB>) => Promise<unknown>): Promise<number> {
    const scan = await findScan(deps.db, scanId);
    if (!scan) throw ApplicationFailure.nonRetryable(`scan ${scanId} does not exist`, FAILURE_TYPES.scanNotFound);
    const findings = await listFindings(deps.db, scanId);
    Context.current().heartbeat({ findings: findings.length });
    const texts = findings.map((f) => ({ ...describeFinding(f), enrichedBy: 'offline' }));
    await deps.db.transaction().execute(async (trx) => {
      await updateFindingTexts(trx, texts);
      await saveSummary(trx, scanId, engineSummary(scan, findings));
      await then?.(trx);
    });
    return texts.length;
  }

  return {
    async enrichScan(input: { scanId: string }): Promise<{ enriched: number }> {
      const enriched = await enrichPageScan(input.scanId);
      deps.logger.info({ scanId: input.scanId, enriched }, 'page enriched');
      return { enriched };
    },

    /** Enriches one scanned page of a crawl and counts it in `enrichedPages` once. */
    async enrichCrawlPage(input: { crawlId: string; pageId: string }): Promise<{ enriched: number }> {
      const scan = await findCrawlPageScan(deps.db, input.crawlId, input.pageId);
      if (!scan) throw ApplicationFailure.nonRetryable(`page ${input.pageId} has no scan in crawl ${input.crawlId}`, FAILURE_TYPES.scanNotFound);
      const enriched = await enrichPageScan(scan.id, (trx) =>
        transitionPage(trx, { crawlId: input.crawlId, pageId: input.pageId, from: ['scanned'], to: 'enriched' }),
      );
      return { enriched };
    },
  };
}

export type AiActivities = ReturnType<typeof createAiActivities>;
