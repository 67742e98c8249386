// supplier_a's commission report: JSON, numbered pages, camelCase, ISO 8601 UTC times, statuses
// PENDING / CONFIRMED / CANCELLED, the commission a USD decimal string (see README.md).
import type { BookingLedger, SimBookingStatus } from './bookings.ts';
import { expectedCommissionUsdCents } from './bookings.ts';
import { ok, readIntegerParam, type SupplierRoute } from './create-supplier-server.ts';
import { centsText, readReportWindow } from './read-report-window.ts';

export const SUPPLIER_A_REPORT_PATH = '/affiliate/v1/bookings';

export interface SupplierABooking {
  bookingRef: string;
  clickId: string;
  affiliateId: string | null;
  propertyId: number;
  propertyName: string;
  city: string;
  countryCode: string;
  bookedAt: string;
  checkIn: string;
  checkOut: string;
  rooms: number;
  guestCountry: string;
  status: 'PENDING' | 'CONFIRMED' | 'CANCELLED';
  commission: { amount: string; currency: 'USD' };
  updatedAt: string;
}

export interface SupplierAReportPage {
  page: number;
  pageSize: number;
  totalPages: number;
  totalCount: number;
  bookings: SupplierABooking[];
}

const STATUS: Record<SimBookingStatus, SupplierABooking['status']> = {
  pending: 'PENDING',
  approved: 'CONFIRMED',
  canceled: 'CANCELLED',
  no_show: 'CANCELLED',
};

/** `GET /affiliate/v1/bookings?updatedFrom=<ISO>&updatedTo=<ISO>&page=<1-based>&pageSize=<1..1000, default 200>`. */
export function supplierAReportRoute(ledger: BookingLedger): SupplierRoute {
  return {
    method: 'GET',
    path: SUPPLIER_A_REPORT_PATH,
    handle({ query }) {
      const { from, to } = readReportWindow(query, { from: 'updatedFrom', to: 'updatedTo' }, 'iso', ledger.now());
      const page = readIntegerParam(query, 'page', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: 1 });
      const pageSize = readIntegerParam(query, 'pageSize', { min: 1, max: 1_000, fallback: 200 });
      const entries = ledger.report('supplier_a', from, to);
      const body: SupplierAReportPage = {
        page,
        pageSize,
        totalPages: Math.ceil(entries.length / pageSize),
        totalCount: entries.length,
        bookings: entries.slice((page - 1) * pageSize, page * pageSize).map(({ booking, state }) => ({
          bookingRef: booking.bookingId,
          clickId: booking.clickId,
          affiliateId: booking.affiliate,
          propertyId: Number(booking.supplierStayId),
          propertyName: booking.propertyName,
          city: booking.city,
          countryCode: booking.countryCode,
          bookedAt: new Date(booking.bookedAt).toISOString(),
          checkIn: booking.checkin,
          checkOut: booking.checkout,
          rooms: booking.rooms,
          guestCountry: booking.guestCountry,
          status: STATUS[state.status],
          commission: { amount: centsText(expectedCommissionUsdCents(booking, state.status)), currency: 'USD' },
          updatedAt: new Date(state.at).toISOString(),
        })),
      };
      return ok(body);
    },
  };
}
