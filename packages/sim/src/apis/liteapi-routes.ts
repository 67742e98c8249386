// The simulated LiteAPI v3 on one slot: the hotel data (countries, hotels), the rates call, the
// dashboard's commission report (every one behind `X-API-Key`) and the operator's booking page.
// The slot's URL stands for https://api.liteapi.travel/v3.0 (and the dashboard's host alike);
// photos are the slot's shared media route (start-sim-suppliers.ts mounts it).
import type { SupplierRequest, SupplierResponse, SupplierRoute } from '../create-supplier-server.ts';
import type { ApiCredentials, ApiSlot } from './api-slot.ts';
import { LITEAPI_BOOKING_URL, liteapiBookingPageRoute } from './liteapi-booking-page.ts';
import { liteapiCommissionsRoute } from './liteapi-commissions-route.ts';
import { liteapiCountriesRoute, liteapiHotelsRoute } from './liteapi-hotels-route.ts';
import { liteapiRatesRoute } from './liteapi-rates-route.ts';
import { answerLiteapiErrors, liteapiAuthFailure } from './liteapi-wire.ts';

export { LITEAPI_BOOKING_URL };

/** A route that answers only requests with the slot's key, and LiteAPI's error bodies for its own errors. */
function keyed(route: SupplierRoute, credentials: ApiCredentials): SupplierRoute {
  return {
    ...route,
    handle: (request: SupplierRequest): Promise<SupplierResponse> =>
      answerLiteapiErrors(() => liteapiAuthFailure(request.headers, credentials) ?? route.handle(request)),
  };
}

export function liteapiRoutes(slot: ApiSlot): SupplierRoute[] {
  return [
    keyed(liteapiCountriesRoute(slot.world), slot.credentials),
    keyed(liteapiHotelsRoute(slot.world, slot.supplier), slot.credentials),
    keyed(liteapiRatesRoute(slot.world, slot.supplier), slot.credentials),
    keyed(liteapiCommissionsRoute(slot.supplier, slot.ledger), slot.credentials),
    liteapiBookingPageRoute(slot.world, slot.supplier, slot.ledger),
  ];
}
