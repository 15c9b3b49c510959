/**
 * One POST of one delivery: the receiver's name resolved and vetted once by the target policy,
 * the connection made to that very address (a second DNS answer cannot swap in another),
 * redirects never followed, the whole attempt (name lookup included) bounded by one timeout, the
 * answer's body not read.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, fetch } from 'undici';
import { notPublic, type TargetPolicy } from '../../security/target-policy.ts';

/** What an attempt came to. */
export type SendResult =
  /** The target policy refuses the address (or the name does not exist): never retried. */
  | { kind: 'forbidden'; reason: string }
  /** The name did not resolve for a reason that passes (see TEMPORARY_DNS_ERRORS): retried. */
  | { kind: 'dns'; error: string }
  /** The receiver answered; 2xx delivers. */
  | { kind: 'answered'; status: number }
  /** No answer: refused, reset, timed out. */
  | { kind: 'network'; error: string };

/**
 * Lookup errors that say nothing about the name, only that DNS could not answer now: getaddrinfo's
 * EAI_AGAIN (a SERVFAIL or an unreachable resolver), c-ares' SERVFAIL, timeout and refusal codes.
 * Any other (ENOTFOUND: the name does not exist) is refused as the target policy refuses it, with
 * the same words as a private address, so the log tells nobody which internal names exist.
 */
export const TEMPORARY_DNS_ERRORS: ReadonlySet<string> = new Set(['EAI_AGAIN', 'ESERVFAIL', 'ETIMEOUT', 'ETIMEDOUT', 'ECONNREFUSED', 'ECANCELLED', 'EAI_MEMORY']);

const codeOf = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** Why a request got no answer, in a line. */
function networkError(err: unknown): string {
  for (let e: any = err, depth = 0; e && depth < 4; e = e.cause, depth++) {
    if (e.name === 'TimeoutError' || e.code === 'UND_ERR_CONNECT_TIMEOUT' || e.code === 'UND_ERR_HEADERS_TIMEOUT') return 'timed out';
    if (e.code && typeof e.code === 'string' && e.code !== 'UND_ERR_SOCKET' && !e.cause) return `${e.code}: ${String(e.message ?? '').slice(0, 200)}`;
  }
  return String((err as Error)?.message ?? err).slice(0, 300);
}

/** A pool of one connection to `address` whatever name the URL has (TLS still checks that name). */
function agentTo(address: string): Agent {
  const family = isIP(address);
  type Callback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
  const lookup = (_hostname: string, options: LookupOptions, callback: Callback) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return new Agent({ connect: { lookup: lookup as never }, connections: 1 });
}

function timedOut(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

export async function sendWebhook(
  policy: TargetPolicy,
  url: URL,
  request: { headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<SendResult> {
  const signal = AbortSignal.timeout(timeoutMs);
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let verdict: Awaited<ReturnType<TargetPolicy['pin']>>;
  try {
    verdict = await Promise.race([policy.pin(url.hostname, port), timedOut(signal)]);
  } catch {
    return { kind: 'dns', error: `the DNS lookup of ${host} timed out` };
  }
  if (verdict.allowed === false) return { kind: 'forbidden', reason: verdict.reason };
  if (verdict.allowed === 'unresolved' || !verdict.address) {
    const code = verdict.allowed === 'unresolved' ? codeOf(verdict.error) : undefined;
    if (code && TEMPORARY_DNS_ERRORS.has(code)) return { kind: 'dns', error: `the DNS lookup of ${host} failed for now (${code})` };
    return { kind: 'forbidden', reason: notPublic(host) };
  }
  const agent = agentTo(verdict.address);
  try {
    const res = await fetch(url, { method: 'POST', headers: request.headers, body: request.body, redirect: 'manual', dispatcher: agent, signal });
    await res.body?.cancel().catch(() => {});
    return { kind: 'answered', status: res.status };
  } catch (err) {
    return { kind: 'network', error: networkError(err) };
  } finally {
    await agent.destroy().catch(() => {});
  }
}
