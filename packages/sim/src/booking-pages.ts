// Each simulated supplier's booking page: where the gateway's tracked deeplinks land
// (the slots' booking page templates, SimSlot.bookingUrl). It answers what a traveller would see (JSON here) and echoes the
// affiliate and click ids it was given, in the supplier's own parameter names. A landing with a
// click id goes to the supplier's booking ledger (bookings.ts), which turns a share into bookings.
import type { SupplierId } from './types.ts';
import { SIM_CLICK_TIME_PARAM, type BookingLedger } from './bookings.ts';
import { SupplierHttpError, ok, type SupplierRoute } from './create-supplier-server.ts';
import type { World } from './generate-world.ts';
import { openListing } from './world-lookup.ts';
import { parseSimDate } from './price-stay.ts';

/** Path and parameter names of each supplier's booking page. */
export const BOOKING_PAGES: Record<
  SupplierId,
  { path: string; id: string; aid: string; click: string; checkin: string; checkout: string }
> = {
  // Booking.com: the stay's own page, `/hotel/<cc>/<id>.html` (the id is in the path; apis/booking-demand-booking-page.ts).
  supplier_a: { path: '/hotel/', id: 'id', aid: 'aid', click: 'label', checkin: 'checkin', checkout: 'checkout' },
  // Hotelbeds has no page of its own: the operator's booking site (apis/hotelbeds-booking-page.ts).
  supplier_b: { path: '/book/hotel', id: 'code', aid: 'aid', click: 'clickId', checkin: 'checkIn', checkout: 'checkOut' },
  // LiteAPI has none either: the operator's booking site (apis/liteapi-booking-page.ts).
  supplier_c: { path: '/book/hotel', id: 'hotelId', aid: 'aid', click: 'clickId', checkin: 'checkin', checkout: 'checkout' },
  // Expedia Rapid's stays land on the simulated Vrbo page (apis/expedia-rapid-booking-page.ts).
  supplier_d: { path: '/search', id: 'selected', aid: 'aid', click: 'clickId', checkin: 'startDate', checkout: 'endDate' },
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:\d{2})$/;

/** The landing time: now, or (simulator only, for the demo seeding) a past `simClickTime`. */
export function landingTime(query: URLSearchParams, now: number): number {
  const text = query.get(SIM_CLICK_TIME_PARAM);
  if (text === null) return Math.floor(now / 1_000) * 1_000;
  const ms = ISO_TIME.test(text) ? Date.parse(text) : NaN;
  if (!(ms <= now))
    throw new SupplierHttpError(400, `${SIM_CLICK_TIME_PARAM} must be an ISO 8601 time, not in the future`, {
      param: SIM_CLICK_TIME_PARAM,
      value: text,
    });
  return Math.floor(ms / 1_000) * 1_000;
}

/** A date the link carried, when it is a real one. */
export const dateParam = (query: URLSearchParams, name: string): string | null => {
  const text = query.get(name);
  return text !== null && parseSimDate(text) !== null ? text : null;
};

/** A booking page that names the stay in its query: its path and parameter names. */
export interface QueryBookingPage {
  path: string;
  /** The stay's id. */
  id: string;
  /** The affiliate id a landing is recorded under (the partner's `aid` on the simulated pages). */
  aid: string;
  click: string;
  checkin: string;
  checkout: string;
  /** Who runs the page, as the answer says it ("Vrbo (simulated)"). */
  site: string;
  /** Further parameters the answer echoes as given (the party, the operator's agency). */
  echo: readonly string[];
}

/**
 * `GET <page.path>?<page.id>=...`: the page of a stay the slot sells today (404 otherwise). A landing
 * with a click id goes to the ledger under the `page.aid` parameter, with the link's dates when real.
 * Answers JSON: the site, the property, the affiliate and click ids, the dates and `page.echo`'s
 * parameters, each in the page's own names.
 */
export function queryBookingPageRoute(supplier: SupplierId, world: World, ledger: BookingLedger, page: QueryBookingPage): SupplierRoute {
  return {
    method: 'GET',
    path: page.path,
    handle({ query }) {
      const id = query.get(page.id) ?? '';
      // Today's listings: a property closed at this supplier no longer takes bookings.
      const listing = openListing(world, supplier, id);
      if (listing === undefined) throw new SupplierHttpError(404, `no property "${id}"`, { param: page.id, value: id });
      const clickId = query.get(page.click);
      const at = landingTime(query, ledger.now());
      // Without a click id nobody can be paid for the booking: nothing to track.
      if (clickId !== null && clickId !== '') {
        ledger.land({
          supplier,
          clickId,
          supplierStayId: id,
          affiliate: query.get(page.aid),
          checkin: dateParam(query, page.checkin),
          checkout: dateParam(query, page.checkout),
          at,
        });
      }
      const echoed = [page.checkin, page.checkout, ...page.echo].map((name) => [name, query.get(name)]);
      return ok({
        page: 'booking',
        site: page.site,
        supplier,
        property: { id, name: listing.name },
        affiliate: query.get(page.aid),
        click: clickId,
        ...Object.fromEntries(echoed),
      });
    },
  };
}
