/**
 * AI-assisted judgement's storage: the candidates a page's scan collected, the model's verdicts
 * per scope (cache), and the findings its verdicts make or annotate.
 */
import { sql } from 'kysely';
import type { Database } from '../schema.ts';
import type { JudgementCandidate, PageCandidates } from '../../shared/judgement.ts';
import type { NewFindingRecord } from '../../shared/findings.ts';
import type { ViewportName } from '../../shared/contracts.ts';
import { findingToRow } from './scan.repository.ts';

export interface StoredCandidates extends PageCandidates {
  viewport: ViewportName | null;
}

/** Replaces the scan's candidates (a retried scan writes them again). */
export async function saveJudgementCandidates(db: Database, pageScanId: string, c: StoredCandidates): Promise<void> {
  const row = {
    page_scan_id: pageScanId,
    viewport: c.viewport === null ? null : JSON.stringify(c.viewport),
    page_lang: c.pageLang,
    candidates: JSON.stringify(c.candidates),
  };
  await db
    .insertInto('judgement_candidates')
    .values(row)
    .onConflict((oc) => oc.column('page_scan_id').doUpdateSet({ viewport: row.viewport, page_lang: row.page_lang, candidates: row.candidates }))
    .execute();
}

export async function loadJudgementCandidates(db: Database, pageScanId: string): Promise<StoredCandidates | undefined> {
  const row = await db.selectFrom('judgement_candidates').select(['viewport', 'page_lang', 'candidates']).where('page_scan_id', '=', pageScanId).executeTakeFirst();
  if (!row) return undefined;
  return { viewport: (row.viewport as ViewportName | null) ?? null, pageLang: row.page_lang, candidates: (row.candidates as JudgementCandidate[]) ?? [] };
}

export interface CachedVerdictRow {
  kind: string;
  hash: string;
  fails: boolean;
  reason: string;
}

export async function getCachedVerdicts(db: Database, scope: string, namespace: string, keys: ReadonlyArray<{ kind: string; hash: string }>): Promise<CachedVerdictRow[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('judgement_cache')
    .select(['kind', 'content_hash', 'fails', 'reason'])
    .where('scope', '=', scope)
    .where('namespace', '=', namespace)
    .where('content_hash', 'in', [...new Set(keys.map((k) => k.hash))])
    .execute();
  return rows.map((r) => ({ kind: r.kind, hash: r.content_hash, fails: r.fails, reason: r.reason }));
}

export async function putCachedVerdicts(db: Database, scope: string, namespace: string, entries: readonly CachedVerdictRow[]): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('judgement_cache')
    .values(entries.map((e) => ({ scope, namespace, kind: e.kind, content_hash: e.hash, fails: e.fails, reason: e.reason })))
    .onConflict((oc) => oc.columns(['scope', 'kind', 'content_hash', 'namespace']).doUpdateSet({ fails: sql`excluded.fails`, reason: sql`excluded.reason` }))
    .execute();
}

/**
 * Makes this caller the one that asks the model about a group: true when there was no claim, or
 * the one there is older than `staleMs` (its caller died or gave up). Released by deleting it.
 */
export async function claimJudgementGroup(db: Database, scope: string, namespace: string, groupHash: string, staleMs: number): Promise<boolean> {
  const res = await sql<{ group_hash: string }>`
    insert into judgement_claims (scope, group_hash, namespace, claimed_at) values (${scope}, ${groupHash}, ${namespace}, now())
    on conflict (scope, group_hash, namespace) do update set claimed_at = now()
      where judgement_claims.claimed_at < now() - make_interval(secs => ${staleMs / 1000})
    returning group_hash`.execute(db);
  return res.rows.length > 0;
}

export async function releaseJudgementGroup(db: Database, scope: string, namespace: string, groupHash: string): Promise<void> {
  await db.deleteFrom('judgement_claims').where('scope', '=', scope).where('namespace', '=', namespace).where('group_hash', '=', groupHash).execute();
}

/** A verdict on an element some finding of the scan may already be about. */
export interface JudgementNote {
  criterion: string;
  selector: string;
  viewport: ViewportName | null;
  /** Stored as the finding's `data.ai`. */
  ai: Record<string, unknown>;
}

/**
 * Writes the verdicts of one page scan, in one transaction, replacing an earlier attempt's:
 * - a failing verdict becomes its `ai-*` finding (needs review), unless a finding of the scan is
 *   already about the same element and criterion: that one is annotated (`data.ai`, and the AI
 *   rule in `alsoFlaggedBy`) instead, so one barrier stays one issue;
 * - a passing verdict only annotates such a finding (it never removes one).
 */
export async function saveJudgements(db: Database, pageScanId: string, v: { findings: readonly NewFindingRecord[]; passing: readonly JudgementNote[] }): Promise<{ added: number; annotated: number }> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('findings').where('page_scan_id', '=', pageScanId).where('rule_id', 'like', 'ai-%').execute();
    let added = 0;
    let annotated = 0;
    for (const f of v.findings) {
      // A heuristic finding of the same element that fails the criterion (as its primary or a
      // further one) takes the verdict as a note: one barrier stays one issue.
      const noted = await trx
        .updateTable('findings')
        .set({
          data: sql`(data - 'ai') || jsonb_build_object(
            'ai', ${JSON.stringify(f.data.ai ?? null)}::jsonb,
            'alsoFlaggedBy', (select coalesce(jsonb_agg(distinct x), '[]'::jsonb) from jsonb_array_elements(coalesce(data->'alsoFlaggedBy', '[]'::jsonb) || to_jsonb(${f.ruleId}::text)) x))`,
        })
        .where('page_scan_id', '=', pageScanId)
        .where('rule_id', 'not like', 'ai-%')
        .where('element_selector', '=', f.elementSelector)
        .where(sql<boolean>`wcag_criteria @> array[${f.wcagCriterion}]::text[]`)
        .where(sql<boolean>`state is not distinct from ${f.state === null ? null : JSON.stringify(f.state)}::jsonb`)
        .where(sql<boolean>`viewport is not distinct from ${f.viewport === null ? null : JSON.stringify(f.viewport)}::jsonb`)
        .executeTakeFirst();
      if (Number(noted.numUpdatedRows) > 0) {
        annotated++;
        continue;
      }
      const r = await trx
        .insertInto('findings')
        .values(findingToRow(pageScanId, f))
        .onConflict((oc) =>
          oc.constraint('findings_scan_element_criterion_uq').doUpdateSet({
            data: sql`(findings.data - 'ai') || jsonb_build_object(
              'ai', excluded.data->'ai',
              'alsoFlaggedBy', (select coalesce(jsonb_agg(distinct x), '[]'::jsonb) from jsonb_array_elements(coalesce(findings.data->'alsoFlaggedBy', '[]'::jsonb) || to_jsonb(excluded.rule_id)) x))`,
          }),
        )
        .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
        .executeTakeFirst();
      if (r?.inserted) added++;
      else annotated++;
    }
    for (const p of v.passing) {
      const r = await trx
        .updateTable('findings')
        .set({ data: sql`data || jsonb_build_object('ai', ${JSON.stringify(p.ai)}::jsonb)` })
        .where('page_scan_id', '=', pageScanId)
        .where(sql<boolean>`wcag_criteria @> array[${p.criterion}]::text[]`)
        .where('element_selector', '=', p.selector)
        .where('state', 'is', null)
        .where(sql<boolean>`viewport is not distinct from ${p.viewport === null ? null : JSON.stringify(p.viewport)}::jsonb`)
        .executeTakeFirst();
      annotated += Number(r.numUpdatedRows);
    }
    return { added, annotated };
  });
}
