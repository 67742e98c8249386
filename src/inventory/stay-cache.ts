import type { Store } from '../store/store.ts';
import type { Stay } from '../types.ts';

export interface StayCache {
  /** The stays for the given idx values, in that order; unknown idx are skipped. */
  get(idxs: readonly number[]): Promise<Stay[]>;
}

/**
 * A least-recently-used cache of full stays in front of the store. The index holds no display
 * text, so every page of results needs its stays; popular areas ask for the same ones again and
 * again, and the inventory only changes on re-ingest (when the cache is rebuilt with the index).
 */
export function createStayCache(store: Pick<Store, 'getStays'>, options: { capacity: number }): StayCache {
  const cache = new Map<number, Stay>();
  return {
    async get(idxs) {
      const missing: number[] = [];
      for (const idx of idxs) if (!cache.has(idx)) missing.push(idx);
      if (missing.length > 0) {
        for (const stay of await store.getStays(missing)) {
          cache.set(stay.idx, stay);
          if (cache.size > options.capacity) cache.delete(cache.keys().next().value!);
        }
      }
      const stays: Stay[] = [];
      for (const idx of idxs) {
        const stay = cache.get(idx);
        if (stay === undefined) continue;
        // Re-insert to mark as most recently used (Map keeps insertion order).
        cache.delete(idx);
        cache.set(idx, stay);
        stays.push(stay);
      }
      return stays;
    },
  };
}
