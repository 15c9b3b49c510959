/**
 * Answers computed for one version of their data (e.g. a site's `issues_version`), kept in this
 * process until that version changes or room runs out. The version is part of every key, so a
 * write elsewhere (another API process, a crawl's finalization) makes old entries unreachable
 * without any message between processes; the oldest entries are dropped first.
 */
export interface VersionedCache<T> {
  get(key: string, version: string): T | undefined;
  set(key: string, version: string, value: T): void;
}

export function createVersionedCache<T>(maxEntries: number): VersionedCache<T> {
  const entries = new Map<string, T>();
  return {
    get(key, version) {
      const k = `${version}\u0000${key}`;
      const v = entries.get(k);
      if (v !== undefined) {
        // Most recently used last, so eviction takes the least recently used.
        entries.delete(k);
        entries.set(k, v);
      }
      return v;
    },
    set(key, version, value) {
      const k = `${version}\u0000${key}`;
      entries.delete(k);
      entries.set(k, value);
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
  };
}
