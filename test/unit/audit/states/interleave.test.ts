import { describe, expect, it } from 'vitest';
import { interleaveByKind } from '../../../../src/audit/states/find-triggers.ts';
import type { TriggerInfo, TriggerKind } from '../../../../src/audit/states/probe.ts';

const t = (index: number, kind: TriggerKind): TriggerInfo => ({ index, kind, selector: `#t${index}`, label: `t${index}` });

describe('interleaveByKind', () => {
  it('takes one trigger of each kind in turn, in tree order within a kind, and keeps them all', () => {
    const triggers = [t(0, 'details'), t(1, 'details'), t(2, 'details'), t(3, 'menu'), t(4, 'tab'), t(5, 'details'), t(6, 'menu')];
    expect(interleaveByKind(triggers).map((x) => x.index)).toEqual([0, 3, 4, 1, 6, 2, 5]);
    expect(interleaveByKind([])).toEqual([]);
  });
});
