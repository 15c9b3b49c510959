import { maxHeaderSize } from 'node:http';
import { OpenAPIHono } from '@hono/zod-openapi';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { createApiLimits } from './concurrency.ts';
import type { AppDeps, HonoEnv } from './env.ts';
import { ApiError, isUnavailable, problemResponse, validationError, type ApiErrorCode } from './errors.ts';
import { jsonBody } from './json-body.ts';
import { bearerAuth, browserGuard, GUARD_OPEN_PATHS, requestContext, STATE_CHANGING_METHODS } from './middleware.ts';
import { docsRoutes } from './routes/docs.routes.ts';
import { exportRoutes } from './routes/exports.routes.ts';
import { issueGroupRoutes } from './routes/issue-groups.routes.ts';
import { healthRoutes } from './routes/health.routes.ts';
import { scanRoutes } from './routes/scans.routes.ts';
import { screenshotRoutes } from './routes/screenshots.routes.ts';
import { scheduleRoutes } from './routes/schedules.routes.ts';
import { siteAuthRoutes } from './routes/site-auth.routes.ts';
import { siteFlowsRoutes } from './routes/site-flows.routes.ts';
import { webhookRoutes } from './routes/webhooks.routes.ts';
import { siteContentRoutes } from './routes/site-content.routes.ts';
import { siteRoutes } from './routes/sites.routes.ts';
import { crawlRoutes } from './routes/crawls.routes.ts';

const STATUS_CODES: Record<number, ApiErrorCode> = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

const problemRef = (description: string) => ({ description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });

/**
 * Adds browserGuard's answers (421 on every route it covers, 403 on those that change state) to
 * the generated document, so that no route can forget to list them.
 */
function withGuardResponses<T extends { paths?: object }>(doc: T): T {
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    if (GUARD_OPEN_PATHS.has(path)) continue;
    for (const [method, op] of Object.entries(item)) {
      const responses = (op as { responses?: Record<string, unknown> }).responses;
      if (!responses) continue;
      responses['421'] ??= problemRef('Without API_KEYS: the Host header is not one this API answers for (misdirected_request)');
      if (STATE_CHANGING_METHODS.has(method.toUpperCase())) responses['403'] ??= problemRef('Without API_KEYS: a cross-site browser request that changes state (forbidden)');
    }
  }
  return doc;
}

/** The one place that turns a thrown error into a problem+json answer. */
export function handleError(err: Error, c: Context<HonoEnv>): Response {
  const log = c.get('logger');
  if (err instanceof ApiError) {
    if (err.status >= 500) log?.error({ err }, err.detail);
    return problemResponse(c, err);
  }
  if (err instanceof WorkflowExecutionAlreadyStartedError) {
    return problemResponse(c, new ApiError('already_started', 'that workflow has already been started'));
  }
  if (err instanceof WorkflowNotFoundError) return problemResponse(c, new ApiError('not_found', 'no such workflow'));
  if (err instanceof HTTPException) {
    const code = /Malformed JSON/i.test(err.message) ? 'invalid_json' : (STATUS_CODES[err.status] ?? 'internal_error');
    return problemResponse(c, new ApiError(code, err.message || code));
  }
  if (isUnavailable(err)) {
    log?.error({ err }, 'dependency unavailable');
    return problemResponse(c, new ApiError('service_unavailable', 'the database or the workflow service is unreachable; try again shortly'));
  }
  log?.error({ err }, 'unhandled error');
  return problemResponse(c, new ApiError('internal_error', 'something went wrong; the log has the details under this request id'));
}

