import { describe, expect, it } from 'vitest';
import { ApiError, codeToStatus, ERRORS, isUnavailable, problemBody } from '../../../src/api/errors.ts';

describe('error table', () => {
  it('maps every contract code to its status', () => {
    expect(Object.fromEntries(Object.keys(ERRORS).map((c) => [c, codeToStatus(c as keyof typeof ERRORS)]))).toEqual({
      validation_error: 400,
      invalid_json: 400,
      invalid_query: 400,
      forbidden_target: 400,
      bad_request: 400,
      unauthorized: 401,
      forbidden: 403,
      not_found: 404,
      request_timeout: 408,
      misdirected_request: 421,
      crawl_in_progress: 409,
      not_exportable: 409,
      already_finished: 409,
      already_started: 409,
      payload_too_large: 413,
      unsupported_media_type: 415,
      rate_limited: 429,
      concurrency_limited: 429,
      headers_too_large: 431,
      internal_error: 500,
      service_unavailable: 503,
      secrets_key_missing: 503,
    });
  });

  it('builds an RFC 9457 problem body', () => {
    const err = new ApiError('validation_error', 'limit must be between 1 and 100', {
      errors: [{ path: 'limit', message: 'Number must be less than or equal to 100' }],
    });
    expect(problemBody(err, 'req-1')).toEqual({
      type: '/problems/validation-error',
      title: 'Invalid request',
      status: 400,
      code: 'validation_error',
      detail: 'limit must be between 1 and 100',
      errors: [{ path: 'limit', message: 'Number must be less than or equal to 100' }],
      requestId: 'req-1',
    });
    expect(problemBody(new ApiError('crawl_in_progress', 'busy', { extra: { crawlId: 'c1' } }))).toMatchObject({ crawlId: 'c1', status: 409 });
  });

  it('tells lost connections from bugs', () => {
    expect(isUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isUnavailable(new Error('wrapper', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }))).toBe(true);
    expect(isUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });
});
