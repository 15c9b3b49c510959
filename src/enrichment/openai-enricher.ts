/**
 * The enricher backed by an OpenAI-compatible chat completions API: one structured-output call per
 * issue group, its texts reused for every member and, through the shared cache, for the same group
 * on every other page and crawl.
 *
 * The client never retries (`maxRetries: 0`): Temporal's retry policy owns retries. Errors map to
 * Temporal failures: the API refusing the request itself (400, 401, 403, 404, 422, a refusal) is
 * non-retryable `EnrichmentRejected`; rate limits, 5xx, connection errors, timeouts and answers that
 * are not valid are retryable `EnrichmentFailed`. No message ever carries the API key.
 */
import { ApplicationFailure } from '@temporalio/activity';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { FAILURE_TYPES } from '../shared/contracts.ts';
import type { Logger } from '../logger.ts';
import type { CachedGroupTexts, Enricher, EnrichmentGroup, EnrichmentUsage, FindingTextsOut, GroupTextCache } from './enricher.ts';
import { PROMPT_VERSION, RESPONSE_FORMAT, buildMessages, parseAnswer } from './prompt.ts';

export interface OpenAiEnricherOptions {
  apiKey: string;
  /** An OpenAI-compatible API, e.g. `http://127.0.0.1:8080/v1`; OpenAI's own when absent. */
  baseURL?: string;
  model: string;
  /** Per call; the client's own timeout. */
  timeoutMs: number;
  cache: GroupTextCache;
  logger?: Logger;
  /** How often a caller waiting for another caller's answer reads the cache. Default 250 ms. */
  waitPollMs?: number;
  /** Passed as `max_completion_tokens` when set. */
  maxCompletionTokens?: number;
  /**
   * The clock (epoch ms) that paces a waiting caller's takeover attempts and bounds its wait, and
   * times calls for the log. `Date.now` when absent; tests pass a fake one to move time on.
   */
  now?: () => number;
}

/** Statuses that mean the request itself is wrong (key, model, parameters): retrying cannot help. */
const REJECTED_STATUSES = new Set([400, 401, 403, 404, 422]);
/** A claim is fresh while its call may still be running: the call's timeout plus a margin. */
const CLAIM_MARGIN_MS = 15_000;
/** A waiting caller tries to take a released or stale claim over at most this often. */
const RECLAIM_EVERY_MS = 1000;
/** Longest `Retry-After` honoured as the next retry's delay. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

export function cacheNamespace(model: string): string {
  return `${model}@${PROMPT_VERSION}`;
}

/** Removes the API key, and anything that looks like one or like a bearer token, from a message. */
export function redactSecrets(message: string, apiKey: string): string {
  let out = message;
  if (apiKey.length >= 4) out = out.split(apiKey).join('[redacted]');
  return out
    .replace(/\bBearer\s+\S+/gi, 'Bearer [redacted]')
    .replace(/\bsk-[A-Za-z0-9_*.-]{6,}/g, 'sk-[redacted]');
}

function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new Error('enrichment cancelled');
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return Math.min(ms, MAX_RETRY_AFTER_MS);
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  const secs = Number(raw);
  const delay = Number.isFinite(secs) ? secs * 1000 : Date.parse(raw) - Date.now();
  return Number.isFinite(delay) && delay > 0 ? Math.min(delay, MAX_RETRY_AFTER_MS) : undefined;
}

/** The Temporal failure for an error of a model call. */
export function toFailure(err: unknown, ctx: { apiKey: string; model: string; timeoutMs: number }): ApplicationFailure {
  const clean = (s: string) => redactSecrets(s, ctx.apiKey).slice(0, 500);
  const prefix = `model ${ctx.model}`;
  if (err instanceof APIConnectionTimeoutError) {
    return ApplicationFailure.retryable(`${prefix}: no answer within ${ctx.timeoutMs} ms`, FAILURE_TYPES.enrichmentFailed);
  }
  if (err instanceof APIConnectionError) {
    const cause = (err as { cause?: { cause?: { code?: unknown }; code?: unknown; message?: unknown } }).cause;
    const code = cause?.cause?.code ?? cause?.code;
    return ApplicationFailure.retryable(
      clean(`${prefix}: could not reach the API${typeof code === 'string' ? ` (${code})` : ''}: ${err.message}`),
      FAILURE_TYPES.enrichmentFailed,
    );
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    const message = clean(`${prefix}: API answered ${err.message}`);
    if (REJECTED_STATUSES.has(err.status)) return ApplicationFailure.nonRetryable(message, FAILURE_TYPES.enrichmentRejected);
    const delay = err.status === 429 ? retryAfterMs(err.headers as Headers | undefined) : undefined;
    return ApplicationFailure.create({ message, type: FAILURE_TYPES.enrichmentFailed, nonRetryable: false, ...(delay ? { nextRetryDelay: delay } : {}) });
  }
  const message = err instanceof Error ? err.message : String(err);
  return ApplicationFailure.retryable(clean(`${prefix}: ${message}`), FAILURE_TYPES.enrichmentFailed);
}

class RefusalError extends Error {}

