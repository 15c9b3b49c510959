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

/**
 * The repositories' caches belong to the database handle they read through (the one createDb made,
 * or a transaction), not to their modules: two apps or tests in one process never share entries,
 * and dropping the handle drops them.
 */
const caches = new WeakMap<object, Map<string, VersionedCache<unknown>>>();

/** The handle's cache called `name`, made on its first use. */
export function cacheOf<T>(db: object, name: string, maxEntries: number): VersionedCache<T> {
  let own = caches.get(db);
  if (!own) caches.set(db, (own = new Map()));
  let cache = own.get(name);
  if (!cache) own.set(name, (cache = createVersionedCache<unknown>(maxEntries)));
  return cache as VersionedCache<T>;
}
