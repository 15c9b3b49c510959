import { describe, expect, it } from 'vitest';
import { unfinishedEngines } from '../../../src/shared/contracts.ts';
import { enginesEndAt } from '../../../src/audit/scan-url.ts';

describe('unfinishedEngines', () => {
  it('lists each engine that did not finish once, with the first reason seen, in run order', () => {
    const runs = [
      { engine: 'axe' },
      { engine: 'forms', unfinished: 'failed' as const },
      { engine: 'keyboard', unfinished: 'out_of_time' as const },
      { engine: 'axe' },
      { engine: 'forms', unfinished: 'out_of_time' as const },
      { engine: 'reflow', unfinished: 'out_of_time' as const },
    ];
    expect(unfinishedEngines(runs)).toEqual([
      { engine: 'forms', reason: 'failed' },
      { engine: 'keyboard', reason: 'out_of_time' },
      { engine: 'reflow', reason: 'out_of_time' },
    ]);
  });

  it('is empty when every engine finished', () => {
    expect(unfinishedEngines([{ engine: 'axe' }, { engine: 'title' }])).toEqual([]);
  });
});

describe('enginesEndAt', () => {
  it('keeps 15 s of a long deadline free of the engines, and a fifth of a short one', () => {
    expect(enginesEndAt(1_000_000, 120_000)).toBe(985_000);
    expect(enginesEndAt(1_000_000, 10_000)).toBe(998_000);
  });
});
