import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostPacer } from '../../../src/activities/host-pacer.ts';
import { createTestDatabase } from '../../helpers/test-env.ts';

// The host pacer against PostgreSQL: robots.txt's Crawl-delay counts from the answer of the fetch
// before, so a fetch that reaches the site late (a busy worker's browser) never brings the next
// one closer than the site asked; a fetch whose worker never answers holds the host for its lease.

describe('host pacer', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database?.drop());

  const pacerWith = (fetchLeaseMs = 30_000) => createHostPacer(database.db, { hostConcurrency: 4, crawlDelayMaxMs: 10_000, fetchLeaseMs });

  /** A fetch that reaches the site `lateMs` after its slot and gets its answer 20 ms later; answers when the site saw it. */
  async function fetchAt(pacer: ReturnType<typeof pacerWith>, url: string, lateMs: number): Promise<number> {
    const slot = await pacer.before(url);
    await sleep(lateMs);
    const seen = Date.now();
    await sleep(20);
    await slot.done();
    return seen;
  }

  it("spaces what the site sees by its Crawl-delay, however late a fetch left after its slot", async () => {
    // Two workers' pacers (each keeps its own cache), one host that asks for 0.4 s between fetches.
    const a = pacerWith();
    const b = pacerWith();
    const url = 'http://late.test/';
    await a.setCrawlDelay(url, 0.4);
    const seen = await Promise.all([fetchAt(a, url, 300), fetchAt(b, `${url}p1`, 0), fetchAt(a, `${url}p2`, 250), fetchAt(b, `${url}p3`, 0)]);
    seen.sort((x, y) => x - y);
    const gaps = seen.slice(1).map((t, i) => t - seen[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(400);
  });

  it('tells how long each fetch waited for its turn', async () => {
    const pacer = pacerWith();
    const url = 'http://waits.test/';
    await pacer.setCrawlDelay(url, 0.3);
    const first = await pacer.before(url);
    const second = pacer.before(`${url}next`);
    await sleep(100);
    await first.done();
    expect(first.waitedMs).toBe(0);
    expect((await second).waitedMs).toBeGreaterThan(0);
    await (await second).done();
  });

  it('lets the next fetch go when the one before never says it got its answer, once its lease is over', async () => {
    const pacer = pacerWith(500);
    const url = 'http://lost.test/';
    await pacer.setCrawlDelay(url, 0.1);
    await pacer.before(url); // its worker died: no done()
    const next = await pacer.before(`${url}next`);
    expect(next.waitedMs).toBeGreaterThanOrEqual(300);
    await next.done();
  });

  it('holds nothing for a host that asked for no delay and never pushed back', async () => {
    const pacer = pacerWith();
    const slots = await Promise.all(Array.from({ length: 6 }, (_, i) => pacer.before(`http://free.test/p${i}`)));
    expect(slots.map((s) => s.waitedMs)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
