// One content refresh as the worker runs it: the simulated suppliers' feeds pulled, merged, built
// and published (what the one-shot ingest of before the refresh was tested for, now on the path
// the product takes), the index handed back the one a later start loads from the store, and what a
// pull reports of the supplier's answers besides its listings: whether the credentials were
// accepted, and the 429s it waited out (fetch-json's waits, seen through the pull's async context)
// instead of failing the feed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateWorld, type SimSuppliers, startSimSuppliers, type World } from '@staygate/sim';
import { defaults } from '../defaults.ts';
import { indexRowsOf } from '../store/index-chunk.ts';
import { createSqliteStore } from '../store/sqlite-store.ts';
import type { IndexRow, Store } from '../store/store.ts';
import { createBookingDemandDriver } from '../suppliers/booking-demand.ts';
import { createExpediaRapidDriver } from '../suppliers/expedia-rapid.ts';
import { fetchJson } from '../suppliers/fetch-json.ts';
import { createHotelbedsDriver } from '../suppliers/hotelbeds.ts';
import { createLiteapiDriver } from '../suppliers/liteapi.ts';
import { bookingDemandListing } from '../test-support/booking-demand-listing.ts';
import { expediaRapidListing } from '../test-support/expedia-rapid-listing.ts';
import { startFixtureServer, type FixtureServer } from '../test-support/fixture-server.ts';
import { hotelbedsListing } from '../test-support/hotelbeds-listing.ts';
import { liteapiListing } from '../test-support/liteapi-listing.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';
import type { Supplier } from '../suppliers/supplier.ts';
import { SUPPLIER_IDS, type Listing, type SupplierId } from '../types.ts';
import { exactCells, storedCells } from './exact-cells.ts';
import { describeRefresh, refreshContent, type RefreshOptions } from './refresh-content.ts';
import { buildStayIndex } from './stay-index.ts';

/** A refresh of these suppliers into this store, with the shipped figures. */
const refresh = (suppliers: readonly Supplier[], store: Store, more: Partial<RefreshOptions> = {}) =>
  refreshContent({ suppliers, store, shrinkLimit: defaults.feedShrinkLimit, settings: defaults, ...more });

function rowsOf(store: Store, no: number): Promise<IndexRow[]> {
  return indexRowsOf(store.version(no).indexChunks());
}

