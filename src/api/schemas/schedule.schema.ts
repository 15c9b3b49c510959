import { z } from '@hono/zod-openapi';
import { CRAWL_STATUSES, ViewportsInput } from './site.schema.ts';
import { MIN_SCHEDULE_INTERVAL_MS } from '../schedules.ts';

const minutes = MIN_SCHEDULE_INTERVAL_MS / 60_000;

export const PutScheduleBody = (maxPages: number) =>
  z
    .object({
      cron: z
        .string()
        .min(1)
        .max(120)
        .optional()
        .openapi({ example: '0 3 * * 1', description: `A cron expression of five fields (minute hour day-of-month month day-of-week) or a macro such as @daily. Any two of its runs must be at least ${minutes} minutes apart: checked over every run it will make, not just the next few, and around the UTC-offset changes (DST) of \`timezone\`.` }),
      every: z
        .string()
        .min(2)
        .max(20)
        .optional()
        .openapi({ example: '1d', description: `An interval: a whole number with a unit m, h, d or w (\`6h\`, \`1d\`), at least ${minutes} minutes.` }),
      timezone: z.string().min(1).max(64).optional().openapi({ example: 'Europe/London', description: 'IANA time zone the cron expression is read in (default UTC).' }),
      maxPages: z
        .number({ message: 'maxPages must be an integer' })
        .int('maxPages must be an integer')
        .min(1, `maxPages must be between 1 and ${maxPages}`)
        .max(maxPages, `maxPages must be between 1 and ${maxPages}`)
        .optional()
        .openapi({ description: `Page cap of each scheduled crawl; omitted means MAX_CRAWL_PAGES (${maxPages}).` }),
      viewports: ViewportsInput.optional().openapi({ description: 'The viewports of each scheduled crawl, as POST /api/sites/{id}/crawl takes them; omitted means `["desktop"]`.' }),
      paused: z.boolean().optional().openapi({ description: 'Create or keep the schedule paused (default false).' }),
    })
    .strict()
    .refine((b) => (b.cron === undefined) !== (b.every === undefined), { message: 'give exactly one of cron and every', path: ['cron'] })
    .openapi('PutScheduleRequest');

export const ScheduleSchema = z
  .object({
    siteId: z.uuid(),
    scheduleId: z.string().openapi({ description: 'The Temporal Schedule id, as the Temporal Web UI lists it (pause, trigger and its runs are there too).' }),
    cron: z.string().nullable(),
    every: z.string().nullable(),
    timezone: z.string().nullable(),
    maxPages: z.number().int(),
    viewports: z.array(z.union([z.enum(['desktop', 'mobile']), z.number().int()])).openapi({ description: 'The viewports of each scheduled crawl.' }),
    paused: z.boolean().openapi({ description: 'Paused here or in the Temporal Web UI.' }),
    note: z.string().nullable().openapi({ description: "Temporal's note on the schedule's state (e.g. who paused it)." }),
    overlap: z.literal('skip').openapi({ description: 'A run that comes due while a crawl of the site still runs is skipped.' }),
    nextRunAt: z.string().nullable(),
    nextRuns: z.array(z.string()).openapi({ description: 'The next few run times (ISO 8601 UTC), none while paused.' }),
    recentRuns: z
      .array(z.object({ scheduledAt: z.string(), startedAt: z.string(), workflowId: z.string(), crawlId: z.uuid().nullable() }))
      .openapi({ description: 'Runs started lately (by time or by a trigger in the Web UI), oldest first; `crawlId` once the run has opened its crawl.' }),
    runsTaken: z.number().int(),
    runsSkipped: z.number().int().openapi({ description: 'Runs skipped because a crawl was still running.' }),
    createdAt: z.string(),
    updatedAt: z.string().nullable(),
  })
  .openapi('Schedule');

export const TrendPointSchema = z
  .object({
    crawlId: z.uuid(),
    status: z.enum(CRAWL_STATUSES),
    completedAt: z.string(),
    overallScore: z.number().int().nullable(),
    scannedPages: z.number().int(),
    issueCounts: z
      .object({ critical: z.number().int(), serious: z.number().int(), moderate: z.number().int(), minor: z.number().int(), total: z.number().int() })
      .openapi({ description: 'The issues the crawl found, by severity (every status, one per element and rule).' }),
    newIssues: z.number().int().nullable(),
    fixedIssues: z.number().int().nullable(),
  })
  .openapi('TrendPoint');
