// Starts the four simulated suppliers of a world, each on its own port, as the gateway would meet
// real upstreams: over HTTP, each in its own wire format.
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';
import { close, createSupplierServer, listen, type SupplierRoute, type SupplierServer } from './create-supplier-server.ts';
import { supplierAContentRoute } from './feed-supplier-a.ts';
import { supplierBContentRoute } from './feed-supplier-b.ts';
import { supplierCContentRoute } from './feed-supplier-c.ts';
import { supplierDContentRoute } from './feed-supplier-d.ts';
import type { SimListing, World } from './generate-world.ts';

export interface StartSimSuppliersOptions {
  world: World;
  /** Loopback by default: the simulator is not meant to be reachable from outside the machine. */
  host?: string;
  /** Port per supplier; 0 or absent = an ephemeral port. */
  ports?: Partial<Record<SupplierId, number>>;
}

export interface SimSuppliers {
  /** Base URL per supplier, e.g. "http://127.0.0.1:41234" (no trailing slash). */
  urls: Record<SupplierId, string>;
  close(): Promise<void>;
}

/** The routes each supplier serves. Availability quotes and commission reports join these. */
const ROUTES: Record<SupplierId, (listings: readonly SimListing[]) => SupplierRoute[]> = {
  supplier_a: (listings) => [supplierAContentRoute(listings)],
  supplier_b: (listings) => [supplierBContentRoute(listings)],
  supplier_c: (listings) => [supplierCContentRoute(listings)],
  supplier_d: (listings) => [supplierDContentRoute(listings)],
};

export async function startSimSuppliers({ world, host = '127.0.0.1', ports = {} }: StartSimSuppliersOptions): Promise<SimSuppliers> {
  const servers: SupplierServer[] = SUPPLIER_IDS.map((supplier) =>
    createSupplierServer({ supplier, routes: ROUTES[supplier](world.listings[supplier]) }),
  );
  const closeAll = async (): Promise<void> => {
    await Promise.all(servers.map((s) => close(s.server)));
  };
  try {
    const urls = await Promise.all(servers.map((s) => listen(s.server, ports[s.supplier] ?? 0, host)));
    return {
      urls: Object.fromEntries(SUPPLIER_IDS.map((id, i) => [id, urls[i]])) as Record<SupplierId, string>,
      close: closeAll,
    };
  } catch (error) {
    // One port taken: do not leave the other three listening.
    await closeAll();
    throw error;
  }
}
