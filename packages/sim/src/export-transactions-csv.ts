// The affiliate network's CSV export of a slot's transactions: what an operator downloads for a
// supplier whose API has no commission report (Hotelbeds: net rates; Expedia Rapid: none for
// affiliates) and loads with `staygate transactions import`. The columns are the gateway's
// documented import format (docs/transactions-import.md), so the demo and the tests import real
// files. The bookings are those of the ledger's report of [from, to): each as it stood at the end.
import { stringify } from 'csv-stringify/sync';
import {
  COMMISSION_TENTHS_PERCENT,
  expectedCommissionUsdCents,
  roundDiv,
  SUPPLIER_B_RATE_MICROS,
  type BookingLedger,
  type SimBooking,
  type SimBookingStatus,
} from './bookings.ts';
import type { SupplierId } from './types.ts';

export const TRANSACTIONS_EXPORT_COLUMNS = [
  'booking_id',
  'click_id',
  'property_id',
  'property_name',
  'city',
  'country',
  'booked_at',
  'checkin',
  'checkout',
  'rooms',
  'guest_country',
  'status',
  'commission',
  'currency',
  'usd_rate',
  'updated_at',
] as const;

/**
 * US dollars per euro as the export states it: 1 / SUPPLIER_B_EUR_PER_USD to 10 decimals, exact
 * enough that the gateway's conversion (commission x rate, half up to the cent) arrives at
 * `expectedCommissionUsdCents` for any commission below a million euros.
 */
export const EXPORT_USD_PER_EUR = (() => {
  // 10^10 x 10^6 / rate micros, half up, in integers (10^16 is past a double's exact integers).
  const micros = BigInt(SUPPLIER_B_RATE_MICROS);
  const scaled = (2n * 10n ** 16n + micros) / (2n * micros);
  return `${scaled / 10n ** 10n}.${String(scaled % 10n ** 10n).padStart(10, '0')}`;
})();

/** "12.34" from cents. */
const decimal = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** The commission as the network states it: supplier_b's in euros (of its EUR total), the others' in US dollars. */
function commissionOf(booking: SimBooking, status: SimBookingStatus): { amount: string; currency: string; usdRate: string } {
  const earned = status !== 'canceled' && status !== 'no_show';
  if (booking.supplier === 'supplier_b') {
    const eurCents = earned ? roundDiv(booking.totalEurCents * COMMISSION_TENTHS_PERCENT.supplier_b, 1_000) : 0;
    return { amount: decimal(eurCents), currency: 'EUR', usdRate: EXPORT_USD_PER_EUR };
  }
  return { amount: decimal(expectedCommissionUsdCents(booking, status)), currency: 'USD', usdRate: '' };
}

/**
 * The export of a slot's bookings changed in [from, to) (milliseconds), as they stood at `to` (or
 * now): RFC 4180 CSV with a header row, CRLF, UTF-8, ISO 8601 UTC times.
 */
export function exportTransactionsCsv(ledger: BookingLedger, supplier: SupplierId, { from, to }: { from: number; to: number }): string {
  const rows = ledger.report(supplier, from, to).map(({ booking, state }) => {
    const { amount, currency, usdRate } = commissionOf(booking, state.status);
    return [
      booking.bookingId,
      booking.clickId,
      booking.supplierStayId,
      booking.propertyName,
      booking.city,
      booking.countryCode,
      new Date(booking.bookedAt).toISOString(),
      booking.checkin,
      booking.checkout,
      booking.rooms,
      booking.guestCountry,
      state.status,
      amount,
      currency,
      usdRate,
      new Date(state.at).toISOString(),
    ];
  });
  return stringify([[...TRANSACTIONS_EXPORT_COLUMNS], ...rows], { record_delimiter: 'windows' });
}
