/**
 * When `npm start` restarts a service process that died (a Chromium out-of-memory crash, a
 * SIGKILL): at once the first time, then with doubling back-off while it keeps dying soon after
 * starting, and never again once it has failed that way `maxQuickFailures` times in a row.
 */
export interface RestartPolicy {
  /** A process that ran at least this long before dying counts as healthy: back-off starts over. */
  healthyAfterMs: number;
  initialDelayMs: number;
  maxDelayMs: number;
  maxQuickFailures: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { healthyAfterMs: 30_000, initialDelayMs: 1_000, maxDelayMs: 30_000, maxQuickFailures: 5 };

export interface RestartState {
  quickFailures: number;
}

export type RestartDecision = { restart: true; delayMs: number; state: RestartState } | { restart: false; state: RestartState };

export function decideRestart(state: RestartState, ranForMs: number, policy: RestartPolicy = DEFAULT_RESTART_POLICY): RestartDecision {
  const quickFailures = ranForMs >= policy.healthyAfterMs ? 0 : state.quickFailures + 1;
  if (quickFailures > policy.maxQuickFailures) return { restart: false, state: { quickFailures } };
  const delayMs = quickFailures === 0 ? 0 : Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (quickFailures - 1));
  return { restart: true, delayMs, state: { quickFailures } };
}
