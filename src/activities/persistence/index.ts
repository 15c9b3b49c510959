import { ApplicationFailure } from '@temporalio/activity';
import type { Database } from '../../db/database.ts';
import { finishScan, findScan, listFindings, markScanRunning, setScanStage } from '../../db/repositories/scan.repository.ts';
import { FAILURE_TYPES, type PageError, type ScanStage, type ScanStatus } from '../../shared/contracts.ts';
import type { Logger } from '../../logger.ts';
import { engineSummary } from '../ai/index.ts';

export interface PersistenceActivityDeps {
  db: Database;
  logger: Logger;
}

/** Short database writes that record a workflow's progress; they run on the workflows queue. */
export function createPersistenceActivities(deps: PersistenceActivityDeps) {
  return {
    async markScanRunning(input: { scanId: string }): Promise<{ url: string } | null> {
      const row = await markScanRunning(deps.db, input.scanId);
      if (row) return { url: row.url };
      const scan = await findScan(deps.db, input.scanId);
      if (!scan) throw ApplicationFailure.nonRetryable(`scan ${input.scanId} does not exist`, FAILURE_TYPES.scanNotFound);
      return null; // already ended (cancelled before it started)
    },

    async setScanStage(input: { scanId: string; stage: ScanStage }): Promise<void> {
      await setScanStage(deps.db, input.scanId, input.stage);
    },

    /** Ends the scan; a completed scan without an enriched summary gets the engine's own. */
    async finishScan(input: { scanId: string; status: ScanStatus; error?: PageError }): Promise<void> {
      const scan = await findScan(deps.db, input.scanId);
      if (!scan) return;
      let summary: unknown;
      if ((input.status === 'completed' || input.status === 'completed_partial') && scan.summary == null) {
        summary = engineSummary(scan, await listFindings(deps.db, input.scanId));
      }
      const ended = await finishScan(deps.db, input.scanId, { status: input.status, error: input.error ?? null, summary });
      if (ended) deps.logger.info({ scanId: input.scanId, status: input.status, error: input.error }, 'scan finished');
    },
  };
}

export type PersistenceActivities = ReturnType<typeof createPersistenceActivities>;
