import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type ScheduleDescription, type ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import { Cron } from 'croner';
import { DEFAULT_DISCOVERY_OPTIONS, type CrawlWorkflowInput, type ScheduledBy } from '../shared/contracts.ts';
import { SITE_ID } from '../shared/search-attributes.ts';
import type { AppDeps } from './env.ts';
import { ApiError } from './errors.ts';

/** A site's re-crawl schedule as the API takes it (exactly one of `cron` and `every`). */
export interface ScheduleSettings {
  cron?: string;
  every?: string;
  timezone?: string;
  maxPages: number;
  paused: boolean;
}

/** Re-crawls closer together than this are refused: a crawl is expensive, for the site too. */
export const MIN_SCHEDULE_INTERVAL_MS = 5 * 60_000;

/** One Temporal Schedule per site; operators find it under this id in the Web UI. */
export const scheduleId = (siteId: string) => `crawl-schedule-${siteId}`;
/** Temporal appends the scheduled time to it for each run. */
const scheduledWorkflowId = (siteId: string) => `crawl-scheduled-${siteId}`;

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `every` as milliseconds: a whole number of minutes, hours, days or weeks (`30m`, `6h`, `1d`, `2w`). */
export function parseEvery(every: string): number | undefined {
  const m = /^(\d{1,6})\s*([mhdw])$/.exec(every.trim());
  return m ? Number(m[1]) * UNITS[m[2]!]! : undefined;
}

/**
 * Why a cron expression or interval cannot be a schedule (undefined: it can): syntax, time zone,
 * and runs closer than MIN_SCHEDULE_INTERVAL_MS over the next few occurrences.
 */
export function scheduleProblem(s: Pick<ScheduleSettings, 'cron' | 'every' | 'timezone'>): { path: string; message: string } | undefined {
  if (s.timezone !== undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: s.timezone });
    } catch {
      return { path: 'timezone', message: `${s.timezone} is not an IANA time zone (e.g. Europe/London)` };
    }
  }
  const floor = `at least ${MIN_SCHEDULE_INTERVAL_MS / 60_000} minutes apart`;
  if (s.every !== undefined) {
    const ms = parseEvery(s.every);
    if (ms === undefined) return { path: 'every', message: 'a whole number with a unit m, h, d or w, e.g. 6h or 1d' };
    if (ms < MIN_SCHEDULE_INTERVAL_MS) return { path: 'every', message: `crawls must be ${floor}` };
    return undefined;
  }
  if (s.cron !== undefined) {
    let cron: Cron;
    try {
      // Five fields (minute hour day-of-month month day-of-week) or a macro such as @daily, as Temporal reads them.
      if (!/^@\w+$/.test(s.cron.trim()) && s.cron.trim().split(/\s+/).length !== 5) throw new Error('five fields');
      cron = new Cron(s.cron, { paused: true, timezone: s.timezone, mode: '5-part' });
    } catch {
      return { path: 'cron', message: 'a cron expression of five fields (minute hour day-of-month month day-of-week), e.g. "0 3 * * 1", or a macro such as @daily' };
    }
    const runs = cron.nextRuns(6);
    if (runs.length === 0) return { path: 'cron', message: 'the expression never fires' };
    for (let i = 1; i < runs.length; i++) {
      if (runs[i]!.getTime() - runs[i - 1]!.getTime() < MIN_SCHEDULE_INTERVAL_MS) return { path: 'cron', message: `crawls must be ${floor}` };
    }
    return undefined;
  }
  return { path: 'cron', message: 'give either cron or every' };
}

function action(deps: AppDeps, siteId: string, s: ScheduleSettings): ScheduleOptionsStartWorkflowAction<never> {
  const scheduledBy: ScheduledBy = { ...(s.cron ? { cron: s.cron } : { every: s.every! }), ...(s.timezone ? { timezone: s.timezone } : {}) };
  // No crawlId: each run makes its own and tags its workflow with it (see CrawlWorkflow).
  const input: CrawlWorkflowInput = {
    siteId,
    maxPages: s.maxPages,
    queues: deps.queues,
    discovery: { ...DEFAULT_DISCOVERY_OPTIONS, ...deps.discoveryOptions },
    enrichment: deps.enrichmentRetry,
    scheduledBy,
  };
  return {
    type: 'startWorkflow',
    workflowType: 'CrawlWorkflow',
    workflowId: scheduledWorkflowId(siteId),
    taskQueue: deps.queues.workflows,
    args: [input] as never,
    typedSearchAttributes: [{ key: SITE_ID, value: siteId }],
  };
}

function spec(s: ScheduleSettings) {
  return {
    ...(s.cron ? { cronExpressions: [s.cron] } : { intervals: [{ every: parseEvery(s.every!)! }] }),
    ...(s.timezone ? { timezone: s.timezone } : {}),
  };
}

/** gRPC INVALID_ARGUMENT: Temporal refused the spec (a cron it reads differently). */
function refusedSpec(err: unknown): boolean {
  for (let e: any = err, depth = 0; e && depth < 5; e = e.cause, depth++) if (e.code === 3) return true;
  return false;
}

/**
 * Creates the site's Schedule, or replaces its spec, run settings and paused state. Overlap policy
 * "skip": a run that comes due while the previous one still runs is not started (the site's
 * one-active-crawl rule would refuse it anyway). Answers whether it was created.
 */
export async function putSchedule(deps: AppDeps, siteId: string, hostname: string, s: ScheduleSettings): Promise<boolean> {
  const handle = deps.temporal.schedule.getHandle(scheduleId(siteId));
  const note = s.paused ? 'paused through the API' : undefined;
  try {
    try {
      await deps.temporal.schedule.create({
        scheduleId: scheduleId(siteId),
        spec: spec(s),
        action: action(deps, siteId, s),
        policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '10 minutes', pauseOnFailure: false },
        state: { paused: s.paused, ...(note ? { note } : {}) },
        memo: { siteId, hostname },
        typedSearchAttributes: [{ key: SITE_ID, value: siteId }],
      });
      return true;
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
    await handle.update((prev) => ({
      ...prev,
      spec: spec(s),
      action: action(deps, siteId, s),
      state: { paused: s.paused, ...(note ? { note } : {}) },
    }));
    return false;
  } catch (err) {
    if (refusedSpec(err)) throw new ApiError('validation_error', 'the workflow service refused the schedule', { errors: [{ path: s.cron ? 'cron' : 'every', message: (err as Error).message }] });
    throw err;
  }
}

/** The Schedule as Temporal holds it, or undefined when the site has none. */
export async function describeSchedule(deps: AppDeps, siteId: string): Promise<ScheduleDescription | undefined> {
  try {
    return await deps.temporal.schedule.getHandle(scheduleId(siteId)).describe();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return undefined;
    throw err;
  }
}

/** Deletes the site's Schedule; false when it had none. Crawls it already started go on. */
export async function deleteSchedule(deps: AppDeps, siteId: string): Promise<boolean> {
  try {
    await deps.temporal.schedule.getHandle(scheduleId(siteId)).delete();
    return true;
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return false;
    throw err;
  }
}
