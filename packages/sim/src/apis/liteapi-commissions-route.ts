// The simulated LiteAPI dashboard's commission report: `POST /commissions/report` with `{ from, to }`
// (YYYY-MM-DD, both included), the account's commission per day as analytics.json's example writes it
// (`{ success, data: [{ date, amount, percentage }] }`, no schema). Daily totals name no booking, so the
// gateway's driver does not read it (decision 158); the slot serves it from its ledger all the same.
import { expectedCommissionUsdCents, stateAt, type BookingLedger } from '../bookings.ts';
import type { SupplierRoute } from '../create-supplier-server.ts';
import { parseSimDate } from '../price-stay.ts';
import type { SupplierId } from '../types.ts';
import { LiteapiHttpError } from './liteapi-wire.ts';

export const LITEAPI_COMMISSIONS_PATH = '/commissions/report';

const DAY_MS = 86_400_000;

function dateField(body: Record<string, unknown>, field: 'from' | 'to'): number {
  const text = body[field];
  const ms = typeof text === 'string' ? parseSimDate(text) : null;
  if (ms === null) throw new LiteapiHttpError(`${field} is required: a date written YYYY-MM-DD`);
  return ms;
}

/**
 * Per day of booking in [from, to]: the commission in USD of that day's bookings as they stand now
 * (a cancelled one earns nothing), and what share of their sales it is, in percent.
 */
export function liteapiCommissionsRoute(supplier: SupplierId, ledger: BookingLedger): SupplierRoute {
  return {
    method: 'POST',
    path: LITEAPI_COMMISSIONS_PATH,
    handle({ body }) {
      const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
      const from = dateField(fields, 'from');
      const to = dateField(fields, 'to') + DAY_MS;
      if (to <= from) throw new LiteapiHttpError('to must not be before from');
      const now = ledger.now();
      const days = new Map<string, { commission: number; sales: number }>();
      for (const booking of ledger.bookings(supplier)) {
        if (booking.bookedAt < from || booking.bookedAt >= to || booking.bookedAt > now) continue;
        const state = stateAt(booking, now + 1);
        if (state === null) continue;
        const date = new Date(booking.bookedAt).toISOString().slice(0, 10);
        const day = days.get(date) ?? { commission: 0, sales: 0 };
        const cents = expectedCommissionUsdCents(booking, state.status);
        day.commission += cents;
        if (cents > 0) day.sales += booking.totalUsdCents;
        days.set(date, day);
      }
      const data = [...days]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([date, { commission, sales }]) => ({
          date,
          amount: commission / 100,
          percentage: sales === 0 ? 0 : Math.round((commission * 10_000) / sales) / 100,
        }));
      return { status: 200, body: { success: true, data } };
    },
  };
}
