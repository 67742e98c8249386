import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateWorld, type SimSuppliers, startSimSuppliers, type World } from '@staygate/sim';
import { createSqliteStore } from '../store/sqlite-store.ts';
import type { IndexRow } from '../store/store.ts';
import { createBookingDemandDriver } from '../suppliers/booking-demand.ts';
import { createHotelbedsDriver } from '../suppliers/hotelbeds.ts';
import { createLiteapiDriver } from '../suppliers/liteapi.ts';
import { createExpediaRapidDriver } from '../suppliers/expedia-rapid.ts';
import type { Supplier } from '../suppliers/supplier.ts';
import { SUPPLIER_IDS, type Listing } from '../types.ts';
import { ensureInventory, ingestInventory } from './ingest.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';
import { bookingDemandListing } from '../test-support/booking-demand-listing.ts';
import { hotelbedsListing } from '../test-support/hotelbeds-listing.ts';
import { expediaRapidListing } from '../test-support/expedia-rapid-listing.ts';
import { liteapiListing } from '../test-support/liteapi-listing.ts';
import { defaults } from '../defaults.ts';

describe('ingestion from the simulated suppliers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'staygate-ingest-'));
  let world: World;
  let sim: SimSuppliers;
  let suppliers: Supplier[];

  before(async () => {
    world = generateWorld({ seed: 11, stays: 3_000 });
    sim = await startSimSuppliers({ world });
    suppliers = [
      createBookingDemandDriver(testSupplierConfig('supplier_a', sim.urls.supplier_a), defaults),
      createHotelbedsDriver(testSupplierConfig('supplier_b', sim.urls.supplier_b), defaults),
      createLiteapiDriver(testSupplierConfig('supplier_c', sim.urls.supplier_c), defaults),
      createExpediaRapidDriver(testSupplierConfig('supplier_d', sim.urls.supplier_d), defaults),
    ];
  });
  after(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('decodes every feed back to the canonical listings, exactly', async () => {
    for (const supplier of suppliers) {
      const pulled: Listing[] = [];
      for await (const page of supplier.contentPages({ pageSize: 700 })) pulled.push(...page);
      // The feeds name media under the supplier's own address (packages/sim/src/media.ts).
      const base = sim.urls[supplier.id];
      const expected = world.listings[supplier.id].map((l) => {
        // A Hotelbeds slot carries what Hotelbeds has of a listing (test-support/hotelbeds-listing.ts).
        if (sim.slots[supplier.id].api === 'hotelbeds') {
          const { propertyId: _propertyId, ...listing } = hotelbedsListing(l, base);
          return listing;
        }
        // A LiteAPI slot likewise (test-support/liteapi-listing.ts).
        if (sim.slots[supplier.id].api === 'liteapi') {
          const { propertyId: _propertyId, ...listing } = liteapiListing(l, base);
          return listing;
        }
        // A Booking.com slot likewise (test-support/booking-demand-listing.ts).
        if (sim.slots[supplier.id].api === 'booking-demand') {
          const { propertyId: _propertyId, ...listing } = bookingDemandListing(l, base);
          return listing;
        }
        // And a Rapid slot what Rapid has (test-support/expedia-rapid-listing.ts).
        if (sim.slots[supplier.id].api === 'expedia-rapid') {
          const { propertyId: _propertyId, ...listing } = expediaRapidListing(l, base);
          return listing;
        }
        const { propertyId: _propertyId, ...listing } = l;
        return { ...listing, media: { thumbnail: `${base}${listing.media.thumbnail}`, logoSquare: `${base}${listing.media.logoSquare}` } };
      });
      // Booking.com and LiteAPI list country by country: the same listings in another order.
      const byId = (a: { supplierStayId: string }, b: { supplierStayId: string }) => a.supplierStayId.localeCompare(b.supplierStayId);
      const countryByCountry = ['booking-demand', 'liteapi'].includes(sim.slots[supplier.id].api);
      const inOrder = countryByCountry ? (list: typeof expected) => [...list].sort(byId) : (list: typeof expected) => list;
      assert.deepEqual(inOrder(pulled), inOrder(expected), supplier.id);
    }
  });

  it('ingests once into the store, then reuses it', async (t) => {
    const path = join(dir, 'inventory.sqlite');
    const store = createSqliteStore({ path, settings: defaults });
    const messages: string[] = [];
    try {
      const first = await ensureInventory({ suppliers, store, log: (m) => messages.push(m), pageSize: 500 });
      assert.equal(first.ingested, true);
      assert.ok(first.ingested, 'first.ingested');
      t.diagnostic(`${first.listings} listings -> ${first.stays} stays in ${first.ms} ms; ${messages.at(-1)}`);
      const listingCount = SUPPLIER_IDS.reduce((sum, s) => sum + world.listings[s].length, 0);
      assert.equal(first.listings, listingCount);
      // Merge errors are rare: the stay count is within 1% of the true number of properties.
      const properties = world.properties.length;
      assert.ok(Math.abs(first.stays - properties) <= properties * 0.01, `${first.stays} stays for ${properties} properties`);
      assert.equal(await store.inventoryVersion(), first.version);

      const rows: IndexRow[] = [];
      for await (const batch of store.indexRows(1_000)) rows.push(...batch);
      assert.equal(rows.length, first.stays);
      assert.deepEqual(
        rows.map((r) => r.idx),
        rows.map((_r, i) => i),
      );
      assert.deepEqual(
        [...rows.map((r) => r.rank)].sort((a, b) => a - b),
        rows.map((_r, i) => i),
      );

      // Every supplier id resolves, prefixed, to exactly one stay.
      const sample = SUPPLIER_IDS.map((s) => world.listings[s][0]);
      const resolved = await store.resolveHotelIds(
        sample.map((l) => ({ raw: `${l.supplier}:${l.supplierStayId}`, supplier: l.supplier, id: l.supplierStayId })),
      );
      for (const found of resolved) assert.equal(found.length, 1);
      const [stay] = await store.getStays(resolved[0]);
      assert.ok(
        stay.listings.some((l) => l.supplier === sample[0].supplier && l.supplierStayId === sample[0].supplierStayId),
        'stay.listings.some((l) => l.supplier === sample[0].supplier && l.supplierStayId === sample[0].supplierStayId)',
      );

      const second = await ensureInventory({ suppliers, store, log: (m) => messages.push(m) });
      assert.deepEqual(second, { ingested: false, version: first.version });
    } finally {
      await store.close();
    }
    // A later start on the same file does not ingest either.
    const reopened = createSqliteStore({ path, settings: defaults });
    try {
      const third = await ensureInventory({ suppliers: [], store: reopened });
      assert.equal(third.ingested, false);
    } finally {
      await reopened.close();
    }
  });

  it('gives the same service ids when the same feeds are ingested again', async () => {
    const idsOf = async (): Promise<string[]> => {
      const store = createSqliteStore({ path: ':memory:', settings: defaults });
      try {
        await ingestInventory({ suppliers, store });
        const rows: IndexRow[] = [];
        for await (const batch of store.indexRows()) rows.push(...batch);
        return (await store.getStays(rows.map((r) => r.idx))).map((s) => s.id);
      } finally {
        await store.close();
      }
    };
    const first = await idsOf();
    assert.deepEqual(await idsOf(), first);
    assert.ok(
      first.every((id) => /^st[0-9a-v]{12}$/.test(id)),
      'first.every((id) => /^st[0-9a-v]{12}$/.test(id))',
    );
  });

  it('percent-encodes what JSON would escape in media URLs (responses write them unscanned)', async () => {
    const [a, ...others] = suppliers;
    const first = world.listings.supplier_a[0];
    const quoting: Supplier = {
      ...a,
      async *contentPages(options) {
        for await (const page of a.contentPages(options)) {
          yield page.map((l) =>
            l.supplierStayId === first.supplierStayId ? { ...l, media: { ...l.media, thumbnail: 'https://img.example/"x"\\y é.jpg' } } : l,
          );
        }
      },
    };
    const store = createSqliteStore({ path: ':memory:', settings: defaults });
    try {
      await ingestInventory({ suppliers: [quoting, ...others], store });
      const [found] = await store.resolveHotelIds([
        { raw: `supplier_a:${first.supplierStayId}`, supplier: 'supplier_a', id: first.supplierStayId },
      ]);
      const [stay] = await store.getStays(found);
      const listing = stay.listings.find((l) => l.supplier === 'supplier_a')!;
      assert.equal(listing.media.thumbnail, 'https://img.example/%22x%22%5Cy%20%C3%A9.jpg');
      // The logo as the slot carries it: Booking.com's content has none ('').
      assert.equal(listing.media.logoSquare, bookingDemandListing(first, sim.urls.supplier_a).media.logoSquare);
    } finally {
      await store.close();
    }
  });

  it('fails the whole ingest, naming the supplier, when one feed breaks', async () => {
    const broken = createLiteapiDriver(testSupplierConfig('supplier_c', `${sim.urls.supplier_c}/nowhere`), defaults);
    const store = createSqliteStore({ path: ':memory:', settings: defaults });
    try {
      await assert.rejects(
        ingestInventory({ suppliers: [suppliers[0], suppliers[1], broken, suppliers[3]], store }),
        /supplier_c: HTTP 404/,
      );
      assert.equal(await store.inventoryVersion(), null);
    } finally {
      await store.close();
    }
  });
});
