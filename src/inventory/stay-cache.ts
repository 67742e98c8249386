import { LRUCache } from 'lru-cache';
import type { Store } from '../store/store.ts';
import type { Stay } from '../types.ts';

export interface StayCache {
  /** The stays for the given idx values, in that order; unknown idx are skipped. */
  get(idxs: readonly number[]): Promise<Stay[]>;
}

/**
 * A least-recently-used cache of full stays in front of the store, at most `capacity` of them
 * (lru-cache). The index holds no display text, so every page of results needs its stays;
 * popular areas ask for the same ones again and again, and a content version never changes (a
 * new version gets a new cache with its index). Only the stays not held are read, in one call.
 */
export function createStayCache(store: Pick<Store, 'getStays'>, options: { capacity: number }): StayCache {
  const cache = new LRUCache<number, Stay>({ max: options.capacity });
  return {
    async get(idxs) {
      // What this call returns, so that a page larger than the capacity still comes back whole.
      const found = new Map<number, Stay>();
      const missing = new Set<number>();
      for (const idx of idxs) {
        if (found.has(idx)) continue;
        const stay = cache.get(idx); // marks it most recently used
        if (stay === undefined) missing.add(idx);
        else found.set(idx, stay);
      }
      if (missing.size > 0) {
        for (const stay of await store.getStays([...missing])) {
          cache.set(stay.idx, stay);
          found.set(stay.idx, stay);
        }
      }
      const stays: Stay[] = [];
      for (const idx of idxs) {
        const stay = found.get(idx);
        if (stay !== undefined) stays.push(stay);
      }
      return stays;
    },
  };
}
