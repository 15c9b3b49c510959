import { Context } from '@temporalio/activity';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import type { TargetPolicy } from '../../security/target-policy.ts';
import { FREE_SLOT, type HostPacer } from '../../shared/politeness.ts';
import type { ViewportName } from '../../shared/contracts.ts';
import type { StateExplorationOptions } from '../../audit/states/explore.ts';
import { auditKey } from '../../audit/reuse/audit-key.ts';
import { recheck, type ResourceEntry, type ResourceManifest } from '../../audit/reuse/manifest.ts';
import { revalidateResource } from '../../discovery/revalidate.ts';
import { carryOverScan, findReusableScan, siteAuthVersion } from '../../db/repositories/page-reuse.repository.ts';
import { crawlPageState, ensureCrawlPageScan } from '../../db/repositories/crawl-page.repository.ts';
import { getPageUrl } from '../../db/repositories/page.repository.ts';
import { findCrawl } from '../../db/repositories/crawl.repository.ts';
import { addCrawlThrottledMs } from '../../db/repositories/host-pacing.repository.ts';
import { DEFAULT_VIEWPORTS } from '../../shared/viewports.ts';
import { flowNameOf } from '../../shared/site-flows.ts';
import { DEFAULT_ENGINES, type ScanEngine } from '../../audit/engines/index.ts';
import { renderedHandOver } from './rendered-links.ts';

/** REUSE_MAX_AGE's default: an audit older than this is done afresh, whatever the site answers. */
export const DEFAULT_REUSE_MAX_AGE_MS = 30 * 24 * 60 * 60_000;
/** Revalidation GETs in flight at once for one page (a browser opens about as many per host). */
const REVALIDATE_CONCURRENCY = 6;

export interface ReuseDeps {
  db: Database;
  logger: Logger;
  policy: TargetPolicy;
  pageLoadTimeoutMs: number;
  pacer?: HostPacer;
  scanEngines?: readonly ScanEngine[];
  scanStates?: StateExplorationOptions;
  judge?: { readonly model: string };
  enricher?: { readonly name: string };
  screenshots?: { readonly enabled: boolean };
  /** REUSE_MAX_AGE in ms; 0: no page is ever reused. */
  reuseMaxAgeMs?: number;
}

/** What `reuseUnchangedPage` answers (shown as the activity's result in the Temporal UI). */
export type ReuseOutcome =
  | { reused: true; from: string; resources: number; findings: number }
  /** `ended`: the page left the crawl meanwhile (no page of its own): nothing is left to scan. */
  | { reused: false; reason: string; ended?: true };

/** The audit key of a crawl's pages on this worker (see audit-key.ts); `login`: the site's set-up's version (siteAuthVersion). */
export function crawlAuditKey(deps: ReuseDeps, viewports: readonly ViewportName[], login: string | null): string {
  return auditKey({
    engines: (deps.scanEngines ?? DEFAULT_ENGINES).map((e) => e.id),
    viewports,
    states: deps.scanStates ?? null,
    login,
    judge: deps.judge?.model ?? null,
    enricher: deps.enricher?.name ?? 'offline',
    screenshots: deps.screenshots?.enabled ?? true,
  });
}

/**
 * Checks every entry of a manifest with the site, a few at a time, the page's own document first;
 * stops at the first change. The document waits for its host's fetch slot, as the browser's load
 * would (Crawl-delay, a pause the site asked for); an answer 429 or 503 pauses the host.
 */
async function revalidateAll(deps: ReuseDeps, entries: readonly ResourceEntry[], signal: AbortSignal, onWait: (ms: number) => void): Promise<{ same: true; entries: ResourceEntry[] } | { same: false; reason: string }> {
  const checked: ResourceEntry[] = new Array(entries.length);
  const stop = new AbortController();
  const both = AbortSignal.any([signal, stop.signal]);
  let changed: string | undefined;
  const one = async (i: number) => {
    const entry = entries[i]!;
    const slot = i === 0 && deps.pacer ? await deps.pacer.before(entry.url, both) : FREE_SLOT;
    if (slot.waitedMs > 0) onWait(slot.waitedMs);
    Context.current().heartbeat({ stage: 'Revalidating', checked: i + 1, of: entries.length });
    const answer = await revalidateResource(entry, { policy: deps.policy, timeoutMs: deps.pageLoadTimeoutMs, signal: both }).finally(() => slot.done());
    if (answer.throttled && deps.pacer) {
      await deps.pacer.pushedBack(entry.url, { attempt: 1, ...(answer.throttled.retryAfterMs !== undefined ? { retryAfterMs: answer.throttled.retryAfterMs } : {}) });
    }
    const verdict = recheck(entry, answer);
    if (!verdict.same) {
      changed ??= verdict.reason;
      stop.abort();
      return;
    }
    checked[i] = verdict.entry;
  };
  // The document alone first: most changes show there, and it costs one request to find out.
  await one(0);
  let next = 1;
  const worker = async () => {
    while (changed === undefined && !signal.aborted && next < entries.length) await one(next++);
  };
  await Promise.all(Array.from({ length: Math.min(REVALIDATE_CONCURRENCY, entries.length - 1) }, worker));
  signal.throwIfAborted();
  if (changed !== undefined) return { same: false, reason: changed };
  return { same: true, entries: checked };
}

