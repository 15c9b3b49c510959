/**
 * One run of the CLI: start the scan or crawl, follow it to its end, gather its issues, decide the
 * gates, write the reports, print the summary. Every effect comes in through RunDeps, so a test
 * drives a whole run with a fake API.
 */
import { ApiClient, ApiRequestError, ApiUnreachableError, ProtocolError, asCrawl, asScan } from './api-client.ts';
import type { RunOptions } from './args.ts';
import { watchUntilEnded, type Sleep } from './events.ts';
import { countsTowardGates, decideGate, type GateDecision } from './gate.ts';
import { buildJunit } from './junit.ts';
import { changedLines, crawlProgressLine, failingLines, scanProgressLine, shortId, summaryLines } from './output.ts';
import { buildSarif } from './sarif.ts';
import { hasResults, isEnded, toAuditIssue, type AuditIssue, type Crawl } from './types.ts';

export const EXIT = { passed: 0, gateFailed: 1, usage: 2, notFinished: 3 } as const;

export interface RunDeps {
  fetch: typeof fetch;
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  /** Writes a report file, creating its folder. */
  writeFile: (path: string, text: string) => Promise<void>;
  now: () => Date;
  version: string;
  sleep?: Sleep;
  pollIntervalMs?: number;
}

export class RunTimeoutError extends Error {
  override name = 'RunTimeoutError';
}

interface Outcome {
  kind: 'scan' | 'crawl';
  id: string;
  status: string;
  headline: string;
  /** Why the run has no results (failed, cancelled); undefined when it has some. */
  failure?: string;
  issues: AuditIssue[];
  /** Every page the run covered, for the JUnit report. */
  pages: string[];
  hasBaseline: boolean;
  warnings: string[];
  /** The raw result for --json, without the gate decision. */
  raw: Record<string, unknown>;
}

interface Context {
  o: RunOptions;
  deps: RunDeps;
  client: ApiClient;
  signal: AbortSignal;
  progress: (line: string) => void;
  notice: (message: string) => void;
  /** The run under way, so that a timeout can say which one is left running. */
  started: (kind: 'scan' | 'crawl', id: string) => void;
}

export async function runAudit(o: RunOptions, deps: RunDeps): Promise<number> {
  const controller = new AbortController();
  const timeoutMs = o.timeoutSeconds * 1000;
  const timer = setTimeout(() => controller.abort(new RunTimeoutError(`timed out after ${o.timeoutSeconds} s (--timeout)`)), timeoutMs);
  const notice = (message: string) => deps.stderr(`a11y-audit: ${message}`);
  let underWay: { kind: 'scan' | 'crawl'; id: string } | undefined;
  const ctx: Context = {
    o,
    deps,
    signal: controller.signal,
    client: new ApiClient({
      baseUrl: o.api,
      key: o.key,
      signal: controller.signal,
      userAgent: `a11y-audit-cli/${deps.version}`,
      fetch: deps.fetch,
      sleep: deps.sleep,
      deadline: Date.now() + timeoutMs,
      notice,
    }),
    progress: o.quiet ? () => {} : changedLines(deps.stderr),
    notice,
    started: (kind, id) => {
      underWay = { kind, id };
    },
  };
  try {
    const outcome = o.command === 'scan' ? await scanOutcome(ctx) : await crawlOutcome(ctx);
    if (outcome.failure !== undefined) {
      deps.stdout(outcome.headline);
      notice(outcome.failure);
      return EXIT.notFinished;
    }
    return await finish(ctx, outcome);
  } catch (err) {
    if (controller.signal.aborted) {
      const left = underWay ? `; ${underWay.kind} ${underWay.id} may still be running on the server` : '';
      notice(`${(controller.signal.reason as Error).message}${left}`);
    } else {
      notice(describeError(err, o));
    }
    return EXIT.notFinished;
  } finally {
    clearTimeout(timer);
  }
}

