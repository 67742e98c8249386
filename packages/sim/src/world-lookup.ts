// Listings by supplier id, as quotes, booking pages and the booking ledger look them up. Built once
// per world and day: the world advances in place (advance-world.ts), and a closed listing must stop
// quoting and landing the moment its day comes.
import { SUPPLIER_IDS, type SupplierId } from './types.ts';
import type { SimListing, World } from './generate-world.ts';

interface Lookup {
  day: number;
  size: number;
  open: Record<SupplierId, Map<string, SimListing>>;
  /** Open and closed: a booking made before a closure is still reported. */
  ever: Record<SupplierId, Map<string, SimListing>>;
}

const lookups = new WeakMap<World, Lookup>();

function lookup(world: World): Lookup {
  const size = world.properties.length;
  let found = lookups.get(world);
  if (found !== undefined && found.day === world.day && found.size === size) return found;
  const open = Object.fromEntries(
    SUPPLIER_IDS.map((s) => [s, new Map(world.listings[s].map((l) => [l.supplierStayId, l]))]),
  ) as Lookup['open'];
  const ever = Object.fromEntries(
    SUPPLIER_IDS.map((s) => [s, new Map([...open[s], ...world.closed[s].map((l) => [l.supplierStayId, l] as const)])]),
  ) as Lookup['ever'];
  found = { day: world.day, size, open, ever };
  lookups.set(world, found);
  return found;
}

/** The listing a supplier sells today under this id, or undefined (never sold, or closed). */
export function openListing(world: World, supplier: SupplierId, supplierStayId: string): SimListing | undefined {
  return lookup(world).open[supplier].get(supplierStayId);
}

/** The listing a supplier sells or once sold under this id. */
export function anyListing(world: World, supplier: SupplierId, supplierStayId: string): SimListing | undefined {
  return lookup(world).ever[supplier].get(supplierStayId);
}
