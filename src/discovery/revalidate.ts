import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { fetch } from 'undici';
import { pinnedAgent } from '../security/pinned-agent.ts';
import type { TargetPolicy } from '../security/target-policy.ts';
import type { RecheckAnswer, ResourceEntry } from '../shared/page-reuse.ts';
import { parseRetryAfter, THROTTLE_STATUSES } from '../shared/politeness.ts';
import { forbiddenReason, readCapped, USER_AGENT } from './fetch-page.ts';

/** Bytes read of one resource to hash it; a larger one counts as changed (the browser's audit will see). */
export const MAX_REVALIDATE_BYTES = 16 * 1024 * 1024;

export interface RevalidateOptions {
  policy: TargetPolicy;
  timeoutMs: number;
  signal?: AbortSignal;
  maxBytes?: number;
}

/** A recheck's answer; `throttled` when the site answered 429 or 503 (it asks for a pause). */
export type RevalidateAnswer = RecheckAnswer & { throttled?: { status: number; retryAfterMs?: number } };

/**
 * Asks the site once more for one resource a page loaded, as discovery fetches (the target
 * policy's vetted connection, one lookup per connection; an address in the URL vetted here):
 * a conditional GET with the validators it gave (`If-None-Match`, `If-Modified-Since`), redirects
 * not followed (a redirect is compared by its `Location`), and the body, when sent in full,
 * hashed as the browser received it (content-encoding undone).
 */
export async function revalidateResource(entry: ResourceEntry, o: RevalidateOptions): Promise<RevalidateAnswer> {
  let target: URL;
  try {
    target = new URL(entry.url);
  } catch {
    return { kind: 'failed', reason: 'not a URL' };
  }
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  if (isIP(target.hostname.replace(/^\[|\]$/g, ''))) {
    const verdict = await o.policy.pin(target.hostname, port);
    if (verdict.allowed === false) return { kind: 'failed', reason: verdict.reason };
  }
  const signal = o.signal ? AbortSignal.any([o.signal, AbortSignal.timeout(o.timeoutMs)]) : AbortSignal.timeout(o.timeoutMs);
  try {
    const res = await fetch(entry.url, {
      dispatcher: pinnedAgent(o.policy, port),
      redirect: 'manual',
      signal,
      headers: {
        'user-agent': USER_AGENT,
        accept: '*/*',
        ...(entry.etag ? { 'if-none-match': entry.etag } : {}),
        ...(entry.lastModified ? { 'if-modified-since': entry.lastModified } : {}),
      },
    });
    if (res.status === 304) {
      await res.body?.cancel().catch(() => {});
      return { kind: 'not-modified' };
    }
    const etag = res.headers.get('etag') ?? undefined;
    const lastModified = res.headers.get('last-modified') ?? undefined;
    const validators = { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
    if (THROTTLE_STATUSES.has(res.status)) {
      await res.body?.cancel().catch(() => {});
      const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
      return { kind: 'failed', reason: `HTTP ${res.status}: the site asks for a pause`, throttled: { status: res.status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) } };
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => {});
      const location = res.headers.get('location') ?? undefined;
      return { kind: 'answered', status: res.status, ...validators, ...(location ? { location } : {}) };
    }
    const read = await readCapped(res, o.maxBytes ?? MAX_REVALIDATE_BYTES);
    if (read.truncated) return { kind: 'answered', status: res.status, ...validators };
    return { kind: 'answered', status: res.status, ...validators, sha256: createHash('sha256').update(read.raw).digest('hex') };
  } catch (err) {
    const refused = forbiddenReason(err);
    if (refused !== undefined) return { kind: 'failed', reason: refused };
    const cause = (err as { cause?: { message?: string } }).cause;
    return { kind: 'failed', reason: (cause?.message ?? (err as Error)?.message ?? String(err)).slice(0, 200) };
  }
}
