// Which module speaks which API: the one list of them (start-sim-suppliers.ts mounts a slot's).
import type { ApiModule, SupplierApi } from './api-slot.ts';
import { bookingDemandApi } from './booking-demand.ts';
import { expediaRapidApi } from './expedia-rapid.ts';
import { hotelbedsApi } from './hotelbeds.ts';
import { liteApiApi } from './liteapi.ts';

export const API_MODULES: Readonly<Record<SupplierApi, ApiModule>> = {
  'booking-demand': bookingDemandApi,
  hotelbeds: hotelbedsApi,
  liteapi: liteApiApi,
  'expedia-rapid': expediaRapidApi,
};
