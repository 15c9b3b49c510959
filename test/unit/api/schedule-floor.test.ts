import { describe, expect, it } from 'vitest';
import { scheduleProblem } from '../../../src/api/schedules.ts';

/** A fixed "now", so that the coming year's offset changes are the same on every run. */
const NOW = Date.UTC(2027, 0, 10, 12);
const problem = (cron: string, timezone?: string) => scheduleProblem({ cron, timezone }, NOW);

describe('the schedule floor: no two runs closer than 5 minutes, ever', () => {
  it.each([
    ['0,10,20,30,40,50-59 * * * *', 'its next six runs are 10 minutes apart, then it fires every minute for ten minutes an hour'],
    ['0,10,20,30,40,50,51 * * * *', 'one pair an hour, 1 minute apart'],
    ['*/4 * * * *', 'every 4 minutes'],
    ['* 0 29 2 *', 'every minute of one hour of a leap day'],
    ['0,58 * * * *', 'the pair straddles the hour: 58 and 0 of the next'],
    ['1,58 0,23 * * *', 'the pair straddles midnight: 23:58 and 00:01 of the next day'],
    ['0-4 3 * * 1', 'five runs a minute apart once a week'],
  ])('refuses %s (%s)', (cron) => {
    expect(problem(cron)).toMatchObject({ path: 'cron', message: expect.stringMatching(/at least 5 minutes apart: runs at \d\d:\d\d and \d\d:\d\d UTC/) });
  });

  it.each([
    ['*/5 * * * *'],
    ['0,5,10,15,20,25,30,35,40,45,50,55 * * * *'],
    ['0 0 29 2 *'],
    ['0 3 * * 1'],
    ['55 23 * * *'],
    ['0 */6 * * *'],
    ['@hourly'],
    ['@daily'],
    ['@midnight'],
    ['@weekly'],
    ['@monthly'],
    ['@yearly'],
    ['@annually'],
  ])('accepts %s', (cron) => {
    expect(problem(cron)).toBeUndefined();
    expect(problem(cron, 'Europe/London')).toBeUndefined();
    expect(problem(cron, 'America/New_York')).toBeUndefined();
  });

  it('names the two runs that are too close', () => {
    expect(problem('0,10,20,30,40,50-59 * * * *')?.message).toContain('runs at 00:50 and 00:51 UTC on a day it fires are 1 minute apart');
    expect(problem('1,58 0,23 * * *')?.message).toContain('runs at 23:58 and 00:01 UTC on a day it fires are 3 minutes apart');
  });

  it('refuses runs that a time zone change brings together (spring forward: 01:59 EST and 03:00 EDT)', () => {
    expect(problem('0,59 1,3 * * *')).toBeUndefined();
    expect(problem('0,59 1,3 * * *', 'America/New_York')).toEqual({
      path: 'cron',
      message: expect.stringContaining('in America/New_York, 2027-03-14T06:59:00.000Z and 2027-03-14T07:00:00.000Z are 1 minute apart'),
    });
  });

  it('refuses runs that a repeated hour brings together (fall back: 01:58 BST and 01:00 GMT)', () => {
    expect(problem('0,58 1 * * *')).toBeUndefined();
    expect(problem('0,58 1 * * *', 'Europe/London')?.message).toContain('in Europe/London, 2027-10-31T00:58:00.000Z and 2027-10-31T01:00:00.000Z are 2 minutes apart');
  });

  it('keeps its other answers: syntax, time zone, never firing, intervals', () => {
    expect(problem('* * * *')).toMatchObject({ path: 'cron', message: expect.stringContaining('five fields') });
    expect(problem('@every 5m')).toMatchObject({ path: 'cron', message: expect.stringContaining('five fields') });
    expect(problem('0 3 * * 1', 'Mars/Olympus')).toMatchObject({ path: 'timezone' });
    expect(problem('0 0 30 2 *')).toEqual({ path: 'cron', message: 'the expression never fires' });
    expect(scheduleProblem({ every: '4m' })).toMatchObject({ path: 'every' });
    expect(scheduleProblem({ every: '5m' })).toBeUndefined();
  });

  it('decides quickly even for the densest allowed expression in a zone with DST', () => {
    const started = performance.now();
    expect(problem('*/5 * * * *', 'Europe/Berlin')).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
