/**
 * The enricher seam: what writes an issue's description and fix. The worker chooses one enricher
 * from configuration at start-up (the offline one by default; an OpenAI-compatible model when
 * OPENAI_API_KEY or OPENAI_BASE_URL is set) and hands it to the enrichment activities; nothing else
 * knows which one runs.
 *
 * Work is per issue group: the findings of one page that share a group key (same rule, same element
 * of the same page template). A model is asked once per group and its texts are reused for every
 * member and, through the cache, for the same group on every other page and later crawls.
 */
import type { FindingRecord } from '../shared/findings.ts';

export type { CachedGroupTexts, GroupCacheKey, GroupTextCache } from '../db/repositories/enrichment-cache.repository.ts';

/** The findings of one page that share a group key, with the page they are on. */
export interface EnrichmentGroup {
  groupKey: string;
  /**
   * Whose pages these are: `site:<siteId>` for a crawl's page, `scan-host:<hostname>` for a
   * single-page scan. Texts a model wrote are cached and reused only within one scope: they come
   * from the page's HTML and URLs (perhaps pages behind a login, perhaps a prompt injection), so
   * they must never reach another tenant.
   */
  scope: string;
  /** At least one; the first is the representative example. */
  members: readonly FindingRecord[];
  page: { url: string; title: string | null };
}

export interface FindingTextsOut {
  /** The finding's id. */
  id: string;
  description: string;
  fixSuggestion: string;
  /** `offline`, or the model's name for AI-written texts. */
  enrichedBy: string;
}

/** What a group's enrichment cost: model calls made, answers taken from the cache, tokens. */
export interface EnrichmentUsage {
  calls: number;
  cacheHits: number;
  inputTokens: number;
  outputTokens: number;
}

export const NO_USAGE: EnrichmentUsage = Object.freeze({ calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 });

export interface Enricher {
  /** `offline`, or `openai:<model>`; shown in logs. */
  readonly name: string;
  /**
   * Texts for every member of the group, in the members' order. Throws a Temporal
   * ApplicationFailure for errors retrying cannot fix (non-retryable), anything else for errors a
   * retry may fix. Honours `signal` (the activity's cancellation).
   */
  describeGroup(group: EnrichmentGroup, opts?: { signal?: AbortSignal }): Promise<{ texts: FindingTextsOut[]; usage: EnrichmentUsage }>;
}

