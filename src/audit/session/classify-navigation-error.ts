import type { PageError, PageErrorCode } from '../../shared/contracts.ts';

const RULES: ReadonlyArray<[RegExp, PageErrorCode]> = [
  [/ERR_BLOCKED_BY_CLIENT/, 'forbidden_target'],
  [/ERR_NAME_NOT_RESOLVED|ERR_NAME_RESOLUTION_FAILED|ENOTFOUND/, 'dns_error'],
  [/ERR_CONNECTION_REFUSED|ECONNREFUSED/, 'connection_refused'],
  [/ERR_CERT_|ERR_SSL_|ERR_BAD_SSL/, 'tls_error'],
  [/ERR_TOO_MANY_REDIRECTS/, 'too_many_redirects'],
  [/ERR_HTTP_RESPONSE_CODE_FAILURE/, 'http_error'],
  [/TimeoutError|Timeout \d+ms exceeded|ERR_TIMED_OUT|ERR_CONNECTION_TIMED_OUT/, 'timeout'],
  [/Download is starting|ERR_ABORTED.*\.(pdf|zip|png|jpe?g|gif|docx?|xlsx?)/i, 'not_html'],
  // The server's bytes are not HTTP, or not what its headers say: the same answer on every try.
  [/ERR_INVALID_HTTP_RESPONSE|ERR_RESPONSE_HEADERS_MULTIPLE_|ERR_RESPONSE_HEADERS_TOO_BIG|ERR_INVALID_CHUNKED_ENCODING|ERR_CONTENT_DECODING_FAILED/, 'invalid_response'],
  [/ERR_CONTENT_LENGTH_MISMATCH|ERR_INCOMPLETE_CHUNKED_ENCODING|ERR_RESPONSE_HEADERS_TRUNCATED|ERR_UNSAFE_PORT|ERR_CONNECTION_|ERR_ADDRESS_|ERR_INTERNET_DISCONNECTED|ERR_EMPTY_RESPONSE|ERR_NETWORK_|ERR_INVALID_RESPONSE|ERR_ABORTED|ERR_FAILED/, 'connection_failed'],
];

/** Turns what Playwright threw while navigating into a page error: data, not a failure to retry. */
export function classifyNavigationError(err: unknown): PageError {
  const raw = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const message = err instanceof Error ? err.message : String(err);
  const firstLine = message.split('\n')[0]!.replace(/^page\.goto: /, '').trim();
  for (const [pattern, code] of RULES) {
    if (pattern.test(raw)) return { code, message: firstLine.slice(0, 500) };
  }
  return { code: 'browser_error', message: firstLine.slice(0, 500) };
}

/** Browser failures that mean the browser itself is gone: retry on a fresh one. */
export function isBrowserGone(err: unknown): boolean {
  const msg = err instanceof Error ? err.message : String(err);
  return /Target page, context or browser has been closed|Browser has been closed|browser has disconnected|Target crashed/i.test(msg);
}