export function createOpenAiEnricher(opts: OpenAiEnricherOptions): Enricher {
  const { apiKey, model, timeoutMs, cache, logger } = opts;
  const now = opts.now ?? Date.now;
  const client = new OpenAI({ apiKey, ...(opts.baseURL ? { baseURL: opts.baseURL } : {}), maxRetries: 0, timeout: timeoutMs });
  const namespace = cacheNamespace(model);
  const staleMs = timeoutMs + CLAIM_MARGIN_MS;
  const pollMs = Math.max(1, opts.waitPollMs ?? 250);
  /** Bound on waiting for other callers: a fresh claim always goes stale within `staleMs`. */
  const maxWaitMs = 2 * staleMs + RECLAIM_EVERY_MS;
  const failureCtx = { apiKey, model, timeoutMs };

  const textsFor = (group: EnrichmentGroup, t: CachedGroupTexts): FindingTextsOut[] =>
    group.members.map((m) => ({ id: m.id, description: t.description, fixSuggestion: t.fixSuggestion, enrichedBy: model }));

  const fromCache = (group: EnrichmentGroup, t: CachedGroupTexts) => ({
    texts: textsFor(group, t),
    usage: { calls: 0, cacheHits: 1, inputTokens: 0, outputTokens: 0 } satisfies EnrichmentUsage,
  });

  /** The one model call for a group whose claim this caller owns; releases the claim on failure. */
  async function callModel(group: EnrichmentGroup, signal: AbortSignal | undefined) {
    const started = now();
    let completion: ChatCompletion;
    let texts: CachedGroupTexts;
    let inputTokens = 0;
    let outputTokens = 0;
    try {
      completion = await client.chat.completions.create(
        {
          model,
          messages: buildMessages(group),
          response_format: RESPONSE_FORMAT,
          ...(opts.maxCompletionTokens ? { max_completion_tokens: opts.maxCompletionTokens } : {}),
        },
        { signal: signal ?? null },
      );
      inputTokens = completion.usage?.prompt_tokens ?? 0;
      outputTokens = completion.usage?.completion_tokens ?? 0;
      const choice = completion.choices?.[0];
      if (!choice) throw new Error('the answer has no choices');
      if (choice.message.refusal) throw new RefusalError(`the model refused: ${choice.message.refusal.slice(0, 200)}`);
      if (choice.finish_reason === 'content_filter') throw new RefusalError('the answer was withheld by the content filter');
      if (typeof choice.message.content !== 'string') throw new Error('the answer has no content');
      try {
        texts = parseAnswer(choice.message.content);
      } catch (err) {
        const why = (err as Error).message;
        throw new Error(choice.finish_reason === 'length' ? `the answer was cut off at the token limit (${why})` : why);
      }
    } catch (err) {
      await cache.release(group, namespace).catch((e: unknown) => {
        logger?.warn({ groupKey: group.groupKey, err: redactSecrets(String(e), apiKey) }, 'could not release the enrichment claim');
      });
      if (signal?.aborted) throw abortReason(signal);
      const failure =
        err instanceof RefusalError
          ? ApplicationFailure.nonRetryable(redactSecrets(`model ${model}: ${err.message}`, apiKey), FAILURE_TYPES.enrichmentRejected)
          : toFailure(err, failureCtx);
      logger?.warn(
        { groupKey: group.groupKey, model, type: failure.type, nonRetryable: failure.nonRetryable, inputTokens, outputTokens, ms: now() - started },
        `enrichment call failed: ${failure.message}`,
      );
      throw failure;
    }
    try {
      await cache.put(group, namespace, texts, { inputTokens, outputTokens });
    } catch (err) {
      // Without the release the claim would block every other caller until it goes stale.
      await cache.release(group, namespace).catch(() => undefined);
      throw err;
    }
    logger?.debug({ groupKey: group.groupKey, model, inputTokens, outputTokens, ms: now() - started }, 'group enriched by the model');
    return { texts: textsFor(group, texts), usage: { calls: 1, cacheHits: 0, inputTokens, outputTokens } satisfies EnrichmentUsage };
  }

  return {
    name: `openai:${model}`,

    async describeGroup(group, { signal } = {}) {
      if (group.members.length === 0) return { texts: [], usage: { calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 } };
      if (signal?.aborted) throw abortReason(signal);
      // Within the group's own scope only: never another tenant's texts.
      const key = { scope: group.scope, groupKey: group.groupKey };

      const hit = await cache.get(key, namespace);
      if (hit) return fromCache(group, hit);
      if (await cache.claim(key, namespace, staleMs)) return callModel(group, signal);

      // Another caller is writing this entry: wait for its answer. Its claim goes stale after
      // `staleMs` (or at once when it fails and releases it); only then may this caller take over.
      const waitStart = now();
      let lastClaim = waitStart;
      for (;;) {
        await sleep(pollMs, signal);
        const texts = await cache.get(key, namespace);
        if (texts) return fromCache(group, texts);
        if (now() - lastClaim >= RECLAIM_EVERY_MS) {
          lastClaim = now();
          if (await cache.claim(key, namespace, staleMs)) return callModel(group, signal);
        }
        if (now() - waitStart > maxWaitMs) {
          throw ApplicationFailure.retryable(`gave up waiting ${maxWaitMs} ms for another worker's answer for group ${key.groupKey}`, FAILURE_TYPES.enrichmentFailed);
        }
      }
    },
  };
}
