import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type ScheduleDescription, type ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import { Cron } from 'croner';
import type { ScheduledBy, ViewportName } from '../shared/contracts.ts';
import { WORKFLOW_TYPES, type CrawlWorkflowType } from '../shared/workflow-types.ts';
import { SITE_ID } from '../shared/search-attributes.ts';
import type { AppDeps } from './env.ts';
import { ApiError } from './errors.ts';
import { crawlWorkflowInput } from './temporal.ts';

/** A site's re-crawl schedule as the API takes it (exactly one of `cron` and `every`). */
export interface ScheduleSettings {
  cron?: string;
  every?: string;
  timezone?: string;
  maxPages: number;
  /** The viewports of each scheduled crawl; absent: desktop only. */
  viewports?: readonly ViewportName[];
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

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * The first two consecutive runs of `cron` closer than `floor`, looking at runs from `from` while
 * they start before `until` (the run after the last one counts: a day's last run and the next
 * day's first are a pair).
 */
function runsTooClose(cron: Cron, from: number, until: number, floor: number): [Date, Date] | undefined {
  let prev = cron.nextRun(new Date(from - 1000));
  while (prev && prev.getTime() < until) {
    const next = cron.nextRun(prev);
    if (!next) return undefined;
    if (next.getTime() - prev.getTime() < floor) return [prev, next];
    prev = next;
  }
  return undefined;
}

/** Instants in [from, from + days) at which the zone's UTC offset changes (DST), to the minute. */
function offsetChanges(timezone: string, from: number, days: number): number[] {
  const format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' });
  const offset = (t: number) => format.formatToParts(t).find((p) => p.type === 'timeZoneName')?.value;
  const changes: number[] = [];
  for (let day = 0; day < days; day++) {
    let a = from + day * DAY_MS;
    let b = a + DAY_MS;
    const before = offset(a);
    if (before === offset(b)) continue;
    while (b - a > MINUTE_MS) {
      const mid = a + Math.floor((b - a) / 2);
      if (offset(mid) === before) a = mid;
      else b = mid;
    }
    changes.push(b);
  }
  return changes;
}

/**
 * The closest two runs of a cron expression, if closer than MIN_SCHEDULE_INTERVAL_MS, over every
 * run it will ever make, not just the next few (`0,10,20,30,40,50-59 * * * *` looks fine for six
 * runs and then fires every minute for ten minutes an hour).
 *
 * Exact rather than sampled: the minute and hour fields give the same times on every day that
 * fires, so the smallest gap is found within one day of those times (`m h * * *` in UTC) and across
 * its midnight, as if consecutive days both fire (they may; days that do not fire only widen the
 * gaps). Local time shifts that times: around each UTC-offset change of the time zone (DST) in the
 * coming 400 days, the runs of `m h * * *` in that zone are checked too, since a skipped or
 * repeated hour brings runs together (`0,59 1,3 * * *` in New York: 01:59 and 03:00 are one minute
 * apart on the spring-forward night). That also covers any week of the real expression's runs.
 */
function cronTooClose(fields: string[], timezone: string, now: number): { at: [Date, Date]; local: boolean } | undefined {
  const daily = `${fields[0]} ${fields[1]} * * *`;
  const utcDay = Date.UTC(2001, 0, 1); // any day: every day of `* * *` in UTC is alike
  const inUtc = runsTooClose(new Cron(daily, { paused: true, timezone: 'UTC', mode: '5-part' }), utcDay, utcDay + DAY_MS, MIN_SCHEDULE_INTERVAL_MS);
  if (inUtc) return { at: inUtc, local: false };
  const local = new Cron(daily, { paused: true, timezone, mode: '5-part' });
  // An offset change moves runs by at most a few hours: two that come within the floor of each other are near it.
  for (const change of offsetChanges(timezone, now, 400)) {
    const pair = runsTooClose(local, change - 3 * 3_600_000, change + 3 * 3_600_000, MIN_SCHEDULE_INTERVAL_MS);
    if (pair) return { at: pair, local: true };
  }
  return undefined;
}

const hhmm = (d: Date) => d.toISOString().slice(11, 16);

/**
 * Why a cron expression or interval cannot be a schedule (undefined: it can): syntax, time zone,
 * and any two runs closer than MIN_SCHEDULE_INTERVAL_MS (see cronTooClose). A cron expression is
 * read in `timezone`, UTC when none is given, as Temporal reads it.
 */
export function scheduleProblem(s: Pick<ScheduleSettings, 'cron' | 'every' | 'timezone'>, now = Date.now()): { path: string; message: string } | undefined {
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
    const timezone = s.timezone ?? 'UTC';
    let cron: Cron;
    try {
      // Five fields (minute hour day-of-month month day-of-week) or a macro such as @daily, as Temporal reads them.
      if (!/^@\w+$/.test(s.cron.trim()) && s.cron.trim().split(/\s+/).length !== 5) throw new Error('five fields');
      cron = new Cron(s.cron.trim(), { paused: true, timezone, mode: '5-part' });
    } catch {
      return { path: 'cron', message: 'a cron expression of five fields (minute hour day-of-month month day-of-week), e.g. "0 3 * * 1", or a macro such as @daily' };
    }
    if (!cron.nextRun(new Date(now))) return { path: 'cron', message: 'the expression never fires' };
    // A macro comes back from croner as its five fields (@hourly: `0 * * * *`).
    const fields = (cron.getPattern() ?? s.cron).trim().split(/\s+/);
    const close = cronTooClose(fields, timezone, now);
    if (close) {
      const [a, b] = close.at;
      const gap = Math.round((b.getTime() - a.getTime()) / MINUTE_MS);
      const where = close.local
        ? `in ${timezone}, ${a.toISOString()} and ${b.toISOString()} are ${gap} minute${gap === 1 ? '' : 's'} apart (a UTC offset change)`
        : `runs at ${hhmm(a)} and ${hhmm(b)} UTC on a day it fires are ${gap} minute${gap === 1 ? '' : 's'} apart`;
      return { path: 'cron', message: `crawls must be ${floor}: ${where}` };
    }
    return undefined;
  }
  return { path: 'cron', message: 'give either cron or every' };
}

function action(deps: AppDeps, siteId: string, s: ScheduleSettings): ScheduleOptionsStartWorkflowAction<CrawlWorkflowType> {
  const scheduledBy: ScheduledBy = { ...(s.cron ? { cron: s.cron } : { every: s.every! }), ...(s.timezone ? { timezone: s.timezone } : {}) };
  // No crawlId: each run makes its own and tags its workflow with it (see CrawlWorkflow).
  const input = crawlWorkflowInput(deps, { siteId, maxPages: s.maxPages, viewports: s.viewports, scheduledBy });
  return {
    type: 'startWorkflow',
    workflowType: WORKFLOW_TYPES.crawl,
    workflowId: scheduledWorkflowId(siteId),
    taskQueue: deps.queues.workflows,
    args: [input],
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
