import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { Logger } from '../logger.ts';
import { attachClientErrorHandler, rawProblemResponse } from './client-error.ts';
import { ApiError, problemBody } from './errors.ts';
import { REQUEST_ID } from './middleware.ts';

type FetchHandler = Parameters<typeof getRequestListener>[0];

/**
 * The API's HTTP server, the same in production (server.ts) and in tests (test-env.ts): the app
 * behind @hono/node-server's request listener, with every answer the app never sees turned into
 * problem+json with an X-Request-Id as well:
 * - requests Node's parser refuses (attachClientErrorHandler);
 * - requests the adapter refuses before the app (`RequestError`: a backslash in the path, a Host it
 *   cannot put in a URL, a target that is neither a path nor an absolute URL), which it would
 *   answer with an empty 400;
 * - an HTTP/1.1 request without Host, which Node itself would answer with an empty 400
 *   (`requireHostHeader` is off so the adapter refuses it as a RequestError instead);
 * - CONNECT, which Node would answer by closing the connection.
 */
export function createApiServer(fetch: FetchHandler, logger: Logger): Server {
  // The adapter's error handler is handed only the error: the request it failed on comes through
  // this store, so the answer can echo the client's X-Request-Id like every other answer.
  const current = new AsyncLocalStorage<IncomingMessage>();
  const listener = getRequestListener(fetch, {
    errorHandler: (err) => {
      const sent = current.getStore()?.headers['x-request-id'];
      const requestId = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
      let problem: ApiError;
      if (err instanceof RequestError) {
        problem = new ApiError('bad_request', `the request cannot be read as a URL (${err.message})`);
        logger.info({ requestId, status: problem.status, requestError: err.message }, 'request refused before routing');
      } else {
        problem = new ApiError('internal_error', 'something went wrong; the log has the details under this request id');
        logger.error({ err, requestId }, 'unhandled error outside the app');
      }
      return new Response(JSON.stringify(problemBody(problem, requestId)), {
        status: problem.status,
        // Like answers of Node's parser: the request was not understood, so the connection is not reused.
        headers: { 'content-type': 'application/problem+json', 'x-request-id': requestId, connection: 'close' },
      });
    },
  });
  const server = createServer({ requireHostHeader: false }, (req, res) => current.run(req, () => listener(req, res)));
  attachClientErrorHandler(server, logger);
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const requestId = randomUUID();
    logger.info({ requestId, status: 400, method: req.method }, 'CONNECT refused: this server is not a proxy');
    socket.on('error', () => {});
    socket.end(rawProblemResponse(new ApiError('bad_request', 'CONNECT is not supported: this server is not a proxy'), requestId));
  });
  return server;
}

/** Starts listening and resolves with the bound address (port 0 picks a free port). */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}
