/**
 * The model texts of issue groups, shared by every worker, kept per scope (a site, or the host of
 * single-page scans): one tenant's texts are never another's. A missing entry is claimed by
 * inserting a `pending` row (or taking over one whose claim went stale), so exactly one caller pays
 * for it; the others read it once it is `done`.
 */
import { sql } from 'kysely';
import type { Database } from '../database.ts';

/** Group texts stored by group key and cache namespace (model and prompt version). */
export interface CachedGroupTexts {
  description: string;
  fixSuggestion: string;
}

/** A cache entry's key: the group within its tenant's scope (see EnrichmentGroup.scope). */
export interface GroupCacheKey {
  scope: string;
  groupKey: string;
}

/**
 * The cache a model-backed enricher reads and fills, shared by every worker (PostgreSQL). `claim`
 * makes one caller the writer of a missing entry, so two workers never pay for the same group at
 * once: the others wait for its answer (`wait`), or take the claim over when it went stale.
 */
export interface GroupTextCache {
  get(key: GroupCacheKey, namespace: string): Promise<CachedGroupTexts | undefined>;
  /** True when this caller now owns the entry's claim (it was missing, failed, or its claim is older than `staleMs`). */
  claim(key: GroupCacheKey, namespace: string, staleMs: number): Promise<boolean>;
  put(key: GroupCacheKey, namespace: string, texts: CachedGroupTexts, usage: { inputTokens: number; outputTokens: number }): Promise<void>;
  /** Gives the claim up after a failed call, so another caller may try. */
  release(key: GroupCacheKey, namespace: string): Promise<void>;
}

export function createGroupTextCache(db: Database): GroupTextCache {
  return {
    async get({ scope, groupKey }, namespace) {
      const row = await db
        .selectFrom('enrichment_cache')
        .select(['description', 'fix_suggestion'])
        .where('scope', '=', scope)
        .where('group_key', '=', groupKey)
        .where('namespace', '=', namespace)
        .where('status', '=', 'done')
        .executeTakeFirst();
      return row?.description != null && row.fix_suggestion != null ? { description: row.description, fixSuggestion: row.fix_suggestion } : undefined;
    },

    async claim({ scope, groupKey }, namespace, staleMs) {
      const res = await sql<{ group_key: string }>`
        insert into enrichment_cache (scope, group_key, namespace, status, claimed_at)
        values (${scope}, ${groupKey}, ${namespace}, 'pending', now())
        on conflict (scope, group_key, namespace) do update set claimed_at = now(), updated_at = now()
          where enrichment_cache.status = 'pending'
            and (enrichment_cache.claimed_at is null or enrichment_cache.claimed_at < now() - make_interval(secs => ${staleMs / 1000}))
        returning group_key`.execute(db);
      return res.rows.length > 0;
    },

    async put({ scope, groupKey }, namespace, texts: CachedGroupTexts, usage) {
      await db
        .insertInto('enrichment_cache')
        .values({
          scope,
          group_key: groupKey,
          namespace,
          status: 'done',
          description: texts.description,
          fix_suggestion: texts.fixSuggestion,
          input_tokens: usage.inputTokens,
          output_tokens: usage.outputTokens,
          claimed_at: null,
        })
        .onConflict((oc) =>
          oc.columns(['scope', 'group_key', 'namespace']).doUpdateSet({
            status: 'done',
            description: texts.description,
            fix_suggestion: texts.fixSuggestion,
            input_tokens: usage.inputTokens,
            output_tokens: usage.outputTokens,
            claimed_at: null,
            updated_at: sql<Date>`now()`,
          }),
        )
        .execute();
    },

    async release({ scope, groupKey }, namespace) {
      // A released claim is simply stale at once: the next caller takes it over.
      await db
        .updateTable('enrichment_cache')
        .set({ claimed_at: null })
        .where('scope', '=', scope)
        .where('group_key', '=', groupKey)
        .where('namespace', '=', namespace)
        .where('status', '=', 'pending')
        .execute();
    },
  };
}
