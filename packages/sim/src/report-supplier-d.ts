// supplier_d's commission report: JSON in a Laravel-style envelope, numbered pages, JSON:API-style
// filter parameters, times in its headquarters' fixed UTC+01:00, statuses pending / completed /
// canceled / no_show, and no commission amount: the booking total and the commission rate
// (percent), from which the commission is total x rate rounded half up to the cent (see README.md).
import { COMMISSION_TENTHS_PERCENT, type BookingLedger, type SimBookingStatus } from './bookings.ts';
import { ok, readIntegerParam, type SupplierRoute } from './create-supplier-server.ts';
import { centsText, isoWithOffset, readReportWindow } from './read-report-window.ts';

export const SUPPLIER_D_REPORT_PATH = '/api/affiliate/reservations';
/** supplier_d writes every time in UTC+01:00. */
export const SUPPLIER_D_UTC_OFFSET_MINUTES = 60;

export interface SupplierDReservation {
  reservation_id: string;
  tracking: { click_id: string; affiliate: string | null };
  listing: { id: string; headline: string; city: string; country: string };
  created_at: string;
  check_in: string;
  check_out: string;
  units: number;
  guest: { country: string };
  status: 'pending' | 'completed' | 'canceled' | 'no_show';
  payout: { booking_total: string; commission_rate: string; currency: 'USD' };
  updated_at: string;
}

export interface SupplierDReportPage {
  data: SupplierDReservation[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
}

const STATUS: Record<SimBookingStatus, SupplierDReservation['status']> = {
  pending: 'pending',
  approved: 'completed',
  canceled: 'canceled',
  no_show: 'no_show',
};

/**
 * `GET /api/affiliate/reservations?filter[updated_at][gte]=<ISO>&filter[updated_at][lt]=<ISO>&page=<1-based>&per_page=<1..200, default 50>`.
 * A canceled reservation keeps its total and rate: supplier_d leaves it to the reader that it pays nothing.
 */
export function supplierDReportRoute(ledger: BookingLedger): SupplierRoute {
  return {
    method: 'GET',
    path: SUPPLIER_D_REPORT_PATH,
    handle({ query }) {
      const { from, to } = readReportWindow(query, { from: 'filter[updated_at][gte]', to: 'filter[updated_at][lt]' }, 'iso', ledger.now());
      const page = readIntegerParam(query, 'page', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: 1 });
      const perPage = readIntegerParam(query, 'per_page', { min: 1, max: 200, fallback: 50 });
      const entries = ledger.report('supplier_d', from, to);
      const rate = COMMISSION_TENTHS_PERCENT.supplier_d;
      const body: SupplierDReportPage = {
        data: entries.slice((page - 1) * perPage, page * perPage).map(({ booking, state }) => ({
          reservation_id: booking.bookingId,
          tracking: { click_id: booking.clickId, affiliate: booking.affiliate },
          listing: { id: booking.supplierStayId, headline: booking.propertyName, city: booking.city, country: booking.countryCode },
          created_at: isoWithOffset(booking.bookedAt, SUPPLIER_D_UTC_OFFSET_MINUTES),
          check_in: booking.checkin,
          check_out: booking.checkout,
          units: booking.rooms,
          guest: { country: booking.guestCountry },
          status: STATUS[state.status],
          payout: {
            booking_total: centsText(booking.totalUsdCents),
            commission_rate: `${Math.floor(rate / 10)}.${rate % 10}`,
            currency: 'USD',
          },
          updated_at: isoWithOffset(state.at, SUPPLIER_D_UTC_OFFSET_MINUTES),
        })),
        // Laravel's paginator: last_page is at least 1.
        meta: { current_page: page, last_page: Math.max(1, Math.ceil(entries.length / perPage)), per_page: perPage, total: entries.length },
      };
      return ok(body);
    },
  };
}
