import type { Config } from '../config.ts';

/** Hands back a slot; calling it more than once frees the slot once. */
export type Release = () => void;

/**
 * At most `max` of something under way in this process (0 = no cap). Unlike the hourly rate limits,
 * which count in PostgreSQL for every API process, these guard one process's own capacity: its
 * pooled database connections, its CPU, its sockets.
 */
export class Slots {
  readonly max: number;
  #active = 0;

  constructor(max: number) {
    this.max = max;
  }

  get active(): number {
    return this.#active;
  }

  tryAcquire(): Release | undefined {
    if (this.max > 0 && this.#active >= this.max) return undefined;
    this.#active++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#active--;
    };
  }
}

/** At most `max` per key (a client's rate-limit bucket) in this process (0 = no cap). */
export class KeyedSlots {
  readonly max: number;
  readonly #active = new Map<string, number>();

  constructor(max: number) {
    this.max = max;
  }

  active(key: string): number {
    return this.#active.get(key) ?? 0;
  }

  tryAcquire(key: string): Release | undefined {
    const n = this.active(key);
    if (this.max > 0 && n >= this.max) return undefined;
    this.#active.set(key, n + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const left = this.active(key) - 1;
      if (left > 0) this.#active.set(key, left);
      else this.#active.delete(key);
    };
  }
}

/** What one API process lets run at once: report exports, and event streams in all and per client. */
export interface ApiLimits {
  exports: Slots;
  streams: Slots;
  streamsPerClient: KeyedSlots;
}

/** One set per app (createApp): counters are never module state, so two apps in one process do not share them. */
export function createApiLimits(config: Pick<Config, 'exportConcurrency' | 'eventStreamsMax' | 'eventStreamsPerClient'>): ApiLimits {
  return {
    exports: new Slots(config.exportConcurrency),
    streams: new Slots(config.eventStreamsMax),
    streamsPerClient: new KeyedSlots(config.eventStreamsPerClient),
  };
}