describe('refreshContent from the simulated suppliers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'staygate-refresh-sim-'));
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

  it('publishes the first version into the store; the same feeds again publish nothing, and the file keeps it', async (t) => {
    const path = join(dir, 'inventory.sqlite');
    const store = createSqliteStore({ path, settings: defaults });
    let label: string;
    try {
      const first = await refresh(suppliers, store, { pageSize: 500 });
      const result = first.result;
      assert.ok(result !== null, 'published');
      label = result.label;
      t.diagnostic(describeRefresh(first).join('; '));
      const listingCount = SUPPLIER_IDS.reduce((sum, s) => sum + world.listings[s].length, 0);
      assert.equal(result.listings, listingCount);
      // Merge errors are rare: the stay count is within 1% of the true number of properties.
      const properties = world.properties.length;
      assert.ok(Math.abs(result.stays - properties) <= properties * 0.01, `${result.stays} stays for ${properties} properties`);
      assert.equal((await store.currentContent())?.label, result.label);

      const rows = await rowsOf(store, result.no);
      assert.equal(rows.length, result.stays);
      assert.deepEqual(
        rows.map((r) => r.idx),
        rows.map((_r, i) => i),
      );
      assert.deepEqual(
        [...rows.map((r) => r.rank)].sort((a, b) => a - b),
        rows.map((_r, i) => i),
      );
      // Each chunk keeps its stays' exact cells, which a start's index build reads (decision 215).
      const kept: { cells: Uint8Array | null; rows: number }[] = [];
      for await (const chunk of store.version(result.no).indexChunks()) kept.push({ cells: chunk.cells ?? null, rows: chunk.rowCount });
      const index = await buildStayIndex(store.version(result.no).indexChunks());
      const cells = storedCells(kept, index.size);
      assert.ok(cells, 'every chunk kept its cells');
      const r = defaults.clusterMaxResolution;
      assert.deepEqual(exactCells(index, r, cells), exactCells(index, r));

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

      // The same feeds: the same stays, no new version (docs/decisions.md 80).
      const second = await refresh(suppliers, store);
      assert.deepEqual([second.result?.unchanged, second.result?.no, second.result?.label], [true, result.no, result.label]);
    } finally {
      await store.close();
    }
    // A later start on the same file finds the version.
    const reopened = createSqliteStore({ path, settings: defaults });
    try {
      assert.equal((await reopened.currentContent())?.label, label);
    } finally {
      await reopened.close();
    }
  });

  it('gives the same service ids when the same feeds are published into another store', async () => {
    const idsOf = async (): Promise<string[]> => {
      const store = createSqliteStore({ path: ':memory:', settings: defaults });
      try {
        const outcome = await refresh(suppliers, store);
        const rows = await rowsOf(store, outcome.result!.no);
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
      await refresh([quoting, ...others], store);
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

  it('fails a broken feed alone, naming the supplier: nothing of it is published, and nothing at all when it was the only one', async () => {
    const broken = createLiteapiDriver(testSupplierConfig('supplier_c', `${sim.urls.supplier_c}/nowhere`), defaults);
    const store = createSqliteStore({ path: ':memory:', settings: defaults });
    try {
      const alone = await refresh([broken], store);
      const feed = alone.feeds.supplier_c!;
      assert.match(!feed.ok ? feed.error : 'applied', /supplier_c: HTTP 404/);
      assert.equal(alone.result, null);
      assert.equal(await store.currentContent(), null);

      const outcome = await refresh([suppliers[0], suppliers[1], broken, suppliers[3]], store);
      assert.ok(outcome.result !== null, 'the others are published');
      const c = outcome.result.suppliers.supplier_c;
      assert.deepEqual([c.verdict, c.state, c.listings], ['failed', 'unavailable', 0]);
      assert.match(c.lastError ?? '', /supplier_c: HTTP 404/);
      assert.equal(
        outcome.result.listings,
        world.listings.supplier_a.length + world.listings.supplier_b.length + world.listings.supplier_d.length,
      );
    } finally {
      await store.close();
    }
  });
});

const listing = (supplier: SupplierId, supplierStayId: string): Listing => ({
  supplier,
  supplierStayId,
  name: `Hotel ${supplierStayId}`,
  typeLabel: 'Hotel',
  type: 'hotel',
  address: '1 Main Street, Springfield, US',
  lat: 40,
  lng: -75,
  rating: { value: 8, hotelStars: 3, count: 10 },
  capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
  policies: { instantBook: true, freeCancellation: false },
  media: { thumbnail: '', logoSquare: '' },
});

describe('refreshContent: credentials and rate limits', () => {
  const dir = mkdtempSync(join(tmpdir(), 'staygate-refresh-content-'));
  let server: FixtureServer;
  before(async () => {
    server = await startFixtureServer((url) => {
      const n = server.requests.filter((r) => r === url.pathname).length;
      switch (url.pathname) {
        case '/limited-once':
          return n === 1 ? { status: 429, body: {}, headers: { 'retry-after': '0' } } : { body: [] };
        case '/refused':
          return { status: 401, body: { error: { code: 401, message: 'Invalid API key' } } };
        case '/page':
          return { body: [] };
        default:
          return { status: 500, body: { error: 'boom' } };
      }
    });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A supplier whose feed is these paths fetched in turn, as a driver would with fetchJson, each page one listing. */
  const feedOf = (id: SupplierId, paths: string[]): Supplier => ({
    id,
    maxIdsPerQuote: 1,
    async *contentPages({ signal } = {}) {
      for (const [i, path] of paths.entries()) {
        await fetchJson(`${server.baseUrl}${path}`, { supplier: id, settings: defaults, signal, backoffMs: 1 });
        yield [listing(id, String(i + 1))];
      }
    },
    quote: () => assert.fail('no quotes here'),
    commissionReport: () => assert.fail('no reports here'),
  });

  it('reports auth ok, failed (with the supplier message) or unknown per feed, and the 429s each waited out', async () => {
    const store = createSqliteStore({ path: join(dir, 'store.sqlite'), settings: defaults });
    try {
      const outcome = await refreshContent({
        store,
        shrinkLimit: 0.2,
        settings: defaults,
        suppliers: [
          feedOf('supplier_a', ['/limited-once', '/limited-once']),
          feedOf('supplier_b', ['/refused']),
          feedOf('supplier_c', ['/broken']),
          feedOf('supplier_d', ['/page', '/broken']),
        ],
      });
      const { supplier_a: a, supplier_b: b, supplier_c: c, supplier_d: d } = outcome.feeds;
      assert.deepEqual([a?.ok, a?.auth, a?.rateLimitWaits], [true, 'ok', 1], 'a 429 waited out: the feed applies');
      assert.deepEqual([b?.ok, b?.auth, b?.rateLimitWaits], [false, 'failed', 0]);
      assert.equal(!b!.ok && b!.error, 'auth: Invalid API key');
      assert.deepEqual([c?.ok, c?.auth], [false, 'unknown'], 'failed before any page, not for its credentials');
      assert.deepEqual([d?.ok, d?.auth], [false, 'ok'], 'a page came before it failed: the credentials were accepted');
      const lines = describeRefresh(outcome);
      assert.match(lines[0]!, /^supplier_a: 2 listings in \d+ ms \(1 rate-limit waits\)$/);
      assert.match(lines[1]!, /^supplier_b: feed failed after \d+ ms: auth: Invalid API key$/);
    } finally {
      await store.close();
    }
  });
});
