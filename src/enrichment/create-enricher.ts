import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createGroupTextCache } from '../db/repositories/enrichment-cache.repository.ts';
import type { Logger } from '../logger.ts';
import type { Enricher } from './enricher.ts';
import { createJudge, type Judge } from './judge/judge.ts';
import { createVerdictCache } from './judge/verdict-cache.ts';
import { createOfflineEnricher } from './offline-enricher.ts';
import { createOpenAiEnricher } from './openai-enricher.ts';

/** The worker's enricher, chosen once from configuration: a configured OpenAI-compatible model, else offline. */
export function createEnricher(openai: Config['openai'], db: Database, logger: Logger): Enricher {
  if (!openai) return createOfflineEnricher();
  return createOpenAiEnricher({
    apiKey: openai.apiKey,
    baseURL: openai.baseUrl,
    model: openai.model,
    timeoutMs: openai.timeoutMs,
    cache: createGroupTextCache(db),
    logger,
  });
}

/**
 * AI-assisted judgement with the same model, when one is configured and AI_JUDGEMENT is not off;
 * undefined otherwise (then nothing is collected for it and the heuristics decide alone).
 */
export function createJudgeFor(openai: Config['openai'], db: Database, logger: Logger): Judge | undefined {
  if (!openai?.judgement) return undefined;
  return createJudge({ apiKey: openai.apiKey, baseURL: openai.baseUrl, model: openai.model, timeoutMs: openai.timeoutMs, cache: createVerdictCache(db), logger });
}
