// Hotelbeds has no public page per hotel: an operator sells its rates on its own booking site, and
// the gateway's deeplinks land there (STAYGATE_SUPPLIER_<X>_BOOKING_URL). For a simulated slot the
// simulator plays that site: this page, whose landings go to the slot's booking ledger.
import { queryBookingPageRoute } from '../booking-pages.ts';
import type { BookingLedger } from '../bookings.ts';
import type { SupplierRoute } from '../create-supplier-server.ts';
import type { World } from '../generate-world.ts';
import type { SupplierId } from '../types.ts';

/**
 * The default booking-page template of a simulated Hotelbeds slot: the operator's own site on the
 * slot's URL, with every placeholder the gateway's `/go` fills (`{supplierUrl}`, `{supplierStayId}`,
 * `{clickId}`, `{checkin}`, `{checkout}`, `{aid}`, `{campaign}`, and the operator's `{affiliateId}` as
 * the site's `agency`, the party's `{adults}` and `{rooms}`).
 */
export const HOTELBEDS_BOOKING_URL =
  '{supplierUrl}/book/hotel?code={supplierStayId}&clickId={clickId}&checkIn={checkin}&checkOut={checkout}&adults={adults}&rooms={rooms}&aid={aid}&campaign={campaign}&agency={affiliateId}';

/**
 * `GET /book/hotel?code=&clickId=...`: the hotel's booking page on the operator's site. A landing
 * with a click id is recorded under the partner's `aid` (what the gateway's click carries).
 */
export function hotelbedsBookingPageRoute(world: World, supplier: SupplierId, ledger: BookingLedger): SupplierRoute {
  return queryBookingPageRoute(supplier, world, ledger, {
    path: '/book/hotel',
    id: 'code',
    aid: 'aid',
    click: 'clickId',
    checkin: 'checkIn',
    checkout: 'checkOut',
    site: 'the operator’s own Hotelbeds booking site (simulated)',
    echo: ['agency', 'adults', 'rooms'],
  });
}
