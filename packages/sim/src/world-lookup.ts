// Listings by supplier id, as quotes, booking pages and the booking ledger look them up. Built once
// per world and day: the world advances in place (advance-world.ts), and a closed listing must stop
// quoting and landing the moment its day comes.
import { SUPPLIER_IDS, type SupplierId } from './types.ts';
import type { SimListing, World } from './generate-world.ts';
import { dayCached } from './day-cache.ts';

interface Lookup {
  open: Record<SupplierId, Map<string, SimListing>>;
  /** Closed only (a booking made before a closure is still reported): `open` is not held twice over. */
  closed: Record<SupplierId, Map<string, SimListing>>;
}

/** Without a [key, value] pair per listing on the way (millions of them at 10M listings). */
function byId(listings: readonly SimListing[]): Map<string, SimListing> {
  const map = new Map<string, SimListing>();
  for (const l of listings) map.set(l.supplierStayId, l);
  return map;
}

function lookup(world: World): Lookup {
  return dayCached(world, 'world-lookup', () => ({
    open: Object.fromEntries(SUPPLIER_IDS.map((s) => [s, byId(world.listings[s])])) as Lookup['open'],
    closed: Object.fromEntries(SUPPLIER_IDS.map((s) => [s, byId(world.closed[s])])) as Lookup['closed'],
  }));
}

/** Builds today's lookup ahead of the first call that needs it. */
export function prepareWorldLookup(world: World): void {
  lookup(world);
}

/** The listing a supplier sells today under this id, or undefined (never sold, or closed). */
export function openListing(world: World, supplier: SupplierId, supplierStayId: string): SimListing | undefined {
  return lookup(world).open[supplier].get(supplierStayId);
}

/** The listing a supplier sells or once sold under this id. */
export function anyListing(world: World, supplier: SupplierId, supplierStayId: string): SimListing | undefined {
  const { open, closed } = lookup(world);
  // A closed listing's id is never reused (advance-world.ts), so an id is in at most one of the two.
  return open[supplier].get(supplierStayId) ?? closed[supplier].get(supplierStayId);
}
