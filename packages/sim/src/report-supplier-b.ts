// supplier_b's commission report: JSON, keyset cursor pages, snake_case, Unix-seconds times,
// statuses booked / stayed / cancelled / no_show, the commission in EUR with the exchange rate
// supplier_b used stated in the envelope (see README.md).
import { COMMISSION_TENTHS_PERCENT, roundDiv, SUPPLIER_B_RATE_MICROS, type BookingLedger, type SimBookingStatus } from './bookings.ts';
import { ok, readIntegerParam, SupplierHttpError, type SupplierRoute } from './create-supplier-server.ts';
import { readReportWindow } from './read-report-window.ts';

export const SUPPLIER_B_REPORT_PATH = '/v2/partner/commissions';

export interface SupplierBCommission {
  booking_id: string;
  ref: string;
  partner_id: string | null;
  hotel_id: string;
  hotel_name: string;
  hotel_city: string;
  hotel_country: string;
  created: number;
  arrival: string;
  departure: string;
  room_count: number;
  guest_country: string;
  status: 'booked' | 'stayed' | 'cancelled' | 'no_show';
  commission_eur: number;
  modified: number;
}

export interface SupplierBReportPage {
  commissions: SupplierBCommission[];
  eur_per_usd: number;
  next_cursor: string | null;
}

const STATUS: Record<SimBookingStatus, SupplierBCommission['status']> = {
  pending: 'booked',
  approved: 'stayed',
  canceled: 'cancelled',
  no_show: 'no_show',
};

/** The cursor is opaque to clients; inside it is the last (modified, booking id) listed. */
function encodeCursor(at: number, bookingId: string): string {
  return Buffer.from(`k:${at}:${bookingId}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: number; bookingId: string } {
  const match = /^k:(\d{1,15}):(.+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) throw new SupplierHttpError(400, 'cursor is not a cursor this feed issued', { param: 'cursor', value: cursor });
  return { at: Number(match[1]), bookingId: match[2] };
}

/** `GET /v2/partner/commissions?modified_since=<unix s>&modified_until=<unix s>&limit=<1..500, default 100>[&cursor=]`. */
export function supplierBReportRoute(ledger: BookingLedger): SupplierRoute {
  return {
    method: 'GET',
    path: SUPPLIER_B_REPORT_PATH,
    handle({ query }) {
      const { from, to } = readReportWindow(query, { from: 'modified_since', to: 'modified_until' }, 'unix-seconds', ledger.now());
      const limit = readIntegerParam(query, 'limit', { min: 1, max: 500, fallback: 100 });
      const cursorText = query.get('cursor');
      const after = cursorText === null ? null : decodeCursor(cursorText);
      let entries = ledger.report('supplier_b', from, to);
      if (after !== null) {
        entries = entries.filter(
          ({ booking, state }) => state.at > after.at || (state.at === after.at && booking.bookingId > after.bookingId),
        );
      }
      const pageEntries = entries.slice(0, limit);
      const last = pageEntries.at(-1);
      const body: SupplierBReportPage = {
        commissions: pageEntries.map(({ booking, state }) => {
          const earns = state.status === 'pending' || state.status === 'approved';
          return {
            booking_id: booking.bookingId,
            ref: booking.clickId,
            partner_id: booking.affiliate,
            hotel_id: booking.supplierStayId,
            hotel_name: booking.propertyName,
            hotel_city: booking.city,
            hotel_country: booking.countryCode,
            created: booking.bookedAt / 1_000,
            arrival: booking.checkin,
            departure: booking.checkout,
            room_count: booking.rooms,
            guest_country: booking.guestCountry.toLowerCase(),
            status: STATUS[state.status],
            commission_eur: earns ? roundDiv(booking.totalEurCents * COMMISSION_TENTHS_PERCENT.supplier_b, 1_000) / 100 : 0,
            modified: state.at / 1_000,
          };
        }),
        eur_per_usd: SUPPLIER_B_RATE_MICROS / 1_000_000,
        next_cursor: entries.length > limit && last !== undefined ? encodeCursor(last.state.at, last.booking.bookingId) : null,
      };
      return ok(body);
    },
  };
}
