import { z } from '@hono/zod-openapi';
import { PAGE_ERROR_CODES, SCAN_STAGES, SCAN_STATUSES } from '../../shared/contracts.ts';
import { WEBHOOK_SECRET_PATTERN } from '../../shared/webhooks.ts';
import {
  EvidenceSchema,
  findingFields,
  findingStatusFields,
  InteractionStateSchema,
  IssueTypeSchema,
  SeveritySchema,
  ViewportSchema,
  WcagCriteriaSchema,
  wcagCriterionField,
} from './finding.schema.ts';

export const TargetUrl = z
  .string({ message: 'url is required' })
  .trim()
  .min(1, 'url is required')
  .max(2048, 'url must be at most 2048 characters')
  .superRefine((value, ctx) => {
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'url must be an absolute http(s) URL' });
      return;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: 'url must use http or https' });
    else if (!u.hostname) ctx.addIssue({ code: 'custom', message: 'url must have a host name' });
    else if (u.username || u.password) ctx.addIssue({ code: 'custom', message: 'url must not contain credentials' });
  })
  .transform((value) => {
    const u = new URL(value);
    u.hash = '';
    return u.href;
  })
  .openapi({ example: 'https://example.org/', description: 'An absolute http(s) URL; the fragment is dropped.' });

export const CreateScanBody = z
  .object({
    url: TargetUrl,
    webhookUrl: TargetUrl.optional().openapi({
      description:
        'Told (`scan.completed`) when the scan ends completed, completed_partial or failed, signed as the site webhooks are (see the Webhooks routes). ' +
        'Passes the same target policy as `url`.',
      example: 'https://ci.example.com/hooks/a11y',
    }),
    webhookSecret: z
      .string()
      .regex(WEBHOOK_SECRET_PATTERN, 'a webhook secret is `whsec_` and at least 24 bytes in base64')
      .optional()
      .openapi({ description: 'The secret to sign with; omitted, one is generated and given in the answer.' }),
  })
  .superRefine((b, ctx) => {
    if (b.webhookSecret && !b.webhookUrl) ctx.addIssue({ code: 'custom', message: 'webhookSecret needs a webhookUrl', path: ['webhookSecret'] });
  })
  .openapi('CreateScanRequest');

export { EvidenceSchema, InteractionStateSchema, IssueTypeSchema, SeveritySchema, ViewportSchema, WcagCriteriaSchema };

export const ScanIssueSchema = z
  .object({
    id: z.uuid(),
    ...findingFields,
    // Refined here, in their places among the finding's fields:
    type: findingFields.type.openapi({ description: '`confirmed`: the rule failed; `needs_review`: the engine could not decide.' }),
    wcagCriterion: wcagCriterionField('1.1.1'),
    axeRuleId: findingFields.axeRuleId.openapi({ description: 'Id of the rule that found it: an axe-core rule or one of the service\'s own (`link-text-generic`, `target-size-mobile`).' }),
    ...findingStatusFields,
  })
  .openapi('ScanIssue');

export const ScanSummarySchema = z
  .object({
    overallScore: z.number().int().min(0).max(100),
    summary: z.string(),
    topPriorities: z.array(
      z.object({ title: z.string(), severity: SeveritySchema, wcagCriterion: z.string(), issueCount: z.number().int(), reason: z.string() }),
    ),
    positiveFindings: z.array(z.object({ title: z.string(), detail: z.string(), wcagCriterion: z.string() })),
  })
  .openapi('ScanSummary');

export const ScanErrorSchema = z
  .object({ code: z.enum(PAGE_ERROR_CODES), message: z.string() })
  .openapi('ScanError', { description: 'Why the page could not be scanned (status `failed`).' });

const base = {
  id: z.uuid(),
  url: z.string(),
  status: z.enum(SCAN_STATUSES),
  progress: z.number().int().min(0).max(100),
  currentStage: z
    .enum(SCAN_STAGES.map((s) => s.name) as [string, ...string[]])
    .nullable()
    .openapi({ description: 'Set while running: Loading, AxeChecks, CustomChecks, AiEnrichment, Finalizing.' }),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  pageTitle: z.string().nullable(),
  overallScore: z.number().int().nullable(),
  error: ScanErrorSchema.nullable(),
};

export const ScanListItemSchema = z.object(base).openapi('ScanListItem');

export const IncompleteSchema = z
  .object({
    engines: z.array(z.object({ engine: z.string(), reason: z.enum(['out_of_time', 'failed']) })),
  })
  .nullable()
  .openapi('ScanIncomplete', {
    description:
      "Set on a scanned page where some engines did not finish: `out_of_time` (the scan's deadline came first: stopped, or never started) or `failed` (the engine broke on the page). The issues stand as the engines that finished found them; these engines' rules were not (fully) checked, and their issues on the page are not found fixed by this scan. Null when every engine finished, and until the scan has results.",
  });

export const ScanSchema = z
  .object({
    ...base,
    summary: ScanSummarySchema.nullable().openapi({ description: 'Set once status is completed or completed_partial.' }),
    issues: z.array(ScanIssueSchema).nullable().openapi({ description: 'Set once status is completed or completed_partial.' }),
    issuesLeftOut: z
      .object({ total: z.number().int(), byRule: z.record(z.string(), z.number().int()) })
      .nullable()
      .openapi({
        description:
          'A page keeps at most 2,000 issues (every rule keeps at least one; then confirmed before needs_review, by severity); the rest are counted here per rule. Null when none was left out. The score counts them all.',
      }),
    incomplete: IncompleteSchema,
    document: z
      .object({ mediaType: z.string(), pages: z.number().int(), bytes: z.number().int() })
      .nullable()
      .openapi({
        description:
          'Set when the URL was a document (a PDF) audited from the file rather than a page in the browser: its media type, page count and size. Its issues are located by page number and structure path. Null for a page, and before results.',
      }),
  })
  .openapi('Scan');

export const CreatedScanSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    status: z.literal('queued'),
    progress: z.literal(0),
    createdAt: z.string(),
    webhookSecret: z
      .string()
      .optional()
      .openapi({ description: "With a `webhookUrl` only: the secret its deliveries are signed with, shown this once. Absent otherwise, so the answer stays the specification's `{id, url, status, progress, createdAt}`." }),
  })
  .openapi('CreatedScan');