/**
 * Page reuse, before a crawl page is scanned: when the page's last audit (of another crawl, under
 * the same audit key, no older than REUSE_MAX_AGE) loaded nothing but GETs the site still answers
 * with the same bytes, that audit is carried into this crawl's scan row (findings with their
 * identities, pictures, texts, summary) and its rendered links go to discovery again, without
 * opening a tab. Otherwise nothing is written and the page is scanned as ever.
 */
export async function reuseUnchangedPage(deps: ReuseDeps, input: { crawlId: string; pageId: string }): Promise<ReuseOutcome> {
  const ctx = Context.current();
  const maxAge = deps.reuseMaxAgeMs ?? DEFAULT_REUSE_MAX_AGE_MS;
  if (maxAge <= 0) return { reused: false, reason: 'REUSE_MAX_AGE is 0' };
  const state = await crawlPageState(deps.db, input.crawlId, input.pageId);
  // Not claimed for scanning (or done by an earlier attempt that did not report back: the scan activity answers for it).
  if (state !== 'dispatched' && state !== 'pending') return { reused: false, reason: `the page is ${state ?? 'not part of the crawl'}` };
  const crawl = await findCrawl(deps.db, input.crawlId);
  if (!crawl) return { reused: false, reason: 'no crawl' };
  if (!crawl.reuse) return { reused: false, reason: 'the crawl asked for {"reuse": false}' };
  const page = await getPageUrl(deps.db, input.pageId);
  if (flowNameOf(page.url) !== undefined) return { reused: false, reason: 'a flow is run afresh' };
  // Pages behind a login are loaded with its session, which a plain GET does not carry.
  if (await siteAuthVersion(deps.db, input.crawlId)) return { reused: false, reason: 'the site has an authentication set-up' };
  const key = crawlAuditKey(deps, crawl.viewports ?? DEFAULT_VIEWPORTS, null);
  const source = await findReusableScan(deps.db, { crawlId: input.crawlId, pageId: input.pageId, auditKey: key, auditedAfter: new Date(Date.now() - maxAge) });
  if (!source) return { reused: false, reason: 'no earlier audit of this page under the same engines and settings within REUSE_MAX_AGE' };
  ctx.heartbeat({ stage: 'Revalidating', resources: source.entries.length });
  let waitedMs = 0;
  const verdict = await revalidateAll(deps, source.entries, ctx.cancellationSignal, (ms) => void (waitedMs += ms));
  if (waitedMs > 0) await addCrawlThrottledMs(deps.db, input.crawlId, waitedMs);
  if (!verdict.same) return { reused: false, reason: verdict.reason };
  const row = await ensureCrawlPageScan(deps.db, { crawlId: input.crawlId, pageId: page.id, url: page.url });
  // Rendered discovery as after a scan: the links go to discovery with the page's move to scanned.
  const rendered = source.rendered
    ? await renderedHandOver(deps, {
        crawlId: input.crawlId,
        pageId: page.id,
        url: page.url,
        result: { kind: 'scanned', pageTitle: null, finalUrl: page.url, httpStatus: null, findings: [], passes: [], blocked: [], engines: [], statesChecked: [], links: source.rendered.links, view: source.rendered.view },
      })
    : {};
  // Taken out of the crawl as no page of its own: the scan activity records that, as ever.
  if ('notAPage' in rendered) return { reused: false, reason: rendered.notAPage.message, ended: true };
  const resources: ResourceManifest = { usable: true, entries: verdict.entries };
  const carried = await carryOverScan(deps.db, { crawlId: input.crawlId, pageId: page.id, scanId: row.id, source, resources, auditKey: key, ...(rendered.handOver ? { links: rendered.handOver.links } : {}) });
  deps.logger.info({ crawlId: input.crawlId, pageId: page.id, scanId: row.id, from: source.auditScanId, resources: source.entries.length, findings: carried.findings }, 'page unchanged; its last audit reused');
  return { reused: true, from: source.auditScanId, resources: source.entries.length, findings: carried.findings };
}
