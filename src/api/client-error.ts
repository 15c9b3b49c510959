import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type ServerResponse } from 'node:http';
import type { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import type { Logger } from '../logger.ts';
import { ApiError, problemBody } from './errors.ts';

/**
 * What Node's HTTP parser (llhttp) and its request timeouts report, as the contract's error codes.
 * The request line counts toward the header limit, so an overlong URL is a 431 too, never a 414.
 */
function parserError(err: NodeJS.ErrnoException & { reason?: string }): ApiError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('headers_too_large', `the request line and headers must be at most ${maxHeaderSize} bytes together`);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('payload_too_large', 'the chunk extensions of the body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout', 'the request was not received in time');
    default:
      return new ApiError('bad_request', `the request is not well-formed HTTP/1.1${err.reason ? ` (${err.reason})` : ''}`);
  }
}

/** A whole HTTP/1.1 answer as text: the parser has given up on the connection, so no ServerResponse exists. */
export function rawProblemResponse(err: ApiError, requestId: string): string {
  const body = JSON.stringify(problemBody(err, requestId));
  return [
    `HTTP/1.1 ${err.status} ${STATUS_CODES[err.status]}`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    `X-Request-Id: ${requestId}`,
    '',
    body,
  ].join('\r\n');
}

/**
 * Requests Node refuses before any route sees them (headers over the limit, bytes that are not
 * HTTP, timeouts) are answered with problem+json and an X-Request-Id like every other answer,
 * instead of Node's bare status line. Node writes nothing itself once this listener exists.
 */
export function attachClientErrorHandler(server: EventEmitter, logger: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // Like Node's own handler: never write into a response that is already under way.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (err.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
      const problem = parserError(err);
      const requestId = randomUUID();
      logger.info({ requestId, status: problem.status, parserError: err.code }, 'request refused by the HTTP parser');
      socket.write(rawProblemResponse(problem, requestId));
    }
    socket.destroy();
  });
}
