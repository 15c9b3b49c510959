/**
 * AI-assisted judgement: asks a configured OpenAI-compatible model whether the candidates a scan
 * collected (alt texts, link names, headings, labels, the title, passages, instructions) fail
 * their criterion, and why. One call per group of a page's candidates (kind + template position,
 * so a header link repeated on every page is one group), only for candidates whose verdict is not
 * cached yet; verdicts are cached per scope (a site, or a single-page scan's host), kind, content
 * hash and model, so a rerun asks nothing new.
 *
 * Never in the way: a call that fails (timeout, 429, 5xx, refusal, an answer that is not JSON of
 * the schema) is logged and its candidates get no verdict, the heuristics' results stand; calls
 * per page and the page's time are bounded. Only cancellation is thrown.
 */
import { createHash } from 'node:crypto';
import OpenAI from 'openai';
import type { Logger } from '../../logger.ts';
import type { JudgementCandidate, JudgementKind, PageCandidates } from '../../shared/judgement.ts';
import { redactSecrets } from '../openai-enricher.ts';
import { JUDGE_PROMPT_VERSION, JUDGE_RESPONSE_FORMAT, buildJudgeMessages, parseVerdicts, type AskedCandidate, type Verdict } from './prompt.ts';

/** A cached verdict's key within a scope and namespace. */
export interface VerdictKey {
  kind: JudgementKind;
  hash: string;
}

/** Where verdicts are kept (PostgreSQL in production: judgement.repository.ts). */
export interface VerdictCache {
  /** The cached verdicts among `keys`, by `verdictKeyString`. */
  get(scope: string, namespace: string, keys: readonly VerdictKey[]): Promise<Map<string, Verdict>>;
  put(scope: string, namespace: string, entries: ReadonlyArray<VerdictKey & Verdict>): Promise<void>;
  /**
   * Makes this caller the one that asks about a group (`groupHash`): false while another caller's
   * claim younger than `staleMs` stands. Without claims, pages judged at once may both ask.
   */
  claim?(scope: string, namespace: string, groupHash: string, staleMs: number): Promise<boolean>;
  release?(scope: string, namespace: string, groupHash: string): Promise<void>;
}

export const verdictKeyString = (k: VerdictKey) => `${k.kind}:${k.hash}`;

/** What identifies a candidate's verdict: its kind and content (never its page or position), so the same link in the same context is judged once per site. */
export function candidateHash(c: JudgementCandidate): string {
  const extra = c.extra ? Object.entries(c.extra).sort(([a], [b]) => a.localeCompare(b)) : [];
  return createHash('sha256').update(JSON.stringify([c.kind, c.text, c.context, extra])).digest('hex').slice(0, 32);
}

/** The page's groups: kind + the selector path with positions, ids and numbers generalised (as issue groups). */
export function judgementGroups(candidates: readonly JudgementCandidate[], templateKey: (selector: string) => string): JudgementCandidate[][] {
  const groups = new Map<string, JudgementCandidate[]>();
  for (const c of candidates) {
    const k = `${c.kind}\u0000${templateKey(c.selector)}`;
    const g = groups.get(k);
    if (g) g.push(c);
    else groups.set(k, [c]);
  }
  return [...groups.values()];
}

export interface JudgedCandidate {
  candidate: JudgementCandidate;
  verdict: Verdict;
  cached: boolean;
}

export interface JudgeUsage {
  calls: number;
  failedCalls: number;
  cacheHits: number;
  /** Verdicts dropped: about ids not asked, repeated, or with no reason. */
  dropped: number;
  inputTokens: number;
  outputTokens: number;
}

export interface JudgePageInput {
  scope: string;
  page: { url: string; title: string | null };
  candidates: PageCandidates;
  signal?: AbortSignal;
  /** Generalises a selector to its template position (group-key.ts's normaliseSelectorPath). */
  templateKey: (selector: string) => string;
}

export interface Judge {
  readonly model: string;
  judgePage(input: JudgePageInput): Promise<{ judged: JudgedCandidate[]; usage: JudgeUsage }>;
}