export function describeError(err: unknown, o: Pick<RunOptions, 'api' | 'key'>): string {
  if (err instanceof ApiRequestError) {
    const hint = err.status === 401 ? (o.key ? ' (check --key or A11Y_AUDIT_KEY)' : ' (give an API key with --key or A11Y_AUDIT_KEY)') : '';
    return `the API answered with an error: ${err.message}${hint}`;
  }
  if (err instanceof ApiUnreachableError) return err.message;
  if (err instanceof ProtocolError) return `unexpected answer from the API at ${o.api}: ${err.message}`;
  if (err instanceof SyntaxError) return `unexpected answer from the API at ${o.api}: ${err.message}`;
  return `unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
}

const parseJson = (data: string): unknown => JSON.parse(data);

/** Follows a scan or crawl to its end by its events (polling when they fail), printing progress. */
function follow<T extends { status: string }>(
  ctx: Context,
  run: { eventsUrl: string; parse: (value: unknown) => T; progressLine: (value: T) => string; poll: () => Promise<T> },
): Promise<T> {
  const { client, deps } = ctx;
  return watchUntilEnded<T>({
    eventsUrl: run.eventsUrl,
    headers: client.headers(),
    fetch: deps.fetch,
    signal: ctx.signal,
    sleep: deps.sleep,
    pollIntervalMs: deps.pollIntervalMs,
    parse: (data) => run.parse(parseJson(data)),
    isEnded: (v) => isEnded(v.status),
    onUpdate: (v) => ctx.progress(run.progressLine(v)),
    poll: run.poll,
    notice: ctx.progress,
  });
}

async function scanOutcome(ctx: Context): Promise<Outcome> {
  const { client, o } = ctx;
  const created = await client.createScan(o.url);
  ctx.started('scan', created.id);
  ctx.progress(`scan ${created.id} started for ${created.url}`);
  let scan = await follow(ctx, {
    eventsUrl: client.scanEventsUrl(created.id),
    parse: asScan,
    progressLine: scanProgressLine,
    poll: () => client.getScan(created.id),
  });
  // The events carry the scan as GET shows it; should one come without its issues, GET has them.
  if (hasResults(scan.status) && !Array.isArray(scan.issues)) scan = await client.getScan(created.id);
  const headline = `scan ${shortId(scan.id)} of ${scan.url}: ${scan.status}${typeof scan.overallScore === 'number' ? `, score ${scan.overallScore}` : ''}`;
  const base = { kind: 'scan' as const, id: scan.id, status: scan.status, headline, pages: [scan.url], hasBaseline: false };
  if (!hasResults(scan.status)) {
    const why = scan.error ? `: ${scan.error.message} (${scan.error.code})` : '';
    return { ...base, failure: `scan ${scan.id} ended ${scan.status}${why}`, issues: [], warnings: [], raw: {} };
  }
  if (!Array.isArray(scan.issues)) throw new ProtocolError(`scan ${scan.id} is ${scan.status} but has no issues array`);
  const warnings: string[] = [];
  if (scan.status === 'completed_partial') warnings.push(`scan ${scan.id} completed only in part (completed_partial): some checks did not finish`);
  const leftOut = scan.issuesLeftOut as { total?: unknown } | null | undefined;
  if (leftOut && typeof leftOut.total === 'number' && leftOut.total > 0) warnings.push(`${leftOut.total} more issues of this page were left out by the server's per-page cap`);
  const { issues, ...scanOnly } = scan;
  return {
    ...base,
    issues: issues.map((i) => toAuditIssue(i, scan.url, true)),
    warnings,
    raw: { kind: 'scan', scan: scanOnly, issues },
  };
}

async function crawlOutcome(ctx: Context): Promise<Outcome> {
  const { client, o } = ctx;
  const site = await client.createSite(o.url);
  const started = await client.startCrawl(site.id, o.maxPages);
  const crawlId = started.crawlId;
  ctx.started('crawl', crawlId);
  if (started.alreadyRunning) {
    ctx.notice(`${site.hostname} already has crawl ${crawlId} under way: following it instead of starting another${o.maxPages !== undefined ? ' (its own page cap applies, not --max-pages)' : ''}`);
  } else {
    ctx.progress(`crawl ${crawlId} started for ${site.baseUrl}`);
  }
  const crawl = await follow(ctx, {
    eventsUrl: client.crawlEventsUrl(site.id, crawlId),
    parse: asCrawl,
    progressLine: crawlProgressLine,
    poll: () => client.getCrawl(site.id, crawlId),
  });
  const score = typeof crawl.overallScore === 'number' ? `, score ${crawl.overallScore}` : '';
  const failed = crawl.failedPages > 0 ? `, ${crawl.failedPages} failed` : '';
  const fixed = typeof crawl.fixedIssues === 'number' && crawl.fixedIssues > 0 ? `, ${crawl.fixedIssues} issues fixed` : '';
  const headline = `crawl ${shortId(crawl.id)} of ${site.baseUrl}: ${crawl.status}, ${crawl.scannedPages} of ${crawl.totalPages} pages scanned${failed}${score}${fixed}`;
  const base = { kind: 'crawl' as const, id: crawl.id, status: crawl.status, headline, hasBaseline: true };
  if (!hasResults(crawl.status)) {
    const why = crawl.error ? `: ${crawl.error.message} (${crawl.error.code})` : '';
    return { ...base, failure: `crawl ${crawl.id} ended ${crawl.status}${why}`, issues: [], pages: [], warnings: [], raw: {} };
  }

  const [open, fresh] = await Promise.all([client.listIssues(site.id, { status: 'open' }), client.listIssues(site.id, { newInCrawl: crawl.id })]);
  const newIds = new Set(fresh.map((i) => i.id));
  // A server without the newInCrawl filter would list every issue of the site as new.
  if (typeof crawl.newIssues === 'number' && fresh.length > crawl.newIssues) {
    ctx.notice(`the server listed ${fresh.length} issues as new in this crawl but the crawl counts ${crawl.newIssues}; it may not support the newInCrawl filter, so issues may be counted as new that are not`);
  }
  const issues = open.map((i) => toAuditIssue(i, typeof i.pageUrl === 'string' ? i.pageUrl : site.baseUrl, newIds.has(i.id)));

  const warnings: string[] = [];
  if (crawl.status === 'completed_partial') {
    const why = crawl.error ? `: ${crawl.error.message} (${crawl.error.code})` : '';
    warnings.push(`crawl ${crawl.id} completed only in part (completed_partial)${why}${crawl.failedPages > 0 ? `; ${crawl.failedPages} pages could not be scanned` : ''}`);
  }
  return {
    ...base,
    issues,
    pages: o.junit ? await crawledPages(ctx, site.id, crawl) : [],
    warnings,
    raw: { kind: 'crawl', site, crawl, issues: open, newIssueIds: open.filter((i) => newIds.has(i.id)).map((i) => i.id) },
  };
}

