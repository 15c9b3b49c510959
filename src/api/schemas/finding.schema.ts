/**
 * The fields a finding has wherever the API gives one: a scan's issue (ScanIssue) and a site's
 * issue (Issue) declare them from here, each adding its own around them.
 */
import { z } from '@hono/zod-openapi';
import { ISSUE_TYPES, SEVERITIES, WCAG_LEVELS } from '../../shared/contracts.ts';

export const ISSUE_STATUSES = ['open', 'fixed', 'dismissed', 'cant_fix'] as const;

export const IssueTypeSchema = z.enum(ISSUE_TYPES);
export const SeveritySchema = z.enum(SEVERITIES);

/** What the check measured or saw, for the issue's reader (never instructions to anyone). */
export const EvidenceSchema = z.record(z.string(), z.unknown()).openapi({
  description:
    'What the check measured or saw, by rule: e.g. `contrast` (colours, the measured background luminance range and ratio, the required ratio), ' +
    '`target` (size and spacing in CSS px), `viewport`, `engine` (which engine found it), `pagesWithTitle`/`otherPages` for titles shared across a crawl, `linkedFrom`/`pagesInCrawl` for a page reached one way only (2.4.5), ' +
    '`review` (why a person must decide). Keys vary by rule; `alsoFlaggedBy` is given separately.',
});

export const InteractionStateSchema = z
  .object({
    action: z.enum(['click']).openapi({ description: 'What the scan did to reveal the element.' }),
    target: z.string().openapi({ description: 'A CSS selector of the element it acted on.', example: '#menu-button' }),
    label: z.string().openapi({ description: 'That element\u2019s accessible name or text.', example: 'Menu' }),
  })
  .nullable()
  .openapi('InteractionState', {
    description: 'The interaction state that revealed the issue (a menu, a `<details>`, a tab, a dialog opened); null in the page\u2019s default state. Part of the issue\u2019s identity.',
  });

export const ViewportSchema = z
  .union([z.enum(['desktop', 'mobile']), z.number().int()])
  .nullable()
  .openapi('IssueViewport', {
    description: 'The viewport the issue was found at, on crawls that check several (`desktop`, `mobile` or a width in CSS px); null otherwise. Part of the issue\u2019s identity.',
  });

export const WcagCriteriaSchema = z.array(z.string()).openapi('WcagCriteria', {
  description:
    'Every WCAG 2.2 A/AA criterion the issue fails, the primary (`wcagCriterion`) first, each once: the rule\u2019s criterion, then those the W3C\u2019s ' +
    'failure techniques and Understanding documents tie to the same failure (an unlabelled field: 4.1.2, 1.3.1, 3.3.2; a link without a name: ' +
    '2.4.4, 4.1.2). docs/checks.md says how they are chosen. The issue lists\u2019 `wcagCriterion` and `wcagLevel` filters match any of them.',
  example: ['4.1.2', '1.3.1', '3.3.2'],
});

/** The criterion an issue is reported under; the two issue shapes give different examples. */
export const wcagCriterionField = (example: string) =>
  z.string().openapi({ description: 'The criterion the issue is reported under (the primary): `wcagCriteria[0]`.', example });

/**
 * A finding's own fields, in the order both issue shapes give them: what was found and where,
 * then (after the shape's own fields, if any) its status and what the engines saw
 * (`findingStatusFields`). A shape may refine a field (a description, an example) by naming it
 * again after the spread: it keeps its place.
 */
export const findingFields = {
  type: IssueTypeSchema,
  severity: SeveritySchema,
  wcagCriterion: wcagCriterionField('4.1.2'),
  wcagLevel: z.enum(WCAG_LEVELS).openapi({ description: 'The lowest level among `wcagCriteria`: `A` when any of them is an A criterion.' }),
  wcagCriteria: WcagCriteriaSchema,
  elementSelector: z.string(),
  elementHtml: z.string(),
  description: z.string(),
  fixSuggestion: z.string(),
  axeRuleId: z.string(),
};

/** The rest of a finding's fields, after `findingFields`: its status, its help page and what the engines saw. */
export const findingStatusFields = {
  status: z.enum(ISSUE_STATUSES),
  helpUrl: z.string().nullable(),
  alsoFlaggedBy: z.array(z.string()).openapi({ description: 'Other rules that found the same element failing the same criterion.' }),
  evidence: EvidenceSchema,
  state: InteractionStateSchema,
  viewport: ViewportSchema,
};
