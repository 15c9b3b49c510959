import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createGroupTextCache } from '../db/repositories/enrichment-cache.repository.ts';
import type { Logger } from '../logger.ts';
import type { Enricher } from './enricher.ts';
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
