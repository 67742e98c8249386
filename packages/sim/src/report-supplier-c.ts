// supplier_c's commission report: CSV (semicolon-separated, with a header row), offset/limit
// with the total in an X-Total-Count header, DD/MM/YYYY dates and UTC times, statuses P / A / X,
// the commission in US cents (see README.md).
import { stringify } from 'csv-stringify/sync';
import { expectedCommissionUsdCents, type BookingLedger, type SimBookingStatus } from './bookings.ts';
import { readIntegerParam, type SupplierRoute } from './create-supplier-server.ts';
import { readReportWindow } from './read-report-window.ts';

export const SUPPLIER_C_REPORT_PATH = '/feed/commissions.csv';

export const SUPPLIER_C_REPORT_COLUMNS = [
  'booking_no',
  'click',
  'aff',
  'hotel_id',
  'hotel',
  'city',
  'country',
  'booked',
  'arrive',
  'depart',
  'rooms',
  'guest_country',
  'state',
  'commission_usd_cents',
  'modified',
] as const;

const STATE: Record<SimBookingStatus, 'P' | 'A' | 'X'> = { pending: 'P', approved: 'A', canceled: 'X', no_show: 'X' };

/** "2026-03-01" -> "01/03/2026" */
const dmy = (date: string): string => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
/** milliseconds -> "01/03/2026 10:12:00" (UTC) */
const dmyTime = (ms: number): string => {
  const iso = new Date(ms).toISOString();
  return `${dmy(iso.slice(0, 10))} ${iso.slice(11, 19)}`;
};

/** `GET /feed/commissions.csv?from=<YYYY-MM-DD HH:MM:SS>&to=<...>&offset=<0-based>&limit=<1..5000, default 1000>`. */
export function supplierCReportRoute(ledger: BookingLedger): SupplierRoute {
  return {
    method: 'GET',
    path: SUPPLIER_C_REPORT_PATH,
    handle({ query }) {
      const { from, to } = readReportWindow(query, { from: 'from', to: 'to' }, 'sql-utc', ledger.now());
      const offset = readIntegerParam(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 });
      const limit = readIntegerParam(query, 'limit', { min: 1, max: 5_000, fallback: 1_000 });
      const entries = ledger.report('supplier_c', from, to);
      const rows = entries
        .slice(offset, offset + limit)
        .map(({ booking, state }) => [
          booking.bookingId,
          booking.clickId,
          booking.affiliate ?? '',
          booking.supplierStayId,
          booking.propertyName,
          booking.city,
          booking.countryCode,
          dmyTime(booking.bookedAt),
          dmy(booking.checkin),
          dmy(booking.checkout),
          booking.rooms,
          booking.guestCountry,
          STATE[state.status],
          expectedCommissionUsdCents(booking, state.status),
          dmyTime(state.at),
        ]);
      const text = stringify([[...SUPPLIER_C_REPORT_COLUMNS], ...rows], { delimiter: ';', record_delimiter: 'windows' });
      return {
        status: 200,
        body: null,
        text,
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'X-Total-Count': String(entries.length) },
      };
    },
  };
}
