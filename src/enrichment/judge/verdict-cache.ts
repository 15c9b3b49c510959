import type { Database } from '../../db/database.ts';
import { claimJudgementGroup, getCachedVerdicts, putCachedVerdicts, releaseJudgementGroup } from '../../db/repositories/judgement.repository.ts';
import type { JudgementKind } from '../../shared/judgement.ts';
import { verdictKeyString, type VerdictCache } from './judge.ts';

/** The verdict cache in PostgreSQL, shared by every worker (table judgement_cache). */
export function createVerdictCache(db: Database): VerdictCache {
  return {
    async get(scope, namespace, keys) {
      const rows = await getCachedVerdicts(db, scope, namespace, keys);
      const wanted = new Set(keys.map(verdictKeyString));
      const out = new Map<string, { fails: boolean; reason: string }>();
      for (const r of rows) {
        const k = verdictKeyString({ kind: r.kind as JudgementKind, hash: r.hash });
        if (wanted.has(k)) out.set(k, { fails: r.fails, reason: r.reason });
      }
      return out;
    },
    put: (scope, namespace, entries) => putCachedVerdicts(db, scope, namespace, entries),
    claim: (scope, namespace, groupHash, staleMs) => claimJudgementGroup(db, scope, namespace, groupHash, staleMs),
    release: (scope, namespace, groupHash) => releaseJudgementGroup(db, scope, namespace, groupHash),
  };
}
