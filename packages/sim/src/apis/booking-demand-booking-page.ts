// The stay's page on the simulated Booking.com: where the content's `url` points
// (`/hotel/<cc>/<id>.html?aid=...&label=...&checkin=...&checkout=...`) once the gateway's `/go` has
// filled its placeholders. A landing with a `label` (our click id) goes to the slot's booking
// ledger under the `aid` (or `affiliate_id`) it carried, as booking.com credits its affiliate.
import { dateParam, landingTime } from '../booking-pages.ts';
import type { BookingLedger } from '../bookings.ts';
import { ok, SupplierHttpError, type SupplierRoute } from '../create-supplier-server.ts';
import type { World } from '../generate-world.ts';
import type { SupplierId } from '../types.ts';
import { openListing } from '../world-lookup.ts';
import { BOOKING_HOTEL_PAGE_PREFIX } from './booking-demand-content-routes.ts';

const PAGE = /^\/hotel\/([a-z]{2})\/(\d+)\.html$/;

export function bookingHotelPageRoute(world: World, supplier: SupplierId, ledger: BookingLedger): SupplierRoute {
  return {
    method: 'GET',
    path: BOOKING_HOTEL_PAGE_PREFIX,
    prefix: true,
    handle({ path, query }) {
      const match = PAGE.exec(path);
      const id = match?.[2] ?? '';
      const listing = match === null ? undefined : openListing(world, supplier, id);
      if (listing === undefined) throw new SupplierHttpError(404, `no accommodation at ${path}`, { param: 'path', value: path });
      const label = query.get('label');
      const affiliate = query.get('aid') ?? query.get('affiliate_id');
      const at = landingTime(query, ledger.now());
      // Without a label nobody can be paid for the booking: nothing to track.
      if (label !== null && label !== '') {
        ledger.land({
          supplier,
          clickId: label,
          supplierStayId: id,
          affiliate,
          checkin: dateParam(query, 'checkin'),
          checkout: dateParam(query, 'checkout'),
          at,
        });
      }
      return ok({
        page: 'booking',
        site: 'booking.com (simulated)',
        supplier,
        accommodation: { id, name: listing.name },
        affiliate,
        label,
        checkin: query.get('checkin'),
        checkout: query.get('checkout'),
        adults: query.get('group_adults'),
        rooms: query.get('no_rooms'),
      });
    },
  };
}