/**
 * The pages this crawl scanned, so that the JUnit report lists the clean ones too: the site's
 * pages last scanned since the crawl began. Best effort: the issues name their pages anyway.
 */
async function crawledPages(ctx: Context, siteId: string, crawl: Crawl): Promise<string[]> {
  try {
    const since = Date.parse(crawl.createdAt);
    const pages = await ctx.client.listPages(siteId);
    return pages.filter((p) => p.lastScannedAt !== null && !(Date.parse(p.lastScannedAt) < since)).map((p) => p.url);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    ctx.notice(`could not list the site's pages for the JUnit report (${err instanceof Error ? err.message : String(err)}); it lists the pages with issues only`);
    return [];
  }
}

async function finish(ctx: Context, outcome: Outcome): Promise<number> {
  const { o, deps } = ctx;
  const gate = decideGate(outcome.issues, o);
  for (const w of outcome.warnings) ctx.notice(w);

  const outputs: Array<{ kind: string; path: string; text: () => string }> = [];
  if (o.sarif) {
    const sarif = buildSarif({
      issues: outcome.issues,
      hasBaseline: outcome.hasBaseline,
      toolVersion: deps.version,
      informationUri: `${o.api}/docs`,
      endTime: deps.now(),
      executionSuccessful: true,
      warnings: outcome.warnings,
    });
    outputs.push({ kind: 'SARIF', path: o.sarif, text: () => `${JSON.stringify(sarif, null, 2)}\n` });
  }
  if (o.junit) {
    const failing = outcome.issues.filter((i) => countsTowardGates(i, o));
    outputs.push({ kind: 'JUnit', path: o.junit, text: () => buildJunit({ pages: outcome.pages, failing }) });
  }
  if (o.json) outputs.push({ kind: 'JSON', path: o.json, text: () => `${JSON.stringify(jsonResult(outcome, gate, deps.version), null, 2)}\n` });

  const written: Array<{ kind: string; path: string }> = [];
  const writeErrors: string[] = [];
  for (const out of outputs) {
    try {
      await deps.writeFile(out.path, out.text());
      written.push(out);
    } catch (err) {
      writeErrors.push(`could not write the ${out.kind} report to ${out.path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  for (const line of summaryLines({ headline: outcome.headline, issues: outcome.issues, hasBaseline: outcome.hasBaseline, includeNeedsReview: o.includeNeedsReview, gate, reports: written })) {
    deps.stdout(line);
  }
  if (!gate.passed) for (const line of failingLines(outcome.issues.filter((i) => countsTowardGates(i, o)))) deps.stdout(line);
  for (const e of writeErrors) ctx.notice(e);
  // A report the build expects but did not get is a run that did not finish.
  if (writeErrors.length > 0) return EXIT.notFinished;
  return gate.passed ? EXIT.passed : EXIT.gateFailed;
}

function jsonResult(outcome: Outcome, gate: GateDecision, version: string) {
  return { tool: { name: 'a11y-audit', version }, ...outcome.raw, gate: { passed: gate.passed, counted: gate.counted, newOnly: gate.newOnly, failures: gate.failures, verdict: gate.verdict } };
}
