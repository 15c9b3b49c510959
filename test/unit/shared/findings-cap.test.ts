import { describe, expect, it } from 'vitest';
import { capFindings } from '../../../src/shared/findings-cap.ts';

const f = (ruleId: string, type: string, severity: string, n = 1) => Array.from({ length: n }, () => ({ ruleId, type, severity }));

describe('findings per page', () => {
  it('keeps everything under the cap', () => {
    const all = [...f('a', 'confirmed', 'minor', 3)];
    expect(capFindings(all, 3)).toEqual({ kept: all, leftOut: null });
  });

  it('keeps one of every rule, then the most important, and counts the rest per rule', () => {
    const all = [...f('contrast', 'needs_review', 'serious', 10), ...f('image-alt', 'confirmed', 'critical', 4), ...f('rare', 'needs_review', 'minor', 1)];
    const { kept, leftOut } = capFindings(all, 6);
    expect(kept).toHaveLength(6);
    expect(kept.filter((k) => k.ruleId === 'image-alt')).toHaveLength(4);
    expect(kept.filter((k) => k.ruleId === 'rare')).toHaveLength(1);
    expect(kept.filter((k) => k.ruleId === 'contrast')).toHaveLength(1);
    expect(leftOut).toEqual({ total: 9, byRule: { contrast: 9 } });
  });
});
