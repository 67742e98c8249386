// The commission report of the one API that has one the gateway reads, Booking.com's orders,
// against a fixture server (Hotelbeds has none: net rates; LiteAPI's gives daily totals, decision
// 158; Expedia Rapid has none for affiliates): its paging, windows, time notation, status words
// and commission units, normalised to one CommissionRecord.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFixtureServer, type FixtureServer } from '../test-support/fixture-server.ts';
import { createBookingDemandDriver } from './booking-demand.ts';
import { SupplierError } from './supplier-error.ts';
import type { CommissionRecord, Supplier } from './supplier.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';
import { defaults } from '../defaults.ts';

const FROM = new Date('2026-11-01T00:00:00.000Z');
const TO = new Date('2026-11-21T10:00:00.500Z');

async function collect(supplier: Supplier, pageSize = 2): Promise<CommissionRecord[]> {
  const out: CommissionRecord[] = [];
  for await (const page of supplier.commissionReport!({ from: FROM, to: TO, pageSize })) out.push(...page);
  return out;
}

const base: Omit<CommissionRecord, 'bookingId' | 'status' | 'commissionUsdCents'> = {
  clickId: 'ck1',
  supplierStayId: '1048576',
  bookedAt: '2026-11-02T10:12:00.000Z',
  checkin: '2026-12-01',
  checkout: '2026-12-04',
  rooms: 1,
  propertyName: 'Hôtel; "Lumière"',
  destination: 'Paris, FR',
  guestCountry: 'DE',
  updatedAt: '2026-11-03T08:00:00.000Z',
};

describe('commission reports', () => {
  let server: FixtureServer;
  let malformed = false;
  before(async () => {
    server = await startFixtureServer((url, request) => {
      // supplier_a: Booking.com's orders (decision 153), POST bodies, 7-day windows, `{ page }` tokens.
      if (url.pathname === '/orders/details') {
        const asked = JSON.parse(request.body) as { page?: string; updated?: { from: string } };
        const order = (id: string, status: string, commission: Record<string, number | null>) => ({
          id,
          accommodations: { reservation: 1 },
          booker: { address: { city: null, country: 'de' } },
          created: '2026-11-02T11:12:00+01:00',
          commission,
          currency: 'USD',
          status,
          updated: malformed ? '03/11/2026' : '2026-11-03T09:00:00+01:00',
        });
        if (asked.page === 'orders-2')
          return {
            body: { data: [order('R3', 'cancelled', { actual_amount: 0, estimated_amount: null })], metadata: { next_page: null } },
          };
        // The first window holds the orders; the later ones are empty.
        if (asked.updated?.from !== FROM.toISOString()) return { body: { data: [], metadata: { next_page: null, total_results: 0 } } };
        return {
          body: {
            data: [
              order('R1', 'booked', { actual_amount: null, estimated_amount: 12.34 }),
              order('R2', 'stayed', { actual_amount: 7.5, estimated_amount: null }),
            ],
            metadata: { next_page: 'orders-2', total_results: 3 },
          },
        };
      }
      if (url.pathname === '/orders/details/accommodations') {
        const { orders } = JSON.parse(request.body) as { orders: string[] };
        return {
          body: {
            data: orders.map((id) => ({
              id,
              accommodation: 1048576,
              accommodation_details: { name: 'Hôtel; "Lumière"', location: { city: -1, country: 'fr' } },
              checkin: '2026-12-01',
              checkout: '2026-12-04',
              label: 'ck1',
              products: [{ status: 'booked' }],
            })),
          },
        };
      }
      if (url.pathname === '/common/locations/cities') return { body: { data: [{ id: -1, name: { 'en-gb': 'Paris' } }], next_page: null } };
      return { status: 404, body: { error: 'Not Found' } };
    });
  });
  after(() => server.close());

  it('supplier_a: Booking.com orders in 7-day windows, ISO times with any offset, USD amounts', async () => {
    malformed = false;
    const records = await collect(createBookingDemandDriver(testSupplierConfig('supplier_a', server.baseUrl), defaults));
    assert.deepEqual(
      records.map((r) => [r.bookingId, r.status, r.commissionUsdCents]),
      [
        ['R1', 'Pending', 1234],
        ['R2', 'Approved', 750],
        ['R3', 'Canceled', 0],
      ],
    );
    assert.deepEqual(
      { ...records[0], bookingId: undefined, status: undefined, commissionUsdCents: undefined },
      { ...base, bookingId: undefined, status: undefined, commissionUsdCents: undefined },
    );
    const windows = server.received
      .filter((r) => r.url === '/orders/details')
      .map((r) => (JSON.parse(r.body) as { updated?: { from: string; to: string }; page?: string }).updated ?? 'page');
    assert.deepEqual(windows, [
      { from: '2026-11-01T00:00:00.000Z', to: '2026-11-07T23:59:59.999Z' },
      'page',
      { from: '2026-11-08T00:00:00.000Z', to: '2026-11-14T23:59:59.999Z' },
      { from: '2026-11-15T00:00:00.000Z', to: '2026-11-21T10:00:00.499Z' },
    ]);
  });

  it('fails a report on a malformed record or body, naming the supplier and the field', async () => {
    malformed = true;
    try {
      await assert.rejects(
        collect(createBookingDemandDriver(testSupplierConfig('supplier_a', server.baseUrl), defaults)),
        (error: unknown) =>
          error instanceof SupplierError && error.kind === 'malformed' && /orders page 1\.data\[0\]\.updated/.test(error.message),
      );
    } finally {
      malformed = false;
    }
  });
});
