import type { z } from '@hono/zod-openapi';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
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

/** gRPC status codes that mean the Temporal frontend could not be reached or did not answer in time. */
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;

/** True when starting a workflow failed because Temporal is out of reach, not because it refused. */
export function temporalUnreachable(err: unknown): boolean {
  for (let e: any = err, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (e.code === GRPC_UNAVAILABLE || e.code === GRPC_DEADLINE_EXCEEDED) return true;
    if (typeof e.code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE'].includes(e.code)) return true;
    if (e.name === 'TransportError' || e.name === 'ConnectionError') return true;
  }
  return false;
}

/** The answer for a workflow that could not be started: 409 if it exists, 503 if Temporal is out of reach, else 500. */
export function startFailure(what: string, err: unknown): ApiError {
  if (err instanceof WorkflowExecutionAlreadyStartedError) {
    return new ApiError('already_started', `a workflow for this ${what} already exists; nothing new was started`, { cause: err });
  }
  if (temporalUnreachable(err)) {
    return new ApiError('service_unavailable', `the workflow service is unreachable; the ${what} was not started`, { cause: err });
  }
  return new ApiError('internal_error', `the workflow service refused to start the ${what}; nothing was written`, { cause: err });
}

/**
 * Starts a workflow within a bounded wait, so an unreachable Temporal is a quick 503 rather than a
 * hanging request; on failure the row written for it, if any, is removed, leaving nothing half-written.
 */
export async function startWorkflowOrRollback(
  deps: AppDeps,
  what: string,
  start: () => Promise<unknown>,
  rollback?: () => Promise<void>,
): Promise<void> {
  try {
    await deps.temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, start);
  } catch (err) {
    await rollback?.().catch(() => {});
    throw startFailure(what, err);
  }
}
