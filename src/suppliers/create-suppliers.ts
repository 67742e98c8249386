// The drivers of the slots' APIs: the one list of concrete drivers, shared by the
// composition root (app.ts, which re-exports it) and the content worker's thread, which pulls the
// feeds itself (inventory/content-worker.ts gets this module's URL from app.ts).
import { createBookingDemandDriver } from './booking-demand.ts';
import { createHotelbedsDriver } from './hotelbeds.ts';
import { createLiteapiDriver } from './liteapi.ts';
import { createExpediaRapidDriver } from './expedia-rapid.ts';
import type { SupplierApi } from '../types.ts';
import type { DriverSettings, Supplier, SupplierConfig } from './supplier.ts';

/** The driver of each API: each speaks its supplier's published wire format (docs/suppliers/). */
const DRIVERS: Record<SupplierApi, (config: SupplierConfig, settings: DriverSettings) => Supplier> = {
  'booking-demand': createBookingDemandDriver,
  hotelbeds: createHotelbedsDriver,
  liteapi: createLiteapiDriver,
  'expedia-rapid': createExpediaRapidDriver,
};

/** This module's URL: the content worker imports it to make adapters of its own (objects with methods cannot cross threads). */
export const SUPPLIERS_MODULE = import.meta.url;

/** A driver per configured slot, each speaking its slot's API, with the figures of `settings`. */
export function createSuppliers(configs: readonly SupplierConfig[], settings: DriverSettings): Supplier[] {
  return configs.map((config) => DRIVERS[config.api](config, settings));
}
