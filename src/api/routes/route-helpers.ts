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
