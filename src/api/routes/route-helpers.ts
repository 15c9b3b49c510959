import type { z } from '@hono/zod-openapi';
import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import { findSite } from '../../db/repositories/site.repository.ts';
import type { SiteRecord } from '../../db/repositories/records.ts';
import type { SecretsKey } from '../../security/secrets.ts';
import type { AppDeps } from '../env.ts';
import { ApiError, type FieldError } from '../errors.ts';

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/**
 * JSON text already serialised elsewhere (by the database), sent as is as a route's
 * `application/json` answer of type `T`, so it is never parsed and serialised again.
 */
export function jsonText<T, S extends ContentfulStatusCode = 200>(c: Context, text: string, status: S): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  const res: Response = c.body(text, status, { 'content-type': 'application/json' });
  // The compiler cannot see a string's shape: the caller vouches that `text` is a `T` (a test holds it to the DTO's output).
  return res as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}

export async function requireSite(deps: AppDeps, id: string): Promise<SiteRecord> {
  const site = await findSite(deps.db, id);
  if (!site) throw new ApiError('not_found', `site ${id} does not exist`);
  return site;
}

/**
 * A 400 for every URL of a set-up that is not on the site's host (its hostname, or its base URL's):
 * a login or a flow only ever acts on the site it belongs to.
 */
/**
 * The key a site's secrets are sealed with (its authentication set-up, its flows): without one the
 * write is refused with 503 `secrets_key_missing` and nothing is written. `what` names what is stored.
 */
export function requireSecretsKey(deps: AppDeps, what: string): SecretsKey {
  const key = deps.config.secretsKey;
  if (!key) {
    throw new ApiError('secrets_key_missing', `SECRETS_KEY is not configured on the API server: ${what} stored encrypted with it. Set it to 32 random bytes (openssl rand -base64 32); nothing was written.`);
  }
  return key;
}

export function requireOnSite(site: SiteRecord, urls: ReadonlyArray<{ path: string; url: string }>): void {
  const hosts = new Set([site.hostname, new URL(site.baseUrl).hostname]);
  const off: FieldError[] = urls
    .filter((u) => !hosts.has(new URL(u.url).hostname.replace(/\.$/, '').toLowerCase()))
    .map((u) => ({ path: u.path, message: `must be on the site's host (${site.hostname})` }));
  if (off.length) throw new ApiError('validation_error', `${off[0]!.path}: ${off[0]!.message}`, { errors: off });
}
