import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';

/** The public error codes (a contract: add, never rename) with their status and title. */
export const ERRORS = {
  validation_error: { status: 400, title: 'Invalid request' },
  invalid_json: { status: 400, title: 'Body is not valid JSON' },
  invalid_query: { status: 400, title: 'Invalid query parameter' },
  forbidden_target: { status: 400, title: 'Target address not allowed' },
  bad_request: { status: 400, title: 'Malformed HTTP request' },
  unauthorized: { status: 401, title: 'Authentication required' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not found' },
  request_timeout: { status: 408, title: 'Request not received in time' },
  misdirected_request: { status: 421, title: 'Not the host this API answers for' },
  crawl_in_progress: { status: 409, title: 'A crawl of this site is already running' },
  not_exportable: { status: 409, title: 'Nothing to export yet' },
  already_finished: { status: 409, title: 'Already finished' },
  already_started: { status: 409, title: 'Workflow already started' },
  payload_too_large: { status: 413, title: 'Request body too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  rate_limited: { status: 429, title: 'Too many requests' },
  concurrency_limited: { status: 429, title: 'Too many at once' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  internal_error: { status: 500, title: 'Internal server error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  secrets_key_missing: { status: 503, title: 'Secret storage is not configured' },
} as const satisfies Record<string, { status: ContentfulStatusCode; title: string }>;

export type ApiErrorCode = keyof typeof ERRORS;

export interface FieldError {
  path: string;
  message: string;
}

export function codeToStatus(code: ApiErrorCode): ContentfulStatusCode {
  return ERRORS[code].status;
}

/** Thrown by routes and middleware; `onError` turns it into problem+json. */
export class ApiError extends HTTPException {
  readonly code: ApiErrorCode;
  readonly detail: string;
  readonly errors?: FieldError[];
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(
    code: ApiErrorCode,
    detail: string,
    opts: { errors?: FieldError[]; extra?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(codeToStatus(code), { message: detail, cause: opts.cause });
    this.name = 'ApiError';
    this.code = code;
    this.detail = detail;
    this.errors = opts.errors;
    this.extra = opts.extra;
    this.headers = opts.headers;
  }
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  code: ApiErrorCode;
  detail: string;
  errors?: FieldError[];
  requestId?: string;
  [k: string]: unknown;
}

export function problemBody(err: ApiError, requestId?: string): Problem {
  return {
    type: `/problems/${err.code.replaceAll('_', '-')}`,
    title: ERRORS[err.code].title,
    status: err.status,
    code: err.code,
    detail: err.detail,
    ...(err.errors ? { errors: err.errors } : {}),
    ...err.extra,
    ...(requestId ? { requestId } : {}),
  };
}

export function problemResponse(c: Context, err: ApiError): Response {
  const body = problemBody(err, c.get('requestId') as string | undefined);
  const res = c.body(JSON.stringify(body), err.status as ContentfulStatusCode, {
    'content-type': 'application/problem+json',
    ...err.headers,
  });
  return res;
}

export function validationError(issues: z.core.$ZodIssue[], where: string): ApiError {
  const errors = issues.map((i) => ({ path: i.path.map(String).join('.') || where, message: i.message }));
  const first = errors[0];
  const detail = first ? `${first.path}: ${first.message}` : `invalid ${where}`;
  return new ApiError('validation_error', detail, { errors });
}

const PG_UNAVAILABLE = /^(08|57P0|53)/; // connection exceptions, admin shutdown, insufficient resources
/** Socket errors: the connection could not be made or was lost (to PostgreSQL or to Temporal). */
const NETWORK_CODES = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE'];
/** gRPC status codes that mean the Temporal frontend could not be reached or did not answer in time. */
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;

/** Whether `test` holds for the error or one of its causes (five deep). */
function anyCause(err: unknown, test: (e: any) => boolean): boolean {
  for (let e: any = err, depth = 0; e && depth < 5; e = e.cause, depth++) if (test(e)) return true;
  return false;
}

/**
 * Is this error Temporal out of reach (the frontend could not be reached or did not answer in time),
 * rather than Temporal refusing the request? The one test of it: a workflow start that fails so is a
 * 503 (temporal.ts), and so is any such error that reaches the error handler (isUnavailable).
 */
export function isTemporalUnreachable(err: unknown): boolean {
  return anyCause(err, (e) => {
    if (e.code === GRPC_UNAVAILABLE || e.code === GRPC_DEADLINE_EXCEEDED) return true;
    if (typeof e.code === 'string' && NETWORK_CODES.includes(e.code)) return true;
    if (e.name === 'TransportError' || e.name === 'ConnectionError') return true;
    return /TransportError|Failed to connect|UNAVAILABLE|DEADLINE_EXCEEDED/.test(String(e.message ?? ''));
  });
}

/** Is this error a lost database connection? */
function isDatabaseUnreachable(err: unknown): boolean {
  return anyCause(err, (e) => {
    if (typeof e.code === 'string' && (NETWORK_CODES.includes(e.code) || PG_UNAVAILABLE.test(e.code))) return true;
    return /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED/i.test(String(e.message ?? ''));
  });
}

/** Is this error a lost database or Temporal connection (503) rather than a bug (500)? */
export function isUnavailable(err: unknown): boolean {
  return isDatabaseUnreachable(err) || isTemporalUnreachable(err);
}
