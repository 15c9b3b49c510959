import { describe, expect, it } from 'vitest';
import { classifyNavigationError, isBrowserGone } from '../../../../src/audit/session/classify-navigation-error.ts';

describe('navigation error classification', () => {
  it.each([
    ['page.goto: net::ERR_NAME_NOT_RESOLVED at https://x.invalid/', 'dns_error'],
    ['page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:1/', 'connection_refused'],
    ['page.goto: net::ERR_CERT_AUTHORITY_INVALID at https://self-signed/', 'tls_error'],
    ['page.goto: Timeout 3000ms exceeded.', 'timeout'],
    ['page.goto: net::ERR_TOO_MANY_REDIRECTS at http://loop/', 'too_many_redirects'],
    ['page.goto: Download is starting', 'not_html'],
    ['page.goto: net::ERR_CONNECTION_RESET at http://x/', 'connection_failed'],
    ['page.goto: net::ERR_UNSAFE_PORT at http://x:6000/', 'connection_failed'],
    ['page.goto: net::ERR_HTTP_RESPONSE_CODE_FAILURE at http://x/', 'http_error'],
    ['page.goto: net::ERR_INVALID_HTTP_RESPONSE at http://x/', 'invalid_response'],
    ['page.goto: net::ERR_RESPONSE_HEADERS_MULTIPLE_CONTENT_LENGTH at http://x/', 'invalid_response'],
    ['page.goto: net::ERR_RESPONSE_HEADERS_TOO_BIG at http://x/', 'invalid_response'],
    ['net::ERR_INVALID_CHUNKED_ENCODING at http://x/', 'invalid_response'],
    ['net::ERR_CONTENT_LENGTH_MISMATCH at http://x/', 'connection_failed'],
    ['net::ERR_INCOMPLETE_CHUNKED_ENCODING at http://x/', 'connection_failed'],
    ['something nobody has seen', 'browser_error'],
  ])('%s -> %s', (message, code) => {
    const err = new Error(message);
    if (code === 'timeout') err.name = 'TimeoutError';
    const out = classifyNavigationError(err);
    expect(out.code).toBe(code);
    expect(out.message).not.toMatch(/^page\.goto: /);
  });

  it('recognises a dead browser', () => {
    expect(isBrowserGone(new Error('page.evaluate: Target page, context or browser has been closed'))).toBe(true);
    expect(isBrowserGone(new Error('net::ERR_NAME_NOT_RESOLVED'))).toBe(false);
  });
});
