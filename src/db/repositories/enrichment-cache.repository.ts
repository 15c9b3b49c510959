/**
 * The model texts of issue groups, shared by every worker. A missing entry is claimed by inserting
 * a `pending` row (or taking over one whose claim went stale), so exactly one caller pays for it;
 * the others read it once it is `done`.
 */
import { sql } from 'kysely';
import type { CachedGroupTexts, GroupTextCache } from '../../activities/ai/enricher.ts';
import type { Database } from '../database.ts';

export function createGroupTextCache(db: Database): GroupTextCache {
  return {
    async get(groupKey, namespace) {
      const row = await db
        .selectFrom('enrichment_cache')
        .select(['description', 'fix_suggestion'])
        .where('group_key', '=', groupKey)
        .where('namespace', '=', namespace)
        .where('status', '=', 'done')
        .executeTakeFirst();
      return row?.description != null && row.fix_suggestion != null ? { description: row.description, fixSuggestion: row.fix_suggestion } : undefined;
    },

    async claim(groupKey, namespace, staleMs) {
      const res = await sql<{ group_key: string }>`
        insert into enrichment_cache (group_key, namespace, status, claimed_at)
        values (${groupKey}, ${namespace}, 'pending', now())
        on conflict (group_key, namespace) do update set claimed_at = now(), updated_at = now()
          where enrichment_cache.status = 'pending'
            and (enrichment_cache.claimed_at is null or enrichment_cache.claimed_at < now() - make_interval(secs => ${staleMs / 1000}))
        returning group_key`.execute(db);
      return res.rows.length > 0;
    },

    async put(groupKey, namespace, texts: CachedGroupTexts, usage) {
      await db
        .insertInto('enrichment_cache')
        .values({
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
          oc.columns(['group_key', 'namespace']).doUpdateSet({
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

    async release(groupKey, namespace) {
      // A released claim is simply stale at once: the next caller takes it over.
      await db
        .updateTable('enrichment_cache')
        .set({ claimed_at: null })
        .where('group_key', '=', groupKey)
        .where('namespace', '=', namespace)
        .where('status', '=', 'pending')
        .execute();
    },
  };
}
