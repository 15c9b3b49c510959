import type { ScanEngine } from '../../src/audit/engines/engine.ts';

/**
 * An engine that runs after the others and reports the state they left the page in: the
 * viewport, and whatever `read` (run in the page) returns, pushed to `into`.
 */
export function stateAfter(into: Array<Record<string, unknown>>, read: () => Record<string, unknown>): ScanEngine {
  return {
    id: 'state-after',
    stage: 'CustomChecks',
    async run({ page: p }) {
      into.push({ viewport: p.viewportSize(), ...(await p.evaluate(read)) });
      return { findings: [] };
    },
  };
}
