import { z } from '@hono/zod-openapi';
import { SEVERITIES, WCAG_LEVELS, ISSUE_TYPES } from '../../shared/contracts.ts';
import { findingFields, findingStatusFields, ISSUE_STATUSES } from './finding.schema.ts';
import { isViewportName, MAX_VIEWPORT_WIDTH, MAX_VIEWPORTS, MIN_VIEWPORT_WIDTH, viewportsProblem } from '../../shared/viewports.ts';
import { IncompleteSchema, TargetUrl } from './scan.schema.ts';

export const CRAWL_STATUSES = ['queued', 'running', 'completed', 'completed_partial', 'cancelled', 'failed'] as const;
export { ISSUE_STATUSES };

export const CreateSiteBody = z.object({ url: TargetUrl }).openapi('CreateSiteRequest');

export const SiteSchema = z
  .object({ id: z.uuid(), hostname: z.string(), name: z.string(), baseUrl: z.string(), createdAt: z.string() })
  .openapi('Site');

export const LatestCrawlSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(CRAWL_STATUSES),
    overallScore: z.number().int().nullable(),
    totalPages: z.number().int(),
    scannedPages: z.number().int(),
    newIssues: z.number().int().nullable(),
    fixedIssues: z.number().int().nullable(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .openapi('LatestCrawl');

export const SiteDetailSchema = SiteSchema.extend({
  latestCrawl: LatestCrawlSchema.nullable(),
  openIssues: z.number().int(),
}).openapi('SiteDetail');

const VIEWPORT_ITEM_MESSAGE = `a viewport is "desktop", "mobile" or a width in CSS px, an integer from ${MIN_VIEWPORT_WIDTH} to ${MAX_VIEWPORT_WIDTH}`;

/** A crawl's viewports, as a crawl start or a schedule takes them (see src/shared/viewports.ts). */
export const ViewportsInput = z
  .array(
    z.union(
      [
        z.enum(['desktop', 'mobile']),
        z.number().int(VIEWPORT_ITEM_MESSAGE).min(MIN_VIEWPORT_WIDTH, VIEWPORT_ITEM_MESSAGE).max(MAX_VIEWPORT_WIDTH, VIEWPORT_ITEM_MESSAGE),
      ],
      { error: VIEWPORT_ITEM_MESSAGE },
    ),
    { error: `viewports must be an array of 1 to ${MAX_VIEWPORTS} viewports` },
  )
  .superRefine((list, ctx) => {
    // Items that are no viewport were reported by the item schema: the list's own rules (how
    // many, none twice) are checked on a list of viewports only.
    if (!Array.isArray(list) || !list.every(isViewportName)) return;
    const problem = viewportsProblem(list);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi('CrawlViewports', {
    minItems: 1,
    maxItems: MAX_VIEWPORTS,
    example: ['desktop', 'mobile'],
    description:
      `The viewports each page is checked at, 1 to ${MAX_VIEWPORTS}, none twice; default \`["desktop"]\`. \`desktop\` is 1280\u00d7800; ` +
      '`mobile` is 390\u00d7844 with touch and device pixel ratio 3; a number is a desktop window that many CSS px wide ' +
      `(${MIN_VIEWPORT_WIDTH}..${MAX_VIEWPORT_WIDTH}; 800 px high, 16:10 beyond 1280). Issues of a crawl with other viewports than desktop alone carry the ` +
      '`viewport` they were found at, part of their identity: the same barrier at two viewports is two issues.',
  });

export const StartCrawlBody = (max: number) =>
  z
    .object({
      maxPages: z
        .number({ message: 'maxPages must be an integer' })
        .int('maxPages must be an integer')
        .min(1, `maxPages must be between 1 and ${max}`)
        .max(max, `maxPages must be between 1 and ${max}`)
        .optional()
        .openapi({ description: `Page cap of this crawl, 1..MAX_CRAWL_PAGES (${max}); omitted means MAX_CRAWL_PAGES.` }),
      viewports: ViewportsInput.optional(),
      reuse: z
        .boolean({ message: 'reuse must be true or false' })
        .optional()
        .openapi({
          description:
            'Default `true`: a page whose last audit (of an earlier crawl, by the same engines and settings: viewports, states, login, judgement, enricher, pictures; ' +
            'no older than REUSE_MAX_AGE, default 30 days) loaded nothing but GETs that the site still answers with the same bytes (revalidated with ETag / ' +
            'Last-Modified where the server gives them, else fetched and hashed) reuses that audit without opening a browser tab: its findings carry over with their ' +
            'identities, so its issues are neither new nor fixed. `false` audits every page afresh.',
        }),
    })
    .openapi('StartCrawlRequest');

export const CrawlSchema = z
  .object({
    id: z.uuid(),
    siteId: z.uuid(),
    status: z.enum(CRAWL_STATUSES),
    totalPages: z.number().int(),
    scannedPages: z.number().int(),
    enrichedPages: z.number().int(),
    failedPages: z.number().int(),
    brokenLinks: z.number().int().openapi({ description: 'Same-site links that answered 4xx: not pages, not counted in totalPages.' }),
    skippedUrls: z
      .number()
      .int()
      .openapi({ description: 'Same-site URLs (links, sitemap entries, redirect targets) longer than 2,048 characters: skipped, not pages, not counted in totalPages.' }),
    throttledMs: z
      .number()
      .int()
      .openapi({
        description:
          "How long the crawl's fetches waited for the site, summed over fetches: robots.txt's Crawl-delay between page fetches, and the pauses the site asked for by answering 429 or 503 (its Retry-After, else a back-off). A page answered 429 or 503 is tried again after the wait, never audited without what was refused, and never counted as a broken link.",
      }),
    reuse: z.boolean().openapi({ description: 'Whether the crawl reuses the audits of unchanged pages (see StartCrawlRequest); false when started with `{"reuse": false}`.' }),
    pagesReused: z
      .number()
      .int()
      .openapi({ description: 'Pages whose last audit was reused because nothing they loaded changed (counted in scannedPages and enrichedPages too; their scans carry `reusedFrom`).' }),
    maxPages: z.number().int(),
    viewports: z
      .array(z.union([z.enum(['desktop', 'mobile']), z.number().int()]))
      .openapi({ description: 'The viewports each page is checked at (see StartCrawlRequest); `["desktop"]` for crawls that did not ask for others.' }),
    overallScore: z.number().int().nullable(),
    newIssues: z.number().int().nullable(),
    fixedIssues: z.number().int().nullable(),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .openapi({
        description:
          'Why the crawl failed or is partial beyond failed pages: `no_pages` or the first page\'s error code (failed); `off_site_redirect` (the home page redirects to another site), ' +
          '`robots_disallowed` (robots.txt shuts every page), `discovery_failed` (discovery stopped after its retries), `fetch_budget_spent` (discovery used its 4 requests per page of maxPages), `crawl_in_progress` (a start that lost a race to another crawl of the site), `not_started` (written, but its workflow never started). Null otherwise.',
      }),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    resultsDeletedAt: z.string().nullable().openapi({
      description:
        "When the retention setting (CRAWLS_KEPT_PER_SITE, default 20 crawls per site) deleted this older crawl's page scans and findings. " +
        'Its score, counts and trend point stay, and the site\'s issues keep their identity and history; its report can no longer be exported (409 not_exportable). Null while they are kept.',
    }),
  })
  .openapi('Crawl');

export const StartedCrawlSchema = z.object({ crawlId: z.uuid(), status: z.literal('queued') }).openapi('StartedCrawl');

const IssueCounts = z
  .object({ critical: z.number().int(), serious: z.number().int(), moderate: z.number().int(), minor: z.number().int(), total: z.number().int() })
  .openapi('IssueCounts');

export const PageSchema = z
  .object({
    id: z.uuid(),
    siteId: z.uuid(),
    url: z.string(),
    path: z.string(),
    title: z.string().nullable(),
    depth: z.number().int(),
    discoveredVia: z.enum(['root', 'link', 'sitemap', 'rendered', 'flow']).openapi({
      description:
        'How the page was found: the home page, a link in the HTML the server sent, a sitemap, a link only the rendered page has (`rendered`), ' +
        'or a scripted flow of the site whose end state is audited as a page (`flow`).',
    }),
    httpStatus: z.number().int().nullable(),
    kind: z.enum(['page', 'document']).openapi({
      description:
        'An HTML page, loaded and audited in the browser, or a document the site links to (a PDF), audited from the file: its issues are located by page number and structure path (`page 3: Document[1]/Figure[2]`, or `pdf:document` for the file as a whole).',
    }),
    mediaType: z.string().nullable().openapi({ description: 'A document\'s media type (`application/pdf`); null for an HTML page.', example: 'application/pdf' }),
    latestScore: z.number().int().nullable(),
    issueCounts: IssueCounts.openapi({ description: 'Open issues of the page by severity.' }),
    lastScannedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('Page');

export const IssueSchema = z
  .object({
    id: z.uuid(),
    siteId: z.uuid(),
    pageId: z.uuid(),
    pageUrl: z.string(),
    ...findingFields,
    groupKey: z.string().nullable().openapi({ description: 'The issue group: the same rule on the same element of the same page template (see /issue-groups)' }),
    ...findingStatusFields,
    firstSeenAt: z.string(),
    lastSeenAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Issue');

export const StatusChangeSchema = z
  .object({
    from: z.enum(ISSUE_STATUSES).nullable(),
    to: z.enum(ISSUE_STATUSES),
    changedBy: z.enum(['user', 'crawl']),
    crawlId: z.uuid().nullable(),
    note: z.string().nullable(),
    at: z.string(),
  })
  .openapi('StatusChange');

export const IssueDetailSchema = IssueSchema.extend({
  statusHistory: z.array(StatusChangeSchema).openapi({ description: 'The last 50 status changes, oldest first (when more were made, the oldest changes by users are dropped first).' }),
  statusHistoryTotal: z.number().int().openapi({ description: 'Every status change ever made to the issue, including those no longer listed in statusHistory.' }),
}).openapi('IssueDetail');

export const PageScanSchema = z
  .object({
    id: z.uuid(),
    crawlId: z.uuid().nullable(),
    status: z.string(),
    score: z.number().int().nullable(),
    issueCounts: IssueCounts,
    scannedAt: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    reusedFrom: z
      .uuid()
      .nullable()
      .openapi({
        description:
          'Set when nothing the page loaded had changed since an earlier audit: the id of the scan whose audit (findings, score, texts) this scan carries, without a browser having loaded the page again. Null for a page audited by this scan.',
      }),
    incomplete: IncompleteSchema,
  })
  .openapi('PageScan');

export const PageDetailSchema = PageSchema.extend({ scans: z.array(PageScanSchema), issues: z.array(IssueSchema) }).openapi('PageDetail');

export const IssueQuery = z.object({
  severity: z.enum(SEVERITIES, { message: `severity must be one of ${SEVERITIES.join(', ')}` }).optional().openapi({ param: { name: 'severity', in: 'query' } }),
  wcagLevel: z
    .enum(WCAG_LEVELS, { message: 'wcagLevel must be A or AA' })
    .optional()
    .openapi({ param: { name: 'wcagLevel', in: 'query' }, description: 'Issues with a criterion of this level among their `wcagCriteria` (not only the primary)' }),
  wcagCriterion: z
    .string()
    .regex(/^[1-4]\.[1-9]\.[1-9][0-9]?$/, 'wcagCriterion must be a WCAG success criterion number such as 1.3.1')
    .optional()
    .openapi({ param: { name: 'wcagCriterion', in: 'query' }, description: 'Issues failing this criterion, as their primary or any other of their `wcagCriteria`, e.g. `3.3.2`' }),
  status: z.enum(ISSUE_STATUSES, { message: `status must be one of ${ISSUE_STATUSES.join(', ')}` }).optional().openapi({ param: { name: 'status', in: 'query' } }),
  pageId: z.uuid({ message: 'pageId must be a UUID' }).optional().openapi({ param: { name: 'pageId', in: 'query' } }),
  type: z
    .enum(ISSUE_TYPES, { message: `type must be one of ${ISSUE_TYPES.join(', ')}` })
    .optional()
    .openapi({ param: { name: 'type', in: 'query' }, description: '`confirmed` (the rule failed) or `needs_review` (a person must decide)' }),
  ruleId: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'ruleId must be a rule id such as image-alt')
    .optional()
    .openapi({ param: { name: 'ruleId', in: 'query' }, description: 'The rule that found the issue (`axeRuleId` on the issue), e.g. `image-alt`' }),
});

/** The issue list's filters: the groups' own, plus the members of one group. */
export const IssueListQuery = IssueQuery.extend({
  groupKey: z
    .string()
    .regex(/^([0-9a-f]{24}|finding:[0-9a-f]{40})$/, 'groupKey must be a group key from /issue-groups')
    .optional()
    .openapi({ param: { name: 'groupKey', in: 'query' }, description: 'Only the members of this issue group (see /issue-groups)' }),
  newInCrawl: z
    .uuid({ message: 'newInCrawl must be a crawl id (UUID)' })
    .optional()
    .openapi({
      param: { name: 'newInCrawl', in: 'query' },
      description: "Only the issues this crawl counted as new (`newIssues`): found for the first time, or `fixed` before and seen again. A CI gate's baseline is the site's previous crawl.",
    }),
  pageKind: z
    .enum(['page', 'document'], { message: 'pageKind must be page or document' })
    .optional()
    .openapi({ param: { name: 'pageKind', in: 'query' }, description: 'Only the issues of HTML pages (`page`), or of the documents (PDFs) the site links to (`document`)' }),
});

export const PatchIssueBody = z
  .object({
    status: z.enum(['open', 'dismissed', 'cant_fix'], {
      message: 'status must be open, dismissed or cant_fix (fixed is set only by a crawl)',
    }),
    note: z.string().max(2000, 'note must be at most 2000 characters').nullable().optional(),
  })
  .openapi('UpdateIssueRequest');
