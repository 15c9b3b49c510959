import type { z } from '@hono/zod-openapi';
import { findSite } from '../../db/repositories/site.repository.ts';
import type { SiteRecord } from '../../db/repositories/records.ts';
import type { AppDeps } from '../env.ts';
import { ApiError } from '../errors.ts';

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export async function requireSite(deps: AppDeps, id: string): Promise<SiteRecord> {
  const site = await findSite(deps.db, id);
  if (!site) throw new ApiError('not_found', `site ${id} does not exist`);
  return site;
}

const START_DEADLINE_MS = 5000;

/**
 * Starts a workflow within a bounded wait, so an unreachable Temporal is a quick 503 rather than a
 * hanging request; on failure the row written for it is removed, leaving nothing half-written.
 */
export async function startWorkflowOrRollback(
  deps: AppDeps,
  what: string,
  start: () => Promise<unknown>,
  rollback: () => Promise<void>,
): Promise<void> {
  try {
    await deps.temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, start);
  } catch (err) {
    await rollback().catch(() => {});
    throw new ApiError('service_unavailable', `the workflow service is unreachable; the ${what} was not started`, { cause: err });
  }
}
