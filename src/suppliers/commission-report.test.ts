// The adapters' commission reports against fixture servers (Hotelbeds has none: net rates; LiteAPI's
// gives daily totals, decision 158): each
// supplier's paging, field names, time notation, status words and commission units, normalised to
// one CommissionRecord.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';
import { createSupplierA } from './supplier-a.ts';
import { createSupplierD } from './supplier-d.ts';
import { SupplierError } from './supplier-error.ts';
import type { CommissionRecord, Supplier } from './supplier.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';

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
    server = await startFixtureServer((url) => {
      const q = url.searchParams;
      if (url.pathname === '/affiliate/v1/bookings') {
        const booking = (ref: string, status: string, amount: string) => ({
          bookingRef: ref,
          clickId: 'ck1',
          affiliateId: 'aff',
          propertyId: 1048576,
          propertyName: 'Hôtel; "Lumière"',
          city: 'Paris',
          countryCode: 'FR',
          bookedAt: '2026-11-02T10:12:00Z',
          checkIn: '2026-12-01',
          checkOut: '2026-12-04',
          rooms: 1,
          guestCountry: 'DE',
          status,
          commission: { amount, currency: 'USD' },
          updatedAt: malformed ? '03/11/2026' : '2026-11-03T09:00:00+01:00',
        });
        const pages = [[booking('R1', 'PENDING', '12.34'), booking('R2', 'CONFIRMED', '7.5')], [booking('R3', 'CANCELLED', '0.00')]];
        return {
          body: { page: Number(q.get('page')), pageSize: 2, totalPages: 2, totalCount: 3, bookings: pages[Number(q.get('page')) - 1] },
        };
      }
      if (url.pathname === '/api/affiliate/reservations') {
        const reservation = (id: string, status: string, total: string, rate: string) => ({
          reservation_id: id,
          tracking: { click_id: 'ck1', affiliate: 'aff' },
          listing: { id: '1048576', headline: 'Hôtel; "Lumière"', city: 'Paris', country: 'FR' },
          created_at: '2026-11-02T11:12:00+01:00',
          check_in: '2026-12-01',
          check_out: '2026-12-04',
          units: 1,
          guest: { country: 'DE' },
          status,
          payout: { booking_total: total, commission_rate: rate, currency: 'USD' },
          updated_at: '2026-11-03T09:00:00+01:00',
        });
        const page = Number(q.get('page'));
        const data =
          page === 1
            ? [reservation('D1', 'pending', '345.67', '6.0'), reservation('D2', 'completed', '100.00', '6.5')]
            : [reservation('D3', 'canceled', '80.00', '6.0')];
        return { body: { data, meta: { current_page: page, last_page: 2, per_page: 2, total: 3 } } };
      }
      return { status: 404, body: { error: 'Not Found' } };
    });
  });
  after(() => server.close());

  it('supplier_a: numbered pages, ISO times with any offset, USD decimal strings', async () => {
    malformed = false;
    const records = await collect(createSupplierA(testSupplierConfig('supplier_a', server.baseUrl)));
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
    assert.ok(
      server.requests.some((r) =>
        r.startsWith('/affiliate/v1/bookings?updatedFrom=2026-11-01T00%3A00%3A00.000Z&updatedTo=2026-11-21T10%3A00%3A00.500Z&page=2'),
      ),
      "server.requests.some((r) => r.startsWith('/affiliate/v1/bookings?updatedFrom=2026-11-01T00%3A00%3A00.000Z&updatedTo=2026-11-21T10%3A00%3A00.500Z&page=2'))",
    );
  });

  it('supplier_d: Laravel pages, UTC+01:00 times, commission = total x rate rounded half up', async () => {
    const records = await collect(createSupplierD(testSupplierConfig('supplier_d', server.baseUrl)));
    // 345.67 x 6.0% = 20.7402; 100.00 x 6.5% = 6.50; canceled: the adapter states the figure, the gateway pays 0.
    assert.deepEqual(
      records.map((r) => [r.bookingId, r.status, r.commissionUsdCents]),
      [
        ['D1', 'Pending', 2074],
        ['D2', 'Approved', 650],
        ['D3', 'Canceled', 480],
      ],
    );
    assert.deepEqual(
      { ...records[0], bookingId: undefined, status: undefined, commissionUsdCents: undefined },
      { ...base, bookingId: undefined, status: undefined, commissionUsdCents: undefined },
    );
  });

  it('fails a report on a malformed record or body, naming the supplier and the field', async () => {
    malformed = true;
    try {
      await assert.rejects(
        collect(createSupplierA(testSupplierConfig('supplier_a', server.baseUrl))),
        (error: unknown) =>
          error instanceof SupplierError && error.kind === 'malformed' && /report page 1\.bookings\[0\]\.updatedAt/.test(error.message),
      );
    } finally {
      malformed = false;
    }
  });
});
