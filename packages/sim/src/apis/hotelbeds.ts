// The simulated Hotelbeds APItude on one slot: the Hotel Content API's hotel list, the Booking API's
// availability call (both signed: Api-key + X-Signature), the hotel photos under `/giata/` where the
// content's relative image paths point (the slot's shared media route behind them), and the
// operator's booking page (HOTELBEDS_BOOKING_URL).
import type { SupplierRequest, SupplierResponse, SupplierRoute } from '../create-supplier-server.ts';
import { mediaRoute } from '../media.ts';
import type { ApiCredentials, ApiModule, ApiSlot } from './api-slot.ts';
import { hotelbedsAuthFailure } from './hotelbeds-auth.ts';
import { hotelbedsAvailabilityRoute } from './hotelbeds-availability-route.ts';
import { HOTELBEDS_BOOKING_URL, hotelbedsBookingPageRoute } from './hotelbeds-booking-page.ts';
import { hotelbedsHotelsRoute } from './hotelbeds-hotels-route.ts';
import { answerHotelbedsErrors } from './hotelbeds-wire.ts';

export { HOTELBEDS_BOOKING_URL };

/** Where the content's image paths are served (Hotelbeds' photo server keeps them under `/giata/`). */
export const HOTELBEDS_PHOTO_PREFIX = '/giata/';

/** A route that answers only signed requests, and Hotelbeds' error bodies for its own errors. */
function signed(route: SupplierRoute, credentials: ApiCredentials): SupplierRoute {
  return {
    ...route,
    handle: (request: SupplierRequest): Promise<SupplierResponse> =>
      answerHotelbedsErrors(() => hotelbedsAuthFailure(request.headers, credentials) ?? route.handle(request)),
  };
}

export function hotelbedsRoutes(slot: ApiSlot): SupplierRoute[] {
  const media = mediaRoute(slot.supplier, slot.world);
  return [
    signed(hotelbedsHotelsRoute(slot.world.listings[slot.supplier]), slot.credentials),
    signed(hotelbedsAvailabilityRoute(slot.world, slot.supplier), slot.credentials),
    hotelbedsBookingPageRoute(slot.world, slot.supplier, slot.ledger),
    {
      // Photos need no signature (Hotelbeds' photo server is public): `/giata/<path>` is the slot's picture at `/<path>`.
      method: 'GET',
      path: HOTELBEDS_PHOTO_PREFIX,
      prefix: true,
      handle: (request) => media.handle({ ...request, path: request.path.slice(HOTELBEDS_PHOTO_PREFIX.length - 1) }),
    },
  ];
}

export const hotelbedsApi: ApiModule = { routes: hotelbedsRoutes, bookingUrl: HOTELBEDS_BOOKING_URL };
