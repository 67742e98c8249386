// The drivers of the slots' APIs: the one list of concrete drivers, shared by the
// composition root (app.ts, which re-exports it) and the content worker's thread, which pulls the
// feeds itself (inventory/content-worker.ts gets this module's URL from app.ts).
import { createSupplierA } from './supplier-a.ts';
import { createHotelbedsDriver } from './hotelbeds.ts';
import { createLiteapiDriver } from './liteapi.ts';
import { createSupplierD } from './supplier-d.ts';
import type { SupplierApi } from '../types.ts';
import type { Supplier, SupplierConfig } from './supplier.ts';

/** The driver of each API (PLACEHOLDERS: the invented formats, until each real driver lands). */
const DRIVERS: Record<SupplierApi, (config: SupplierConfig) => Supplier> = {
  'booking-demand': createSupplierA,
  hotelbeds: createHotelbedsDriver,
  liteapi: createLiteapiDriver,
  'expedia-rapid': createSupplierD,
};

/** This module's URL: the content worker imports it to make adapters of its own (objects with methods cannot cross threads). */
export const SUPPLIERS_MODULE = import.meta.url;

/** A driver per configured slot, each speaking its slot's API. */
export function createSuppliers(configs: readonly SupplierConfig[]): Supplier[] {
  return configs.map((config) => DRIVERS[config.api](config));
}
