// Lookups the routes build from a world on first use (listings by id, by country, price factors),
// held per world and day: the world advances in place (advance-world.ts), so a lookup of an earlier
// day is wrong the moment the day moves. A stale lookup is dropped before its successor is built,
// and an advance drops them all, so that a 10M world never holds two days' lookups at once (each
// is a map over millions of listings; held through an advance and a rebuild, they filled the
// simulator's heap, issue 22).
import type { World } from './generate-world.ts';
import { SUPPLIER_IDS } from './types.ts';

interface Entry {
  /** What the lookup was built from: the world's day, and (for worlds changed in place by tests) its sizes. */
  day: number;
  properties: number;
  listings: number[];
  value: unknown;
}

const caches = new WeakMap<World, Map<string, Entry>>();

/** The world's lookup `name` for today, built by `build` on first use today. */
export function dayCached<T>(world: World, name: string, build: () => T): T {
  let cache = caches.get(world);
  if (cache === undefined) caches.set(world, (cache = new Map()));
  if (isFresh(cache, name, world)) return cache.get(name)!.value as T;
  return rebuild(cache, name, world, build);
}

/** Numbers compared, no stamp made: a quote asks two lookups. */
function isFresh(cache: Map<string, Entry>, name: string, world: World): boolean {
  const entry = cache.get(name);
  if (entry === undefined || entry.day !== world.day || entry.properties !== world.properties.length) return false;
  for (let i = 0; i < SUPPLIER_IDS.length; i++) if (entry.listings[i] !== world.listings[SUPPLIER_IDS[i]].length) return false;
  return true;
}

/** Apart from dayCached, as isFresh: no register of dayCached's frame holds the stale lookup during `build`. */
function rebuild<T>(cache: Map<string, Entry>, name: string, world: World, build: () => T): T {
  cache.delete(name);
  const value = build();
  cache.set(name, {
    day: world.day,
    properties: world.properties.length,
    listings: SUPPLIER_IDS.map((s) => world.listings[s].length),
    value,
  });
  return value;
}

/** Drops every lookup of the world: what the world was no longer holds memory. */
export function dropDayCaches(world: World): void {
  caches.delete(world);
}
