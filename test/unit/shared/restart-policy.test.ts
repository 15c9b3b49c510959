import { describe, expect, it } from 'vitest';
import { decideRestart, type RestartPolicy } from '../../../src/shared/restart-policy.ts';

const policy: RestartPolicy = { healthyAfterMs: 30_000, initialDelayMs: 1_000, maxDelayMs: 8_000, maxQuickFailures: 5 };

describe('restarting a dead service process', () => {
  it('restarts at once after a long healthy run', () => {
    expect(decideRestart({ quickFailures: 3 }, 45_000, policy)).toEqual({ restart: true, delayMs: 0, state: { quickFailures: 0 } });
  });

  it('backs off, doubling up to the cap, while it keeps dying soon after starting, then gives up', () => {
    let state = { quickFailures: 0 };
    const delays: number[] = [];
    for (;;) {
      const d = decideRestart(state, 2_000, policy);
      state = d.state;
      if (!d.restart) break;
      delays.push(d.delayMs);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
    expect(state.quickFailures).toBe(6);
  });
});
