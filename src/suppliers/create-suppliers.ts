// The four suppliers' adapters at their base URLs: the one list of concrete adapters, shared by the
// composition root (app.ts, which re-exports it) and the content worker's thread, which pulls the
// feeds itself (inventory/content-worker.ts gets this module's URL from app.ts).
import { createSupplierA } from './supplier-a.ts';
import { createSupplierB } from './supplier-b.ts';
import { createSupplierC } from './supplier-c.ts';
import { createSupplierD } from './supplier-d.ts';
import type { Supplier, SupplierConfig } from './supplier.ts';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';

const ADAPTERS: Record<SupplierId, (config: SupplierConfig) => Supplier> = {
  supplier_a: createSupplierA,
  supplier_b: createSupplierB,
  supplier_c: createSupplierC,
  supplier_d: createSupplierD,
};

/** This module's URL: the content worker imports it to make adapters of its own (objects with methods cannot cross threads). */
export const SUPPLIERS_MODULE = import.meta.url;

/** The adapters of the four suppliers at these base URLs. */
export function createSuppliers(urls: Record<SupplierId, string>): Supplier[] {
  return SUPPLIER_IDS.map((id) => ADAPTERS[id]({ id, baseUrl: urls[id] }));
}
