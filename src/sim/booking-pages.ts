// Each simulated supplier's booking page: where the gateway's tracked deeplinks land
// (defaults.bookingUrlTemplates). It answers what a traveller would see (JSON here) and echoes the
// affiliate and click ids it was given, in the supplier's own parameter names. Turning landings
// into bookings and commission reports is the reporting work's (issue 7).
import type { SupplierId } from '../types.ts';
import { SupplierHttpError, ok, type SupplierRoute } from './create-supplier-server.ts';
import type { SimListing } from './generate-world.ts';

/** Path and parameter names of each supplier's booking page. */
export const BOOKING_PAGES: Record<SupplierId, { path: string; id: string; aid: string; click: string; checkin: string; checkout: string }> = {
  supplier_a: { path: '/book', id: 'propertyId', aid: 'affiliateId', click: 'clickId', checkin: 'checkIn', checkout: 'checkOut' },
  supplier_b: { path: '/v2/book', id: 'hotel_id', aid: 'partner_id', click: 'ref', checkin: 'arrival', checkout: 'departure' },
  supplier_c: { path: '/deeplink', id: 'id', aid: 'aff', click: 'click', checkin: 'from', checkout: 'to' },
  supplier_d: { path: '/rooms', id: 'listing_id', aid: 'affiliate', click: 'click_id', checkin: 'start', checkout: 'end' },
};

export function bookingPageRoute(supplier: SupplierId, listings: readonly SimListing[]): SupplierRoute {
  const page = BOOKING_PAGES[supplier];
  const byId = new Map(listings.map((l) => [l.supplierStayId, l]));
  return {
    method: 'GET',
    path: page.path,
    handle({ query }) {
      const id = query.get(page.id) ?? '';
      const listing = byId.get(id);
      if (listing === undefined) throw new SupplierHttpError(404, `no property "${id}"`, { param: page.id, value: id });
      return ok({
        page: 'booking',
        supplier,
        property: { id, name: listing.name },
        affiliate: query.get(page.aid),
        click: query.get(page.click),
        checkin: query.get(page.checkin),
        checkout: query.get(page.checkout),
      });
    },
  };
}
