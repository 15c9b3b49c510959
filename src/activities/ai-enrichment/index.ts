import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Database } from '../../db/database.ts';
import { findCrawl } from '../../db/repositories/crawl.repository.ts';
import { findCrawlPageScan, saveEnrichment } from '../../db/repositories/crawl-page.repository.ts';
import { findScan, listFindings } from '../../db/repositories/scan.repository.ts';
import type { ScanRecord } from '../../db/repositories/records.ts';
import type { FindingRecord } from '../../shared/findings.ts';
import { FAILURE_TYPES } from '../../shared/contracts.ts';
import type { Logger } from '../../logger.ts';
import type { Enricher, EnrichmentGroup, EnrichmentUsage, FindingTextsOut } from '../../enrichment/enricher.ts';
import { engineSummary } from '../../enrichment/offline-enricher.ts';
import type { Judge } from '../../enrichment/judge/judge.ts';
import { isJudgementFinding, judgeScan } from './judgement.ts';

export interface AiEnrichmentActivityDeps {
  db: Database;
  logger: Logger;
  /** Chosen once by the worker from configuration: offline, or an OpenAI-compatible model. */
  enricher: Enricher;
  /** AI-assisted judgement, when a model is configured; unset offline. */
  judge?: Judge;
}

/**
 * Whose cache space a scan's texts belong to: its site's for a crawl's page; for a single-page
 * scan (tied to no site) the host it ended on, apart from every site's, so a crafted page scanned
 * alone seeds texts for its own host only.
 */
export function enrichmentScope(scan: Pick<ScanRecord, 'url' | 'finalUrl'>, siteId: string | undefined): string {
  if (siteId) return `site:${siteId}`;
  let host: string;
  try {
    host = new URL(scan.finalUrl ?? scan.url).hostname;
  } catch {
    host = scan.url;
  }
  return `scan-host:${host}`;
}

/** A page's findings by issue group, in the order their first member appears (severity first). */
export function groupFindings(findings: readonly FindingRecord[], page: EnrichmentGroup['page'], scope: string): EnrichmentGroup[] {
  const groups = new Map<string, FindingRecord[]>();
  for (const f of findings) {
    // Findings stored before group keys existed form groups of one.
    const key = f.groupKey ?? `finding:${f.fingerprint}`;
    const members = groups.get(key);
    if (members) members.push(f);
    else groups.set(key, [f]);
  }
  return [...groups].map(([groupKey, members]) => ({ groupKey, scope, members, page }));
}

function addUsage(a: EnrichmentUsage, b: EnrichmentUsage): EnrichmentUsage {
  return { calls: a.calls + b.calls, cacheHits: a.cacheHits + b.cacheHits, inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

export function createAiEnrichmentActivities(deps: AiEnrichmentActivityDeps) {
  /**
   * Writes each finding's description and fix (one enricher call per issue group) and the page
   * summary, in one transaction. Idempotent: a retry writes the same texts, cached groups cost nothing.
   */
  async function enrichPageScan(
    scanId: string,
    crawlPage?: { crawlId: string; pageId: string; siteId: string },
  ): Promise<{ enriched: number; groups: number; usage: EnrichmentUsage }> {
    const scan = await findScan(deps.db, scanId);
    if (!scan) throw ApplicationFailure.nonRetryable(`scan ${scanId} does not exist`, FAILURE_TYPES.scanNotFound);
    const ctx = Context.current();
    const scope = enrichmentScope(scan, crawlPage?.siteId);
    let findings: FindingRecord[] = [];
    let groups: EnrichmentGroup[] = [];
    const texts: FindingTextsOut[] = [];
    let usage: EnrichmentUsage = { calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 };
    let done = 0;
    // A model call, or waiting for another worker's call on the same group, can outlast one
    // heartbeat interval: beat on a timer so Temporal sees the activity alive and can cancel it.
    const beat = () => ctx.heartbeat({ findings: findings.length, groups: groups.length, done });
    beat();
    const timer = setInterval(beat, 10_000);
    try {
      // First the model's judgement of the scan's candidates (its findings come with their own
      // texts); a judgement that fails leaves the heuristics' results, never the page unenriched.
      if (deps.judge) {
        try {
          const judged = await judgeScan({ db: deps.db, logger: deps.logger, judge: deps.judge }, scan, scope, ctx.cancellationSignal);
          if (judged.candidates) deps.logger.info({ scanId, ...judged }, 'candidates judged');
        } catch (err) {
          if (ctx.cancellationSignal.aborted) throw err;
          deps.logger.warn({ scanId, error: String((err as Error)?.message ?? err).slice(0, 300) }, 'judgement failed; the heuristics decide alone');
        }
      }
      findings = await listFindings(deps.db, scanId);
      groups = groupFindings(
        findings.filter((f) => !isJudgementFinding(f)),
        { url: scan.finalUrl ?? scan.url, title: scan.pageTitle },
        scope,
      );
      for (const group of groups) {
        const r = await deps.enricher.describeGroup(group, { signal: ctx.cancellationSignal });
        texts.push(...r.texts);
        usage = addUsage(usage, r.usage);
        done++;
      }
    } finally {
      clearInterval(timer);
    }
    await saveEnrichment(deps.db, {
      scanId,
      texts,
      summary: engineSummary(scan, findings),
      ...(crawlPage ? { crawlPage: { crawlId: crawlPage.crawlId, pageId: crawlPage.pageId, usage } } : {}),
    });
    return { enriched: texts.length, groups: groups.length, usage };
  }

  return {
    async enrichScan(input: { scanId: string }): Promise<{ enriched: number }> {
      const { enriched, groups, usage } = await enrichPageScan(input.scanId);
      deps.logger.info({ scanId: input.scanId, enricher: deps.enricher.name, enriched, groups, ...usage }, 'page enriched');
      return { enriched };
    },

    /** Enriches one scanned page of a crawl, counts it in `enrichedPages` and its cost in the crawl's totals, once. */
    async enrichCrawlPage(input: { crawlId: string; pageId: string }): Promise<{ enriched: number }> {
      const scan = await findCrawlPageScan(deps.db, input.crawlId, input.pageId);
      if (!scan) throw ApplicationFailure.nonRetryable(`page ${input.pageId} has no scan in crawl ${input.crawlId}`, FAILURE_TYPES.scanNotFound);
      const crawl = await findCrawl(deps.db, input.crawlId);
      if (!crawl) throw ApplicationFailure.nonRetryable(`crawl ${input.crawlId} does not exist`, FAILURE_TYPES.crawlNotFound);
      const { enriched } = await enrichPageScan(scan.id, { crawlId: input.crawlId, pageId: input.pageId, siteId: crawl.siteId });
      return { enriched };
    },
  };
}

export type AiEnrichmentActivities = ReturnType<typeof createAiEnrichmentActivities>;
