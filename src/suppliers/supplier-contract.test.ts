// The Supplier port's contract, run by all four adapters against the simulated suppliers, whose
// world is the ground truth: content pages decode to exactly the world's listings, quotes to
// exactly the simulator's prices, every failure to its SupplierError kind, a caller's abort to
// its own reason (QuoteService relies on that), and commission reports to the ledger's bookings.
// Each adapter's own test file covers its wire format's corners against fixture servers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateWorld, simQuote, type SimSuppliers, startSimSuppliers, type World } from '@staygate/sim';
import { SUPPLIER_IDS, type Listing, type SupplierId } from '../types.ts';
import { createBookingDemandDriver } from './booking-demand.ts';
import { createHotelbedsDriver } from './hotelbeds.ts';
import { createLiteapiDriver } from './liteapi.ts';
import { createExpediaRapidDriver } from './expedia-rapid.ts';
import { SupplierError, type SupplierErrorKind } from './supplier-error.ts';
import type { DriverSettings, Quote, QuoteRequest, Supplier, SupplierConfig } from './supplier.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';
import { bookingDemandListing } from '../test-support/booking-demand-listing.ts';
import { hotelbedsListing } from '../test-support/hotelbeds-listing.ts';
import { expediaRapidListing } from '../test-support/expedia-rapid-listing.ts';
import { liteapiListing } from '../test-support/liteapi-listing.ts';
import { allListings } from '../test-support/fixture-server.ts';
import { defaults } from '../defaults.ts';

const ADAPTERS: Record<SupplierId, (config: SupplierConfig, settings: DriverSettings) => Supplier> = {
  supplier_a: createBookingDemandDriver,
  supplier_b: createHotelbedsDriver,
  supplier_c: createLiteapiDriver,
  supplier_d: createExpediaRapidDriver,
};
const NOW = Date.parse('2026-11-21T10:00:00Z');
const DATES = { checkin: '2027-03-01', checkout: '2027-03-04' };

let world: World;
let sim: SimSuppliers;
before(async () => {
  world = generateWorld({ seed: 11, stays: 600 });
  sim = await startSimSuppliers({ world, latencyMs: 0, now: () => NOW });
});
after(async () => {
  await sim.close();
});

/** A listing without what the simulator decides per address it was reached at (media URLs). */
function comparable(listing: Listing): Omit<Listing, 'media'> {
  const { media: _media, ...rest } = listing as Listing & { propertyId?: number };
  delete (rest as { propertyId?: number }).propertyId;
  return rest;
}

async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  assert.fail('expected a rejection');
}

