// The affiliate network's CSV export of a slot's transactions, and the control server's route to it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { createBookingLedger, type BookingLedger } from './bookings.ts';
import { EXPORT_USD_PER_EUR, exportTransactionsCsv, TRANSACTIONS_EXPORT_COLUMNS } from './export-transactions-csv.ts';
import { generateWorld, type World } from './generate-world.ts';
import { startSimSuppliers, type SimSuppliers } from './start-sim-suppliers.ts';
import { SUPPLIER_IDS, type SupplierId } from './types.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 5, 1, 10);
const NOW = T0 + 200 * DAY;
let world: World;
let ledger: BookingLedger;

/** Landings spread over 120 days from T0, on every slot. */
function land(target: BookingLedger): void {
  for (let i = 0; i < 3_000; i++) {
    const supplier = SUPPLIER_IDS[i % 4];
    const listings = world.listings[supplier];
    target.land({
      supplier,
      clickId: `exp-${i}`,
      supplierStayId: listings[i % listings.length].supplierStayId,
      affiliate: 'aff',
      checkin: null,
      checkout: null,
      at: T0 + (i % 120) * DAY,
    });
  }
}

before(() => {
  world = generateWorld({ seed: 5, stays: 1_500 });
  ledger = createBookingLedger({ world, now: () => NOW });
  land(ledger);
});

const rowsOf = (csv: string): Record<string, string>[] => parse(csv, { columns: true }) as Record<string, string>[];

describe('exportTransactionsCsv', () => {
  it("lists the report's bookings of the period as they stood at its end, in the documented columns", () => {
    for (const supplier of SUPPLIER_IDS) {
      const from = T0 + 30 * DAY;
      const to = T0 + 90 * DAY;
      const csv = exportTransactionsCsv(ledger, supplier, { from, to });
      assert.ok(csv.startsWith(`${TRANSACTIONS_EXPORT_COLUMNS.join(',')}\r\n`), 'a header row of our columns, CRLF');
      const rows = rowsOf(csv);
      const report = ledger.report(supplier, from, to);
      assert.ok(report.length > 10, `${supplier} has bookings in the period`);
      assert.deepEqual(
        rows.map((r) => [r.booking_id, r.status, r.updated_at]),
        report.map(({ booking, state }) => [booking.bookingId, state.status, new Date(state.at).toISOString()]),
      );
      for (const [i, { booking }] of report.entries()) {
        const r = rows[i];
        assert.deepEqual(
          [r.click_id, r.property_id, r.property_name, r.city, r.country, r.checkin, r.checkout, r.rooms, r.guest_country],
          [
            booking.clickId,
            booking.supplierStayId,
            booking.propertyName,
            booking.city,
            booking.countryCode,
            booking.checkin,
            booking.checkout,
            String(booking.rooms),
            booking.guestCountry,
          ],
        );
        assert.equal(r.booked_at, new Date(booking.bookedAt).toISOString());
      }
    }
  });

  it("states supplier_b's commission in euros with its US dollar rate, the others' in US dollars, nothing once canceled", () => {
    const rows = (supplier: SupplierId) => rowsOf(exportTransactionsCsv(ledger, supplier, { from: 0, to: NOW }));
    const b = rows('supplier_b');
    assert.ok(
      b.every((r) => r.currency === 'EUR' && r.usd_rate === EXPORT_USD_PER_EUR),
      'every supplier_b row in EUR at the stated rate',
    );
    assert.equal(EXPORT_USD_PER_EUR, '1.1494252874');
    const d = rows('supplier_d');
    assert.ok(
      d.every((r) => r.currency === 'USD' && r.usd_rate === ''),
      'every supplier_d row in USD, no rate',
    );
    const statuses = new Set([...b, ...d].map((r) => r.status));
    assert.ok(
      [...statuses].every((s) => ['pending', 'approved', 'canceled', 'no_show'].includes(s)),
      `the ledger's own words: ${[...statuses].join(', ')}`,
    );
    assert.ok(statuses.has('canceled') && statuses.has('approved'), 'cancellations and approvals among them');
    for (const r of [...b, ...d]) {
      assert.match(r.commission, /^\d+\.\d{2}$/, r.booking_id);
      if (r.status === 'canceled' || r.status === 'no_show') assert.equal(r.commission, '0.00', r.booking_id);
    }
  });
});

describe("the control server's GET /exports/transactions.csv", () => {
  let sim: SimSuppliers;
  before(async () => {
    sim = await startSimSuppliers({ world, latencyMs: 0, now: () => NOW });
    land(sim.ledger);
  });
  after(async () => {
    await sim.close();
  });

  it("answers a slot's export of a period as a CSV attachment", async () => {
    const from = new Date(T0).toISOString();
    const to = new Date(T0 + 60 * DAY).toISOString();
    const res = await fetch(`${sim.controlUrl}/exports/transactions.csv?supplier=supplier_d&from=${from}&to=${to}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="transactions-supplier_d.csv"');
    assert.equal(await res.text(), exportTransactionsCsv(sim.ledger, 'supplier_d', { from: T0, to: T0 + 60 * DAY }));
    // `to` defaults to now.
    const all = await fetch(`${sim.controlUrl}/exports/transactions.csv?supplier=supplier_d&from=${from}`);
    assert.equal(await all.text(), exportTransactionsCsv(sim.ledger, 'supplier_d', { from: T0, to: NOW }));
  });

  it('refuses an unknown supplier, a missing or bad period (400 naming the parameter) and other methods (405)', async () => {
    const ask = async (query: string, method = 'GET') => {
      const res = await fetch(`${sim.controlUrl}/exports/transactions.csv?${query}`, { method });
      return { status: res.status, body: (await res.json()) as { details?: { param: string } }, allow: res.headers.get('allow') };
    };
    assert.deepEqual([(await ask('supplier=supplier_x&from=2026-01-01T00:00:00Z')).body.details?.param], ['supplier']);
    const missing = await ask('supplier=supplier_b');
    assert.deepEqual([missing.status, missing.body.details?.param], [400, 'from']);
    const reversed = await ask('supplier=supplier_b&from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z');
    assert.deepEqual([reversed.status, reversed.body.details?.param], [400, 'to']);
    const bad = await ask('supplier=supplier_b&from=yesterday');
    assert.deepEqual([bad.status, bad.body.details?.param], [400, 'from']);
    const post = await ask('supplier=supplier_b&from=2026-01-01T00:00:00Z', 'POST');
    assert.deepEqual([post.status, post.allow], [405, 'GET']);
  });
});