export function createApp(deps: AppDeps) {
  const app = new OpenAPIHono<HonoEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error.issues, result.target);
    },
  });
  // This process's own capacity (exports, event streams): one set per app, never module state.
  const limits = createApiLimits(deps.config);
  app.use('*', requestContext(deps.logger));
  app.use('*', browserGuard(deps.config));
  app.use('/api/*', bearerAuth(deps.config.apiKeys));
  app.use('/api/*', jsonBody());

  app.route('/', healthRoutes(deps));
  app.route('/', docsRoutes());
  app.route('/', scanRoutes(deps, limits));
  app.route('/', siteRoutes(deps));
  app.route('/', crawlRoutes(deps, limits));
  app.route('/', siteAuthRoutes(deps));
  app.route('/', siteFlowsRoutes(deps));
  app.route('/', siteContentRoutes(deps));
  app.route('/', issueGroupRoutes(deps));
  app.route('/', screenshotRoutes(deps));
  app.route('/', scheduleRoutes(deps));
  app.route('/', exportRoutes(deps, limits));
  app.route('/', webhookRoutes(deps));

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Required on /api routes when the server has API_KEYS set; otherwise the API is open and binds to loopback.',
  });
  const document = {
    openapi: '3.1.0' as const,
    info: {
      title: 'a11y-audit API',
      version: '1.0.0',
      description:
        'Crawls web sites and scans pages in Chromium against WCAG 2.2 A and AA. Errors are application/problem+json (RFC 9457). ' +
        'Decisions beyond the user specification and ../shared/spec/contract.md: every scan field is always present (null when ' +
        'it has no value yet) rather than varying the shape by status; scan issues carry `helpUrl` and `alsoFlaggedBy`; failed ' +
        'scans carry `error: {code, message}`; crawls also carry `brokenLinks` (same-site links answering 4xx, not pages) and ' +
        '`error` (why a crawl `failed`, e.g. the root page\'s error or `no_pages`); a site\'s `baseUrl` is the origin of the ' +
        'first URL given, with path `/`; GET /api/sites is ordered by host name. Issue groups (GET /api/sites/{id}/issue-groups) are ' +
        'paginated like the other lists and default to the latest crawl that ended with results; every site issue carries its `groupKey`. ' +
        'Reports: a bad `format` is 400 `invalid_query`, a code added beside `validation_error` so that a client can tell a format the service does not make from a malformed query. ' +
        `Requests refused before any route are problem+json too, and close the connection: the request line (URL included) and headers may be at most ${maxHeaderSize} bytes together, beyond that 431 \`headers_too_large\` (so an overlong URL is 431, never 414); ` +
        'bytes that are not HTTP/1.1 (e.g. raw non-ASCII in the request line), a request target that cannot be read as a URL (a raw backslash in the path, `*`), ' +
        'a missing or malformed Host header, and CONNECT are 400 `bad_request`; headers not received in time 408 `request_timeout`. ' +
        'A JSON body that a route requires (POST /api/scans, POST /api/sites, PATCH of an issue) must be sent: an empty one, or none, is 400 `validation_error` naming the missing fields. ' +
        'Strings in a body must not contain NUL (\\u0000) or unpaired surrogates (400 `validation_error` with the JSON path). The 1 MiB body limit counts bytes as they arrive, ' +
        'so a chunked body is answered 413 as soon as it passes 1 MiB, and the connection is closed. ' +
        'Starting a scan or crawl workflow: 503 `service_unavailable` only when Temporal cannot be reached; a workflow id that already exists is 409 `already_started` ' +
        '(a code added beside the contract\'s), any other refusal 500 `internal_error`; in every case nothing is written. ' +
        'Rate limits (POST /api/scans: SCAN_RATE_LIMIT, POST /api/sites/{id}/crawl: CRAWL_RATE_LIMIT, POST /api/sites: SITE_RATE_LIMIT, PUT /api/sites/{id}/schedule: ' +
        'SCHEDULE_RATE_LIMIT, per hour, kept in the database and shared by every API process) count a client by its address: with TRUST_PROXY the right-most ' +
        'X-Forwarded-For entry, and an IPv6 client by its /64. ' +
        'Without API_KEYS the API answers only requests meant for it: a Host header other than `localhost` or a loopback literal on the port the request came in on, ' +
        'the address or name the API is bound to on that port (any IP literal when bound to a wildcard address such as 0.0.0.0), or a name in API_ALLOWED_HOSTS ' +
        '(`name`: any port; `name:port`) is 421 `misdirected_request` (a DNS name rebound to this address is refused); and a POST, PUT, PATCH or DELETE that a browser ' +
        'marks as cross-site (`Sec-Fetch-Site` other than `same-origin` or `none`, or an `Origin` that is not the API\'s own host and port) is 403 `forbidden`. ' +
        'GET /healthz and GET /readyz answer any Host. With API_KEYS neither check applies. ' +
        'Besides the hourly rate limits, one API process caps what runs at once: report exports (EXPORT_CONCURRENCY, default 4) and event streams ' +
        '(EVENT_STREAMS_MAX in all, default 100; EVENT_STREAMS_PER_CLIENT, default 10); beyond a cap the answer is 429 `concurrency_limited` (a code added beside ' +
        '`rate_limited`: nothing is used up, retry after `Retry-After` seconds, 5 for exports and 10 for streams). An export whose client reads nothing for ' +
        'EXPORT_STALL_MS (default 30 s) while bytes wait for it is ended by closing the connection. An event stream ends with an `end` event (see the events routes) ' +
        'when its run will not change any more although it has not ended (its workflow no longer runs), or after 30 minutes. ' +
        'What a person meets beyond the first paint: `discoveredVia` also takes `flow`, a page that stands for a scripted flow\'s end state ' +
        '(its URL is the flow\'s start URL with the fragment `#flow:<name>`; the contract lists the other four values); a fragment route (`#/x`, `#!x`) found in ' +
        'a rendered page is a page of its own. An issue\'s `viewport` is null on crawls that check the desktop viewport alone and set on any other crawl, one with ' +
        '`["mobile"]` alone included (the contract says "several viewports": a mobile-only issue is not the desktop issue, so its identity must differ). ' +
        'A crawl keeps one picture per issue group (the group\'s example), so the site issue screenshot route answers 404 for the group\'s other members; ' +
        'issue-group examples add `issueId` and `screenshot` (the picture\'s path, or null). PUT of a site\'s flows answers 201 when it creates them and 200 when it ' +
        'replaces them, as PUT of its authentication set-up does. ' +
        'Webhooks: a site\'s list is replaced by PUT (`{webhooks: [...]}`) and read back without secrets; GET of a site with none answers an empty list ' +
        '(not 404, unlike flows: an empty list is a valid state); a single-page scan takes `webhookUrl` (and optionally `webhookSecret`) and its 202 answer carries ' +
        '`webhookSecret`, shown that once (absent without a webhookUrl: the answer keeps the specification\'s five fields; the one field the contract\'s null-not-absent rule yields to). `scan.completed` is sent when a single-page scan ends completed, completed_partial or failed ' +
        '(`data.status` says which), not when it is cancelled.',
    },
    security: [{ bearerAuth: [] }, {}] as Array<Record<string, string[]>>,
  };
  // Generated per request like doc31 does; the guard's answers are added to every route it covers.
  app.get('/openapi.json', (c) => c.json(withGuardResponses(app.getOpenAPI31Document(document))));

  app.notFound((c) => problemResponse(c, new ApiError('not_found', `no route for ${c.req.method} ${c.req.path}`)));
  app.onError(handleError);
  return app;
}

export type App = ReturnType<typeof createApp>;
