import { sql } from 'kysely';
import { SEVERITIES, type Severity } from '../../shared/contracts.ts';

/** A severity column as a sortable rank, critical 0 to minor 3 (the order of SEVERITIES). */
export function severityRank(column: string) {
  return sql<number>`case ${sql.ref(column)} when 'critical' then 0 when 'serious' then 1 when 'moderate' then 2 else 3 end`;
}

/** The severity a rank from `severityRank` stands for. */
export function severityOfRank(rank: number): Severity {
  return SEVERITIES[rank] ?? 'minor';
}
