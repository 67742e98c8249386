// The simulated Booking.com Demand API 3.1 on one slot: every operation a POST with a JSON body,
// answered only with the slot's credentials (`Authorization: Bearer`, `X-Affiliate-Id`); the
// countries, cities and accommodations of the content, the search of prices by ids, the orders of
// the commission report, and the stays' own pages (no credentials: a traveller's browser opens them).
import type { SupplierRoute } from '../create-supplier-server.ts';
import type { ApiSlot } from './api-slot.ts';
import { bookingHotelPageRoute } from './booking-demand-booking-page.ts';
import { bookingCitiesRoute, bookingCountriesRoute, bookingDetailsRoute } from './booking-demand-content-routes.ts';
import { bookingAccommodationOrdersRoute, bookingOrdersRoute } from './booking-demand-orders-routes.ts';
import { bookingSearchRoute } from './booking-demand-search-route.ts';
import { authorised } from './booking-demand-wire.ts';

export function bookingDemandRoutes({ supplier, world, ledger, credentials }: ApiSlot): SupplierRoute[] {
  return [
    ...[
      bookingCountriesRoute(world, supplier),
      bookingCitiesRoute(world, supplier),
      bookingDetailsRoute(world, supplier),
      bookingSearchRoute(world, supplier),
      bookingOrdersRoute(supplier, ledger),
      bookingAccommodationOrdersRoute(world, supplier, ledger),
    ].map((route) => authorised(route, credentials)),
    bookingHotelPageRoute(world, supplier, ledger),
  ];
}
