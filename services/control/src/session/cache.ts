/**
 * A small time-bounded cache of session lookups, keyed by the cookie's value. An entry lives `ttlMs` at most, so a
 * session revoked elsewhere (another control replica, the database) stops working within that bound; a revocation
 * through this process evicts at once. Bounded in size: the oldest entries go first.
 */
export type TtlCache<V> = {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  deleteWhere(predicate: (value: V) => boolean): void;
};

export function createTtlCache<V>(ttlMs: number, clock: () => Date, maxEntries = 10_000): TtlCache<V> {
  const entries = new Map<string, { value: V; until: number }>();
  return {
    get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (hit.until <= clock().getTime()) {
        entries.delete(key);
        return undefined;
      }
      return hit.value;
    },
    set(key, value) {
      if (ttlMs <= 0) return;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, until: clock().getTime() + ttlMs });
    },
    delete(key) {
      entries.delete(key);
    },
    deleteWhere(predicate) {
      for (const [key, hit] of entries) if (predicate(hit.value)) entries.delete(key);
    },
  };
}
