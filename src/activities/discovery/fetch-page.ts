import { gunzipSync } from 'node:zlib';
import type { TargetPolicy } from '../../security/target-policy.ts';
import { normalizeUrl, sameSite } from './urls.ts';

export const USER_AGENT = 'a11y-audit/1.0 (+accessibility audit; discovery)';
const MAX_BODY = 5 * 1024 * 1024;
const MAX_REDIRECTS = 5;

export type FetchOutcome =
  | { kind: 'html'; finalUrl: string; status: number; body: string }
  | { kind: 'not-html'; finalUrl: string; contentType: string }
  | { kind: 'broken'; finalUrl: string; status: number }
  | { kind: 'off-site'; location: string }
  | { kind: 'forbidden'; reason: string }
  | { kind: 'unreachable'; finalUrl: string; code: 'timeout' | 'http_error' | 'connection_failed' | 'dns_error' | 'connection_refused'; message: string };

async function readCapped(res: Response, cap: number): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > cap) break;
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

function networkCode(err: unknown): { code: 'timeout' | 'connection_failed' | 'dns_error' | 'connection_refused'; message: string } {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code ?? (err as { code?: string })?.code ?? '';
  const message = cause?.message ?? (err instanceof Error ? err.message : String(err));
  if ((err as Error)?.name === 'TimeoutError' || (err as Error)?.name === 'AbortError' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return { code: 'timeout', message: 'no answer in time' };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'dns_error', message };
  if (code === 'ECONNREFUSED') return { code: 'connection_refused', message };
  return { code: 'connection_failed', message };
}

/**
 * One plain HTTP GET for discovery (no browser), following redirects by hand so that every hop
 * is held to the target policy and to the site: a redirect off the site is reported, never followed.
 * 5xx and timeouts get `retries` more tries.
 */
export async function fetchPage(
  url: string,
  opts: { siteUrl: string; policy: TargetPolicy; timeoutMs: number; retries?: number; accept?: string },
): Promise<FetchOutcome> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const verdict = await opts.policy.check(current);
    if (!verdict.allowed) return { kind: 'forbidden', reason: verdict.reason };
    let res: Response | undefined;
    let failure: FetchOutcome | undefined;
    for (let attempt = 0; attempt <= (opts.retries ?? 1); attempt++) {
      try {
        res = await fetch(current, {
          redirect: 'manual',
          signal: AbortSignal.timeout(opts.timeoutMs),
          headers: { 'user-agent': USER_AGENT, accept: opts.accept ?? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
        });
        if (res.status >= 500) {
          failure = { kind: 'unreachable', finalUrl: current, code: 'http_error', message: `HTTP ${res.status}` };
          await res.body?.cancel().catch(() => {});
          res = undefined;
        } else break;
      } catch (err) {
        const n = networkCode(err);
        failure = { kind: 'unreachable', finalUrl: current, ...n };
        if (n.code === 'dns_error' || n.code === 'connection_refused') break;
      }
      if (attempt < (opts.retries ?? 1)) await new Promise((r) => setTimeout(r, 300 * (attempt + 1)));
    }
    if (!res) return failure!;
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      await res.body?.cancel().catch(() => {});
      const next = normalizeUrl(res.headers.get('location')!, current);
      if (!next) return { kind: 'broken', finalUrl: current, status: res.status };
      if (!sameSite(next, opts.siteUrl)) return { kind: 'off-site', location: next };
      current = next;
      continue;
    }
    if (res.status >= 400) {
      await res.body?.cancel().catch(() => {});
      return { kind: 'broken', finalUrl: current, status: res.status };
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (opts.accept === undefined && type !== 'text/html' && type !== 'application/xhtml+xml') {
      await res.body?.cancel().catch(() => {});
      return { kind: 'not-html', finalUrl: current, contentType: type || 'unknown' };
    }
    const raw = await readCapped(res, MAX_BODY);
    const body = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
    return { kind: 'html', finalUrl: current, status: res.status, body };
  }
  return { kind: 'broken', finalUrl: current, status: 310 };
}