export interface JudgeOptions {
  apiKey: string;
  baseURL?: string;
  model: string;
  /** Per call. */
  timeoutMs: number;
  cache: VerdictCache;
  logger?: Logger;
  /** Calls one page may make (groups past it wait for a later run). Default 8. */
  maxCallsPerPage?: number;
  /** No call starts after this long on one page. Default 60 s. */
  pageBudgetMs?: number;
  /** Candidates per call; a larger group is split. Default 25. */
  maxPerCall?: number;
  /** How often a caller waiting for another's answer reads the cache. Default 250 ms. */
  waitPollMs?: number;
}

/** A claim is fresh while its call may still run: the call's timeout plus a margin. */
const CLAIM_MARGIN_MS = 5_000;
/** A waiting caller tries to take a released claim over at most this often. */
const RECLAIM_EVERY_MS = 1000;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('judgement cancelled'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason instanceof Error ? signal!.reason : new Error('judgement cancelled'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function judgeNamespace(model: string): string {
  return `${model}@${JUDGE_PROMPT_VERSION}`;
}

export function createJudge(opts: JudgeOptions): Judge {
  const { apiKey, model, cache, logger } = opts;
  const client = new OpenAI({ apiKey, ...(opts.baseURL ? { baseURL: opts.baseURL } : {}), maxRetries: 0, timeout: opts.timeoutMs });
  const namespace = judgeNamespace(model);
  const maxCalls = opts.maxCallsPerPage ?? 8;
  const budgetMs = opts.pageBudgetMs ?? 60_000;
  const perCall = Math.max(1, opts.maxPerCall ?? 25);
  const pollMs = Math.max(1, opts.waitPollMs ?? 250);
  const staleMs = opts.timeoutMs + CLAIM_MARGIN_MS;

  async function ask(kind: JudgementKind, page: { url: string; title: string | null; lang: string | null }, items: AskedCandidate[], signal: AbortSignal | undefined) {
    const completion = await client.chat.completions.create(
      { model, messages: buildJudgeMessages(kind, page, items), response_format: JUDGE_RESPONSE_FORMAT },
      { signal: signal ?? null },
    );
    const choice = completion.choices?.[0];
    if (!choice) throw new Error('the answer has no choices');
    if (choice.message.refusal) throw new Error(`the model refused: ${choice.message.refusal.slice(0, 200)}`);
    if (typeof choice.message.content !== 'string') throw new Error('the answer has no content');
    const parsed = parseVerdicts(choice.message.content, new Set(items.map((i) => i.id)));
    return { ...parsed, inputTokens: completion.usage?.prompt_tokens ?? 0, outputTokens: completion.usage?.completion_tokens ?? 0 };
  }

  return {
    model,
    async judgePage({ scope, page, candidates, signal, templateKey }) {
      const usage: JudgeUsage = { calls: 0, failedCalls: 0, cacheHits: 0, dropped: 0, inputTokens: 0, outputTokens: 0 };
      const judged: JudgedCandidate[] = [];
      if (candidates.candidates.length === 0) return { judged, usage };
      const started = Date.now();
      const keyed = candidates.candidates.map((c) => ({ candidate: c, key: { kind: c.kind, hash: candidateHash(c) } }));
      const cached = await cache.get(scope, namespace, keyed.map((k) => k.key));
      const open: JudgementCandidate[] = [];
      const hashOf = new Map<JudgementCandidate, VerdictKey>();
      for (const { candidate, key } of keyed) {
        const hit = cached.get(verdictKeyString(key));
        if (hit) {
          judged.push({ candidate, verdict: hit, cached: true });
          usage.cacheHits++;
        } else {
          open.push(candidate);
          hashOf.set(candidate, key);
        }
      }
      const pageFacts = { ...page, lang: candidates.pageLang };
      for (const group of judgementGroups(open, templateKey)) {
        // The same content twice on a page (two identical links) is asked once.
        const unique = new Map<string, JudgementCandidate[]>();
        for (const c of group) {
          const k = verdictKeyString(hashOf.get(c)!);
          unique.set(k, [...(unique.get(k) ?? []), c]);
        }
        const entries = [...unique.values()];
        for (let i = 0; i < entries.length; i += perCall) {
          signal?.throwIfAborted();
          if (usage.calls >= maxCalls || Date.now() - started > budgetMs) {
            logger?.info({ scope, url: page.url, calls: usage.calls }, 'judgement budget of the page used up; the rest waits for a later run');
            return { judged, usage };
          }
          let slice = entries.slice(i, i + perCall);
          // Another page's judge asking about the same group right now: wait for its verdicts.
          const groupHash = createHash('sha256')
            .update(slice.map((same) => verdictKeyString(hashOf.get(same[0]!)!)).sort().join(','))
            .digest('hex')
            .slice(0, 32);
          let claimed = false;
          const keys = slice.map((same) => hashOf.get(same[0]!)!);
          /** Takes the verdicts that are cached by now; what is left is still to ask. */
          const takeCached = (got: Map<string, Verdict>) => {
            slice = slice.filter((same) => {
              const v = got.get(verdictKeyString(hashOf.get(same[0]!)!));
              if (!v) return true;
              for (const c of same) judged.push({ candidate: c, verdict: v, cached: true });
              usage.cacheHits++;
              return false;
            });
          };
          if (cache.claim) {
            claimed = await cache.claim(scope, namespace, groupHash, staleMs);
            if (!claimed) {
              // Until its verdicts are there, its claim is given up (then this caller takes it
              // over and asks), or the claim would be stale anyway (then this caller asks too).
              const waitUntil = Math.min(Date.now() + staleMs, started + budgetMs);
              let lastClaim = Date.now();
              for (;;) {
                await sleep(pollMs, signal);
                const got = await cache.get(scope, namespace, keys);
                let done = got.size === keys.length || Date.now() >= waitUntil;
                if (!done && Date.now() - lastClaim >= RECLAIM_EVERY_MS) {
                  lastClaim = Date.now();
                  claimed = await cache.claim(scope, namespace, groupHash, staleMs);
                  done = claimed;
                }
                if (done) {
                  // Claimed now: the other caller may have answered and let go since `got` was read.
                  takeCached(claimed ? await cache.get(scope, namespace, keys) : got);
                  break;
                }
              }
            } else {
              // Another caller may have answered and released the claim between the first read and this claim.
              takeCached(await cache.get(scope, namespace, keys));
            }
            if (slice.length === 0) {
              if (claimed) await cache.release?.(scope, namespace, groupHash).catch(() => undefined);
              continue;
            }
          }
          const items: AskedCandidate[] = slice.map((same, n) => ({ id: `c${n + 1}`, candidate: same[0]! }));
          const kind = items[0]!.candidate.kind;
          usage.calls++;
          try {
            const answer = await ask(kind, pageFacts, items, signal);
            usage.inputTokens += answer.inputTokens;
            usage.outputTokens += answer.outputTokens;
            usage.dropped += answer.dropped;
            const fresh: Array<VerdictKey & Verdict> = [];
            items.forEach((item, n) => {
              const v = answer.verdicts.get(item.id);
              if (!v) return;
              fresh.push({ ...hashOf.get(item.candidate)!, ...v });
              for (const c of slice[n]!) judged.push({ candidate: c, verdict: v, cached: false });
            });
            if (answer.dropped) logger?.warn({ scope, url: page.url, kind, dropped: answer.dropped }, 'judgement: verdicts about ids not asked, repeated or without a reason were dropped');
            await cache.put(scope, namespace, fresh);
          } catch (err) {
            if (signal?.aborted) throw err;
            usage.failedCalls++;
            logger?.warn(
              { scope, url: page.url, kind, candidates: items.length, error: redactSecrets(String((err as Error)?.message ?? err), apiKey).slice(0, 300) },
              'judgement call failed; the heuristics decide these candidates',
            );
          } finally {
            if (claimed) await cache.release?.(scope, namespace, groupHash).catch(() => undefined);
          }
        }
      }
      return { judged, usage };
    },
  };
}
