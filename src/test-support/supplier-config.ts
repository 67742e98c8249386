// Test support: a driver's configuration for a slot at a test server or a simulated supplier: the
// slot's default API and the credentials the simulator accepts.
import { SIM_CREDENTIALS } from '@staygate/sim';
import { createSuppliers } from '../suppliers/create-suppliers.ts';
import type { SupplierConfig } from '../suppliers/supplier.ts';
import { DEFAULT_SUPPLIER_APIS, SUPPLIER_IDS, type SupplierApi, type SupplierId } from '../types.ts';
import { defaults } from '../defaults.ts';

export function testSupplierConfig(id: SupplierId, baseUrl: string, api: SupplierApi = DEFAULT_SUPPLIER_APIS[id]): SupplierConfig {
  return { id, api, baseUrl, ...SIM_CREDENTIALS[api] };
}

/**
 * The slots whose default API has a commission report (the sync reads them; the others' transactions
 * come from a CSV import): from the drivers themselves, made and never called.
 */
export const REPORTED_SLOTS: readonly SupplierId[] = SUPPLIER_IDS.filter(
  (id) => createSuppliers([testSupplierConfig(id, 'http://127.0.0.1:9')], defaults)[0]!.commissionReport !== undefined,
);
