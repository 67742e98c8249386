// The simulated Booking.com orders: `POST /orders/details` (the orders updated in a window of at
// most 7 days, with commission and status) and `POST /orders/details/accommodations` (the stay,
// dates, rooms and `label` of given orders), from the slot's booking ledger.
import { createHash } from 'node:crypto';
import type { BookingLedger, SimBooking, SimBookingStatus } from '../bookings.ts';
import { expectedCommissionUsdCents, stateAt } from '../bookings.ts';
import type { SupplierRoute } from '../create-supplier-server.ts';
import type { World } from '../generate-world.ts';
import { splitAddress } from '../split-address.ts';
import type { SupplierId } from '../types.ts';
import { anyListing } from '../world-lookup.ts';
import { listingCityId } from './booking-demand-content-routes.ts';
import { BookingHttpError, bodyObject, decodePageToken, invalidParameter, isObject, pageOf, requestId } from './booking-demand-wire.ts';

/** "Maximum time range is 7 days (1 week)". */
export const BOOKING_ORDERS_MAX_WINDOW_MS = 7 * 86_400_000;

/** A ledger status as Booking.com writes an order's: a pending booking is `booked` until stayed. */
export const BOOKING_ORDER_STATUS: Readonly<Record<SimBookingStatus, string>> = {
  pending: 'booked',
  approved: 'stayed',
  canceled: 'cancelled_by_guest',
  no_show: 'no_show',
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:\d{2})$/;
const iso = (ms: number): string => new Date(ms).toISOString();
const dollars = (cents: number): number => cents / 100;

/** A numeric reservation id (int64) from the order id, as Booking.com gives both. */
const reservationOf = (orderId: string): number =>
  Number(BigInt(`0x${createHash('sha1').update(orderId).digest('hex').slice(0, 12)}`) % 9_000_000_000n) + 1_000_000_000;

function readTime(value: unknown, name: string): number {
  const ms = typeof value === 'string' && ISO_TIME.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw invalidParameter(`${name} must be an ISO 8601 time such as 2026-11-01T00:00:00Z`);
  return ms;
}

function readCurrency(input: Record<string, unknown>): void {
  // The simulator's ledger is in US dollars: it reports in USD only.
  if (input.currency !== 'USD') throw invalidParameter('currency is required; this simulator reports in USD only');
}

/** The window and page size of a first request: `updated` only (the simulator lists by update time). */
function readWindow(input: Record<string, unknown>, now: number): { from: number; to: number; rows: number } {
  const updated = input.updated;
  if (!isObject(updated)) throw invalidParameter('This simulator lists orders by `updated` (from, to) or `page` only');
  readCurrency(input);
  const from = readTime(updated.from, 'updated.from');
  const to = updated.to === undefined ? now : readTime(updated.to, 'updated.to');
  if (to < from) throw invalidParameter('updated.to must not be before updated.from');
  if (to - from > BOOKING_ORDERS_MAX_WINDOW_MS) throw invalidParameter('The maximum time range is 7 days');
  const rows = input.maximum_results ?? 100;
  if (!Number.isSafeInteger(rows) || (rows as number) < 10 || (rows as number) > 100)
    throw invalidParameter('maximum_results must be from 10 to 100');
  return { from, to, rows: rows as number };
}

export function bookingOrdersRoute(supplier: SupplierId, ledger: BookingLedger): SupplierRoute {
  return {
    method: 'POST',
    path: '/orders/details',
    handle({ body }) {
      const input = bodyObject(body);
      let window: { from: number; to: number; rows: number };
      let offset = 0;
      if (input.page !== undefined) {
        const state = decodePageToken(input.page);
        const m = /^orders:(\d+):(\d+):(\d+)$/.exec(state.list);
        if (m === null) throw new BookingHttpError(400, 'invalid_page', 'The page token is not valid for this request');
        window = { from: Number(m[1]), to: Number(m[2]), rows: Number(m[3]) };
        offset = state.offset;
      } else window = readWindow(input, ledger.now());
      // An order is listed by its latest update (`updated`), as it stands now: the ledger's changes
      // since `from` in their present state, those whose last change is within the window (`to` inclusive).
      const entries = ledger.report(supplier, window.from, Math.max(window.to, ledger.now()) + 1).filter((e) => e.state.at <= window.to);
      const list = `orders:${window.from}:${window.to}:${window.rows}`;
      const { page, next } = pageOf(entries, offset, window.rows, list, 0);
      const data = page.map(({ booking, state }) => {
        const cents = expectedCommissionUsdCents(booking, state.status);
        // The commission is final once the stay is over (or cancelled): an estimate before.
        const final = state.status !== 'pending';
        return {
          id: booking.bookingId,
          accommodations: { inventory: { third_party: false, type: 'sell' }, reservation: reservationOf(booking.bookingId) },
          ...(booking.affiliate !== null && /^\d{1,15}$/.test(booking.affiliate) ? { affiliate: Number(booking.affiliate) } : {}),
          booker: { address: { city: null, country: booking.guestCountry.toLowerCase() }, platform: 'desktop', travel_purpose: 'leisure' },
          created: iso(booking.bookedAt),
          commission: final
            ? { actual_amount: dollars(cents), estimated_amount: null }
            : { actual_amount: null, estimated_amount: dollars(cents) },
          currency: 'USD',
          price: { commissionable: dollars(booking.totalUsdCents), total: dollars(booking.totalUsdCents) },
          status: BOOKING_ORDER_STATUS[state.status],
          updated: iso(state.at),
        };
      });
      return { status: 200, body: { request_id: requestId(), data, metadata: { next_page: next, total_results: entries.length } } };
    },
  };
}

export function bookingAccommodationOrdersRoute(world: World, supplier: SupplierId, ledger: BookingLedger): SupplierRoute {
  return {
    method: 'POST',
    path: '/orders/details/accommodations',
    handle({ body }) {
      const input = bodyObject(body);
      const orders = input.orders;
      if (!Array.isArray(orders) || orders.length === 0 || orders.length > 100 || !orders.every((o) => typeof o === 'string'))
        throw invalidParameter('This simulator takes `orders`: a list of 1 to 100 order ids');
      if (input.currency !== undefined) readCurrency(input);
      const byId = new Map<string, SimBooking>(ledger.bookings(supplier).map((b) => [b.bookingId, b]));
      const now = ledger.now();
      const data = (orders as string[]).flatMap((orderId) => {
        const booking = byId.get(orderId);
        if (booking === undefined) return [];
        const listing = anyListing(world, supplier, booking.supplierStayId);
        const status = BOOKING_ORDER_STATUS[(stateAt(booking, now + 1) ?? booking.events[0]).status];
        return [
          {
            id: orderId,
            accommodation: Number(booking.supplierStayId),
            accommodation_details: {
              name: booking.propertyName,
              location: {
                address: listing === undefined ? '' : splitAddress(listing.address).line1,
                ...(listing === undefined ? {} : { city: listingCityId(world, listing) }),
                country: booking.countryCode.toLowerCase(),
              },
            },
            checkin: booking.checkin,
            checkout: booking.checkout,
            currency: { accommodation: 'USD', booker: 'USD' },
            label: booking.clickId,
            price: { total: { accommodation_currency: dollars(booking.totalUsdCents), booker_currency: dollars(booking.totalUsdCents) } },
            products: Array.from({ length: booking.rooms }, () => ({ status })),
            reservation: reservationOf(orderId),
            status,
          },
        ];
      });
      return { status: 200, body: { request_id: requestId(), data } };
    },
  };
}
