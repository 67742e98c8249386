// The simulated Expedia Rapid 3 (Vrbo supply) on one slot: the content call paged by expiring
// `Link`s, the availability call, both signed (`Authorization: EAN ...`), and the Vrbo page the
// slot's deeplinks land on. Photos are the slot's shared media route (start-sim-suppliers.ts),
// at the absolute URLs the content gives.
import type { SupplierRequest, SupplierResponse, SupplierRoute } from '../create-supplier-server.ts';
import type { ApiCredentials, ApiSlot } from './api-slot.ts';
import { rapidAuthFailure } from './expedia-rapid-auth.ts';
import { rapidAvailabilityRoute } from './expedia-rapid-availability-route.ts';
import { RAPID_BOOKING_URL, rapidBookingPageRoute } from './expedia-rapid-booking-page.ts';
import { rapidContentRoute } from './expedia-rapid-content-route.ts';
import { answerRapidErrors } from './expedia-rapid-wire.ts';

export { RAPID_BOOKING_URL };

/** A route that answers only signed requests, and Rapid's error bodies for its own errors. */
function signed(route: SupplierRoute, credentials: ApiCredentials): SupplierRoute {
  return {
    ...route,
    handle: (request: SupplierRequest): Promise<SupplierResponse> =>
      answerRapidErrors(() => rapidAuthFailure(request.headers, credentials) ?? route.handle(request)),
  };
}

export function expediaRapidRoutes(slot: ApiSlot): SupplierRoute[] {
  return [
    // The ledger's clock: what a test moves to make a page link expire.
    signed(rapidContentRoute(slot.world.listings[slot.supplier], slot.ledger.now), slot.credentials),
    signed(rapidAvailabilityRoute(slot.world, slot.supplier), slot.credentials),
    rapidBookingPageRoute(slot.world, slot.supplier, slot.ledger),
  ];
}
