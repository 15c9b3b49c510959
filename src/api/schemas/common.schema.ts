import { z } from '@hono/zod-openapi';

export const uuidParam = (name: string) =>
  z.uuid({ message: `${name} must be a UUID` }).openapi({ param: { name, in: 'path' }, example: '0b7e3f5a-1c2d-4e5f-8a9b-0c1d2e3f4a5b' });

export function paginationQuery(defaultLimit: number) {
  return z.object({
    limit: z.coerce
      .number({ message: 'limit must be an integer' })
      .int('limit must be an integer')
      .min(1, 'limit must be between 1 and 100')
      .max(100, 'limit must be between 1 and 100')
      .default(defaultLimit)
      .openapi({ param: { name: 'limit', in: 'query' }, example: defaultLimit }),
    offset: z.coerce
      .number({ message: 'offset must be an integer' })
      .int('offset must be an integer')
      .min(0, 'offset must be 0 or more')
      .default(0)
      .openapi({ param: { name: 'offset', in: 'query' }, example: 0 }),
  });
}

export const PaginationSchema = z
  .object({
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    count: z.number().int(),
  })
  .openapi('Pagination');

export const LinksSchema = z
  .object({ self: z.string(), next: z.string().nullable(), prev: z.string().nullable() })
  .openapi('PageLinks');

export function envelopeSchema<T extends z.ZodType>(item: T, name: string) {
  return z.object({ data: z.array(item), pagination: PaginationSchema, links: LinksSchema }).openapi(name);
}

/** The pagination envelope of the contract, with links that keep the request's other parameters. */
export function envelope<T>(reqUrl: string, page: { limit: number; offset: number }, total: number, data: T[]) {
  return { data, ...envelopeMeta(reqUrl, page, total, data.length) };
}

/**
 * The same envelope as JSON text around a `data` array that is already JSON (written by the
 * database), so the items are never parsed and serialised again.
 */
export function envelopeText(reqUrl: string, page: { limit: number; offset: number }, total: number, count: number, dataJson: string): string {
  return `{"data":${dataJson},${JSON.stringify(envelopeMeta(reqUrl, page, total, count)).slice(1)}`;
}

function envelopeMeta(reqUrl: string, page: { limit: number; offset: number }, total: number, count: number) {
  const url = new URL(reqUrl);
  const link = (offset: number) => {
    const q = new URLSearchParams(url.search);
    q.set('limit', String(page.limit));
    q.set('offset', String(offset));
    return `${url.pathname}?${q.toString()}`;
  };
  return {
    pagination: { total, limit: page.limit, offset: page.offset, count },
    links: {
      self: link(page.offset),
      next: page.offset + count < total ? link(page.offset + page.limit) : null,
      prev: page.offset > 0 ? link(Math.max(0, page.offset - page.limit)) : null,
    },
  };
}

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: '/problems/validation-error' }),
    title: z.string(),
    status: z.number().int(),
    code: z.string().openapi({ example: 'validation_error' }),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    requestId: z.string().optional(),
  })
  .openapi('Problem');

export function problemResponses(...statuses: number[]) {
  const descriptions: Record<number, string> = {
    400: 'Invalid request (validation_error, invalid_json, invalid_query, forbidden_target, bad_request)',
    401: 'API keys are configured and none or a wrong one was sent',
    403: 'Without API_KEYS: a cross-site browser request that changes state (forbidden)',
    404: 'Not found',
    409: 'Conflict with the resource state',
    413: 'Body over 1 MiB',
    415: 'Body is not application/json',
    421: 'Without API_KEYS: the Host header is not one this API answers for (misdirected_request)',
    429: 'Rate limit (rate_limited) or this process\'s cap on work at once (concurrency_limited) hit; see Retry-After',
    500: 'Unexpected failure (internal_error); nothing was written',
    503: 'Database or Temporal unreachable',
  };
  return Object.fromEntries(
    statuses.map((s) => [s, { description: descriptions[s] ?? 'Error', content: { 'application/problem+json': { schema: ProblemSchema } } }]),
  );
}

export const iso = (d: Date | string | null | undefined): string | null =>
  d == null ? null : (d instanceof Date ? d : new Date(d)).toISOString();
