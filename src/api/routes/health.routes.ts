import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { sql } from 'kysely';
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
  responses: {
    200: {
      description: 'Ready',
      content: { 'application/json': { schema: z.object({ status: z.literal('ready'), checks: z.record(z.string(), z.string()) }) } },
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
    const checks: Record<string, string> = {};
    const [dbCheck, temporalCheck] = await Promise.allSettled([
      within(3000, sql`select 1`.execute(deps.db)),
      within(3000, deps.temporal.workflowService.getSystemInfo({})),
    ]);
    checks.database = dbCheck.status === 'fulfilled' ? 'ok' : `unavailable: ${String(dbCheck.reason?.message ?? dbCheck.reason)}`;
    checks.temporal = temporalCheck.status === 'fulfilled' ? 'ok' : `unavailable: ${String(temporalCheck.reason?.message ?? temporalCheck.reason)}`;
    if (dbCheck.status !== 'fulfilled' || temporalCheck.status !== 'fulfilled') {
      throw new ApiError('service_unavailable', Object.entries(checks).map(([k, v]) => `${k}: ${v}`).join('; '), { extra: { checks } });
    }
    return c.json({ status: 'ready' as const, checks }, 200);
  });
  return app;
}