for (const id of SUPPLIER_IDS) {
  describe(`Supplier contract: ${id}`, () => {
    const supplier = () => ADAPTERS[id](testSupplierConfig(id, sim.urls[id]), defaults);
    const request = (ids: string[]): QuoteRequest => ({
      ...DATES,
      supplierStayIds: ids,
      adults: 2,
      children: 0,
      childrenAges: null,
      rooms: 1,
      currency: 'EUR',
    });

    it('content pages: every listing of the world, exactly, across pages', async () => {
      const listings = await allListings(supplier(), 37);
      assert.equal(listings.length, world.listings[id].length);
      // Hotelbeds, Booking.com, LiteAPI and Rapid carry less than the world knows (their own types, ratings as
      // they have them): what they carry. Booking.com and LiteAPI list country by country, not in the world's order.
      const api = sim.slots[id].api;
      const truth = world.listings[id].map((l) =>
        api === 'hotelbeds'
          ? hotelbedsListing(l, sim.urls[id])
          : api === 'booking-demand'
            ? bookingDemandListing(l, sim.urls[id])
            : api === 'liteapi'
              ? liteapiListing(l, sim.urls[id])
              : expediaRapidListing(l, sim.urls[id]),
      );
      const inOrder = (list: Listing[]) =>
        api === 'booking-demand' || api === 'liteapi' ? [...list].sort((a, b) => a.supplierStayId.localeCompare(b.supplierStayId)) : list;
      assert.deepEqual(inOrder(listings).map(comparable), inOrder(truth).map(comparable));
      for (const l of listings) {
        assert.equal(l.supplier, id);
        assert.equal(typeof l.media.thumbnail, 'string', l.supplierStayId);
        assert.equal(typeof l.media.logoSquare, 'string', l.supplierStayId);
      }
    });

    it('quotes: the simulator own answer for every id, unknown ids not bookable', async () => {
      const ids = world.listings[id].slice(0, Math.min(supplier().maxIdsPerQuote - 1, 25)).map((l) => l.supplierStayId);
      const unknown = '9999999';
      const answer = await supplier().quote(request([...ids, unknown]), AbortSignal.timeout(10_000));
      for (const stayId of ids) {
        const truth = simQuote(world, id, stayId, { ...request([]), childrenAges: null });
        const got: Quote = answer.get(stayId) ?? { available: false };
        assert.deepEqual(got, truth, stayId);
      }
      assert.equal(answer.get(unknown)?.available ?? false, false);
    });

    const failures: [string, SupplierErrorKind][] = [
      ['error', 'http'],
      ['malformed', 'malformed'],
      ['down', 'network'],
    ];
    for (const [fault, kind] of failures) {
      it(`a supplier that is ${fault} fails content and quotes with a SupplierError of kind ${kind}`, async () => {
        await sim.setFault(id, fault);
        try {
          const stayId = world.listings[id][0].supplierStayId;
          for (const run of [() => allListings(supplier(), 50), () => supplier().quote(request([stayId]), AbortSignal.timeout(10_000))]) {
            const error = await failureOf(run);
            assert.ok(error instanceof SupplierError, `${fault}: ${String(error)}`);
            assert.equal(error.kind, kind);
            assert.equal(error.supplier, id);
          }
        } finally {
          await sim.setFault(id, null);
        }
      });
    }

    it("a caller's abort rejects with the caller's own reason; a deadline is a timeout", async () => {
      await sim.setFault(id, 'timeout');
      try {
        const stayId = world.listings[id][0].supplierStayId;
        const controller = new AbortController();
        const reason = new Error('the caller went away');
        const pending = supplier().quote(request([stayId]), controller.signal);
        controller.abort(reason);
        assert.equal(await failureOf(() => pending), reason);
        const late = new AbortController();
        const timing = supplier().quote(request([stayId]), late.signal);
        late.abort(new DOMException('budget spent', 'TimeoutError'));
        const error = await failureOf(() => timing);
        assert.ok(error instanceof SupplierError && error.kind === 'timeout', String(error));
      } finally {
        await sim.setFault(id, null);
      }
    });

    it('commission reports: every booking of the ledger in the period, normalised', async () => {
      if (sim.slots[id].api !== 'booking-demand') {
        // Hotelbeds (net rates), LiteAPI (daily totals only, decision 158) and Rapid (none for
        // affiliates) have no commission report the gateway reads: the slot's transactions come
        // from `staygate transactions import`.
        assert.equal(supplier().commissionReport, undefined, `${sim.slots[id].api} has no commission report the gateway reads`);
        return;
      }
      const listings = world.listings[id].slice(0, 200);
      listings.forEach((l, i) =>
        sim.ledger.land({
          supplier: id,
          clickId: `contract-${id}-${i}`,
          supplierStayId: l.supplierStayId,
          affiliate: 'aff',
          checkin: null,
          checkout: null,
          at: NOW - (30 - (i % 30)) * 86_400_000,
        }),
      );
      const from = new Date(NOW - 60 * 86_400_000);
      const to = new Date(NOW + 1_000);
      const truth = sim.ledger.report(id, from.getTime(), to.getTime());
      assert.ok(truth.length > 0, 'some landings booked');
      const records = [];
      for await (const page of supplier().commissionReport!({ from, to, pageSize: 7 })) records.push(...page);
      assert.deepEqual(records.map((r) => r.bookingId).sort(), truth.map((e) => e.booking.bookingId).sort());
      for (const r of records) {
        const entry = truth.find((e) => e.booking.bookingId === r.bookingId)!;
        assert.equal(r.clickId, entry.booking.clickId);
        assert.equal(r.supplierStayId, entry.booking.supplierStayId);
        assert.equal(r.checkin, entry.booking.checkin);
        assert.equal(r.checkout, entry.booking.checkout);
        assert.equal(r.updatedAt, new Date(entry.state.at).toISOString());
        assert.ok(['Pending', 'Approved', 'Canceled'].includes(r.status), r.status);
        assert.ok(Number.isInteger(r.commissionUsdCents) && r.commissionUsdCents >= 0, `${r.commissionUsdCents}`);
      }
    });
  });
}
