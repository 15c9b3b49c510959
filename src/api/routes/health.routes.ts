import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { pingDatabase } from '../../db/repositories/health.repository.ts';
import type { AppDeps, HonoEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { problemResponses } from '../schemas/common.schema.ts';

const tags = ['Health'];

const healthz = createRoute({
  method: 'get',
  path: '/healthz',
  tags,
  summary: 'The process is up',
  responses: { 200: { description: 'Up', content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } } } },
});

const readyz = createRoute({
  method: 'get',
  path: '/readyz',
  tags,
  summary: 'The database and Temporal answer',
  description: 'Each check is `ok` or `unavailable`; a 503 names what is down in `detail` and `checks`, never the underlying error text.',
  responses: {
    200: {
      description: 'Ready',
      content: { 'application/json': { schema: z.object({ status: z.literal('ready'), checks: z.record(z.string(), z.enum(['ok', 'unavailable'])) }) } },
    },
    ...problemResponses(503),
  },
});

async function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<HonoEnv>();
  app.openapi(healthz, (c) => c.json({ status: 'ok' as const }, 200));
  app.openapi(readyz, async (c) => {
    const [dbCheck, temporalCheck] = await Promise.allSettled([
      within(3000, pingDatabase(deps.db)),
      within(3000, deps.temporal.workflowService.getSystemInfo({})),
    ]);
    // Anyone may call /readyz: it says what is down, never the raw error (addresses, user names,
    // server versions); the log has the error under the request id.
    const checks: Record<string, 'ok' | 'unavailable'> = {};
    for (const [name, check] of [['database', dbCheck], ['temporal', temporalCheck]] as const) {
      checks[name] = check.status === 'fulfilled' ? 'ok' : 'unavailable';
      if (check.status === 'rejected') c.get('logger')?.error({ err: check.reason, dependency: name }, 'readiness check failed');
    }
    const down = Object.keys(checks).filter((k) => checks[k] !== 'ok');
    if (down.length > 0) throw new ApiError('service_unavailable', `not ready: ${down.join(' and ')} unavailable`, { extra: { checks } });
    return c.json({ status: 'ready' as const, checks }, 200);
  });
  return app;
}
