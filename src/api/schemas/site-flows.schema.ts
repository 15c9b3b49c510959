import { z } from '@hono/zod-openapi';
import { duplicateFlowNames, MAX_FLOW_NAME, MAX_FLOW_STEPS, MAX_FLOWS } from '../../shared/site-flows.ts';
import { LoginStepSchema, StepSummarySchema } from './site-auth.schema.ts';

const FlowName = z
  .string()
  .min(1)
  .max(MAX_FLOW_NAME)
  .regex(/\S/, 'a flow name is not blank')
  .refine((n) => !/\p{Cc}/u.test(n), 'a flow name holds no control characters')
  .openapi({ description: "The flow's name, unique within the site (case-insensitively); its page is named by it.", example: 'contact form sent empty' });

const Flow = z
  .object({
    name: FlowName,
    steps: z
      .array(LoginStepSchema)
      .min(1)
      .max(MAX_FLOW_STEPS)
      .openapi({ description: "The steps, as in the login set-up. The flow starts at its first step's URL when that is a `goto`, else at the site's base URL." }),
    stepTimeoutMs: z.number().int().min(500).max(60_000).optional().openapi({ description: 'How long a step may wait for its element or URL (default 10000).' }),
  })
  .strict();

export const PutSiteFlowsBody = z
  .object({ flows: z.array(Flow).min(1).max(MAX_FLOWS) })
  .strict()
  .superRefine((b, ctx) => {
    for (const d of duplicateFlowNames(b)) {
      ctx.addIssue({ code: 'custom', message: `the name "${d.name}" is given to another flow too`, path: d.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) });
    }
  })
  .openapi('PutSiteFlowsRequest');

export type PutSiteFlowsBody = z.infer<typeof PutSiteFlowsBody>;

export const SiteFlowsSchema = z
  .object({
    siteId: z.uuid(),
    flows: z.array(
      z.object({
        name: z.string(),
        pageUrl: z.string().openapi({ description: "The URL of the page that stands for the flow's end state in crawls (`#flow:` and the name)." }),
        steps: z.array(StepSummarySchema),
        stepTimeoutMs: z.number().int(),
      }),
    ),
    keyId: z.string().openapi({ description: 'Which SECRETS_KEY sealed the flows (a hash of it, never the key).' }),
    updatedAt: z.string(),
  })
  .openapi('SiteFlows');
