// Lookups the routes build from a world on first use (listings by id, by country, price factors),
// held per world and day: the world advances in place (advance-world.ts), so a lookup of an earlier
// day is wrong the moment the day moves. A stale lookup is dropped before its successor is built,
// and an advance drops them all, so that a 10M world never holds two days' lookups at once (each
// is a map over millions of listings; held through an advance and a rebuild, they filled the
// simulator's heap, issue 22).
import type { World } from './generate-world.ts';

interface Entry {
  stamp: string;
  value: unknown;
}

const caches = new WeakMap<World, Map<string, Entry>>();

/** What a lookup of the world depends on: its day, and (for worlds changed in place by tests) its sizes. */
function stampOf({ day, properties, listings: l }: World): string {
  return `${day}:${properties.length}:${l.supplier_a.length}:${l.supplier_b.length}:${l.supplier_c.length}:${l.supplier_d.length}`;
}

/** The world's lookup `name` for today, built by `build` on first use today. */
export function dayCached<T>(world: World, name: string, build: () => T): T {
  let cache = caches.get(world);
  if (cache === undefined) caches.set(world, (cache = new Map()));
  const stamp = stampOf(world);
  if (isFresh(cache, name, stamp)) return cache.get(name)!.value as T;
  return rebuild(cache, name, stamp, build);
}

const isFresh = (cache: Map<string, Entry>, name: string, stamp: string): boolean => cache.get(name)?.stamp === stamp;

/** Apart from dayCached, as isFresh: no register of dayCached's frame holds the stale lookup during `build`. */
function rebuild<T>(cache: Map<string, Entry>, name: string, stamp: string, build: () => T): T {
  cache.delete(name);
  const value = build();
  cache.set(name, { stamp, value });
  return value;
}

/** Drops every lookup of the world: what the world was no longer holds memory. */
export function dropDayCaches(world: World): void {
  caches.delete(world);
}
