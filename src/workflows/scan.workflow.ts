import { ApplicationFailure, CancellationScope, isCancellation, log, patched } from '@temporalio/workflow';
import { startWebhookDeliveries } from './webhook.workflow.ts';
import type { ScanStatus, ScanWorkflowInput, ScanWorkflowResult } from '../shared/contracts.ts';
import type { ScanWorkflowType } from '../shared/workflow-types.ts';
import { enrichmentActivities, pageScanActivities, persistenceActivities } from './activity-proxies.ts';

/**
 * One single-page scan: Loading, AxeChecks and CustomChecks on `page-scan`, AiEnrichment on
 * `ai-enrichment`, Finalizing on the workflows queue. Results live in PostgreSQL; the history
 * carries ids and counts only.
 */
export async function ScanWorkflow(input: ScanWorkflowInput): Promise<ScanWorkflowResult> {
  const { scanId, queues } = input;
  const db = persistenceActivities(queues);
  const browser = pageScanActivities(queues);
  const ai = enrichmentActivities(queues, input.enrichment);

  let findings = 0;
  /** The scan's `webhookUrl` is told it ended (completed, partial or failed), without waiting for the receiver. */
  async function notify(): Promise<void> {
    if (!patched('webhooks')) return; // scans that ended before webhooks replay without them
    const { deliveries } = await db.planScanWebhooks({ scanId });
    await startWebhookDeliveries(deliveries, queues);
  }
  try {
    const started = await db.markScanRunning({ scanId });
    if (!started) return { scanId, status: 'cancelled', findings };

    const result = await browser.scanPage({ scanId, reportStages: true });
    if (result.kind === 'page-error') {
      await db.finishScan({ scanId, status: 'failed', error: result.error });
      await notify();
      return { scanId, status: 'failed', findings };
    }
    findings = result.findings;

    await db.setScanStage({ scanId, stage: 'AiEnrichment' });
    let status: ScanStatus = 'completed';
    try {
      await ai.enrichScan({ scanId });
    } catch (err) {
      if (isCancellation(err)) throw err;
      // Enrichment is a nicety: the engine's texts stay and the scan is partial, not failed.
      log.warn('enrichment failed; keeping engine texts', { scanId, error: String(err) });
      status = 'completed_partial';
    }

    await db.setScanStage({ scanId, stage: 'Finalizing' });
    await db.finishScan({ scanId, status });
    await notify();
    return { scanId, status, findings };
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => db.finishScan({ scanId, status: 'cancelled' }));
      throw err;
    }
    const message = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    await CancellationScope.nonCancellable(() =>
      db.finishScan({ scanId, status: 'failed', error: { code: 'browser_error', message: message.slice(0, 500) } }),
    );
    throw ApplicationFailure.nonRetryable(`scan ${scanId} failed: ${message}`, 'ScanFailed');
  }
}

// The signature the API starts it with (src/shared/workflow-types.ts).
const _scanWorkflowType: ScanWorkflowType = ScanWorkflow;
