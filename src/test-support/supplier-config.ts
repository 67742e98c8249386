// Test support: a driver's configuration for a slot at a test server or a simulated supplier: the
// slot's default API and the credentials the simulator accepts.
import { SIM_CREDENTIALS } from '@staygate/sim';
import type { SupplierConfig } from '../suppliers/supplier.ts';
import { DEFAULT_SUPPLIER_APIS, type SupplierApi, type SupplierId } from '../types.ts';

export function testSupplierConfig(id: SupplierId, baseUrl: string, api: SupplierApi = DEFAULT_SUPPLIER_APIS[id]): SupplierConfig {
  return { id, api, baseUrl, ...SIM_CREDENTIALS[api] };
}
