// Hotelbeds has no public page per hotel: an operator sells its rates on its own booking site, and
// the gateway's deeplinks land there (STAYGATE_SUPPLIER_<X>_BOOKING_URL). For a simulated slot the
// simulator plays that site: this page, whose landings go to the slot's booking ledger.
import { dateParam, landingTime } from '../booking-pages.ts';
import type { BookingLedger } from '../bookings.ts';
import { ok, SupplierHttpError, type SupplierRoute } from '../create-supplier-server.ts';
import type { World } from '../generate-world.ts';
import type { SupplierId } from '../types.ts';
import { openListing } from '../world-lookup.ts';

export const HOTELBEDS_BOOKING_PATH = '/book/hotel';

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
 * with a click id is recorded under the partner's `aid` (what the gateway's click carries), as the
 * other slots' pages record their affiliate parameter.
 */
export function hotelbedsBookingPageRoute(world: World, supplier: SupplierId, ledger: BookingLedger): SupplierRoute {
  return {
    method: 'GET',
    path: HOTELBEDS_BOOKING_PATH,
    handle({ query }) {
      const code = query.get('code') ?? '';
      const listing = openListing(world, supplier, code);
      if (listing === undefined) throw new SupplierHttpError(404, `no hotel "${code}"`, { param: 'code', value: code });
      const clickId = query.get('clickId');
      const at = landingTime(query, ledger.now());
      if (clickId !== null && clickId !== '') {
        ledger.land({
          supplier,
          clickId,
          supplierStayId: code,
          affiliate: query.get('aid'),
          checkin: dateParam(query, 'checkIn'),
          checkout: dateParam(query, 'checkOut'),
          at,
        });
      }
      return ok({
        page: 'booking',
        site: 'the operator’s own Hotelbeds booking site (simulated)',
        supplier,
        hotel: { code, name: listing.name },
        agency: query.get('agency'),
        click: clickId,
        checkIn: query.get('checkIn'),
        checkOut: query.get('checkOut'),
        adults: query.get('adults'),
        rooms: query.get('rooms'),
      });
    },
  };
}
