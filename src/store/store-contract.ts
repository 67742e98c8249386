// The behaviour every Store implementation must have. Each implementation's test file calls
// runStoreContract with a factory that returns a fresh, empty store.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { HotelIdRef, Listing, Stay, SupplierId } from '../types.ts';
import type { IndexRow, RankedStay, Store } from './store.ts';

function listing(supplier: SupplierId, supplierStayId: string, overrides: Partial<Listing> = {}): Listing {
  return {
    supplier,
    supplierStayId,
    name: `Listing ${supplierStayId}`,
    typeLabel: 'Hotel',
    type: 'hotel',
    address: '1 Main Street, Springfield, US',
    lat: 40,
    lng: -75,
    rating: { value: 8, hotelStars: 3, count: 10 },
    capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
    policies: { instantBook: true, freeCancellation: false },
    media: { thumbnail: 'https://img/t.jpg', logoSquare: 'https://img/l.png' },
    ...overrides,
  };
}

function stay(idx: number, rank: number, id: string, listings: Listing[], overrides: Partial<Stay> = {}): RankedStay {
  const first = listings[0];
  return {
    idx,
    rank,
    id,
    name: first.name,
    type: first.type,
    typeLabel: first.typeLabel,
    address: first.address,
    lat: first.lat,
    lng: first.lng,
    h3: '8f2a1072b59ffff',
    capacity: first.capacity,
    averageRating: first.rating,
    listings,
    ...overrides,
  };
}

/**
 * Four stays whose supplier ids overlap the way the real feeds do: supplier_a and supplier_c
 * both use 1001 (for different stays), supplier_d uses 1001 too, and one stay is cross-listed.
 */
function fixture(): RankedStay[] {
  return [
    stay(0, 2, 'staaaaaaaaaaaa', [listing('supplier_a', '1001', { name: 'Hôtel Saint-Éloi' })], {
      name: 'Hôtel Saint-Éloi',
      averageRating: { value: 8.4, hotelStars: 4, count: 120 },
    }),
    stay(1, 0, 'stbbbbbbbbbbbb', [
      listing('supplier_a', '2002', { name: 'Grand Plaza' }),
      listing('supplier_b', 'HB0002002', { name: 'The Grand Plaza Hotel' }),
      listing('supplier_c', '1001', { name: 'Grand Plaza' }),
    ], {
      name: 'Grand Plaza',
      lat: 40.001,
      lng: -75.002,
      h3: '8f2a1072b5affff',
      averageRating: { value: 9.1, hotelStars: 4.5, count: 3000 },
    }),
    stay(2, 3, 'stcccccccccccc', [
      listing('supplier_d', '1001', {
        name: 'Sunny Villa', type: 'villa', typeLabel: 'Entire villa',
        rating: { value: 9.6, hotelStars: null, count: 4 },
        capacity: { guests: 6, bedrooms: 3, beds: null, bathrooms: 2.5 },
      }),
    ], { name: 'Sunny Villa', type: 'villa', typeLabel: 'Entire villa', averageRating: { value: 9.6, hotelStars: null, count: 4 } }),
    stay(3, 1, 'stdddddddddddd', [listing('supplier_b', 'HB0000004', { name: 'Budget Inn' })], {
      name: 'Budget Inn',
      averageRating: { value: 6.2, hotelStars: null, count: 0 },
    }),
  ];
}

function withoutRank(stays: RankedStay[]): Stay[] {
  return stays.map(({ rank: _rank, ...rest }) => rest);
}

function stripRank(stays: Stay[]): Stay[] {
  return stays.map((s) => {
    const { rank: _rank, ...rest } = s as Stay & { rank?: number };
    return rest;
  });
}

async function allRows(store: Store, batchSize?: number): Promise<{ batches: number[]; rows: IndexRow[] }> {
  const batches: number[] = [];
  const rows: IndexRow[] = [];
  for await (const batch of store.indexRows(batchSize)) {
    batches.push(batch.length);
    rows.push(...batch);
  }
  return { batches, rows };
}

function bare(id: string): HotelIdRef {
  return { raw: id, supplier: null, id };
}

function prefixed(supplier: SupplierId, id: string): HotelIdRef {
  return { raw: `${supplier}:${id}`, supplier, id };
}

export function runStoreContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('starts empty: no version, no rows, nothing resolves', async () => {
      assert.equal(await store.inventoryVersion(), null);
      assert.deepEqual((await allRows(store)).rows, []);
      assert.deepEqual(await store.getStays([0, 1]), []);
      assert.deepEqual(await store.resolveHotelIds([bare('1001')]), [[]]);
    });

    it('records the version of the inventory it holds', async () => {
      await store.replaceInventory(fixture(), 'v1');
      assert.equal(await store.inventoryVersion(), 'v1');
    });

    it('yields index rows in idx order, in batches of the size asked', async () => {
      // Handed over out of order: idx, not array position, decides.
      await store.replaceInventory(fixture().reverse(), 'v1');
      for (const batchSize of [1, 3, 4, 1000]) {
        const { batches, rows } = await allRows(store, batchSize);
        assert.deepEqual(rows.map((row) => row.idx), [0, 1, 2, 3], `batchSize ${batchSize}`);
        assert.ok(batches.every((size) => size >= 1 && size <= batchSize), `batch sizes ${batches.join(',')}`);
      }
      const { rows } = await allRows(store);
      assert.deepEqual(rows[1], {
        idx: 1,
        rank: 0,
        lat: 40.001,
        lng: -75.002,
        h3: '8f2a1072b5affff',
        type: 'hotel',
        suppliers: ['supplier_a', 'supplier_b', 'supplier_c'],
        stars: 4.5,
        rating: 9.1,
        reviewCount: 3000,
        listingRatings: ['supplier_a', 'supplier_b', 'supplier_c'].map((supplier) => ({ supplier, value: 8, hotelStars: 3 })),
        searchName: 'grand plaza',
      });
      assert.deepEqual(rows[2].listingRatings, [{ supplier: 'supplier_d', value: 9.6, hotelStars: null }]);
      assert.equal(rows[0].searchName, 'hotel saint eloi');
      assert.deepEqual(rows[2].suppliers, ['supplier_d']);
      assert.equal(rows[2].type, 'villa');
      assert.equal(rows[2].stars, null);
      assert.deepEqual(rows.map((row) => row.rank), [2, 0, 3, 1]);
    });

    it('returns full stays in the order asked, skipping unknown idx', async () => {
      const stays = fixture();
      await store.replaceInventory(stays, 'v1');
      const expected = withoutRank(stays);
      assert.deepEqual(stripRank(await store.getStays([2, 99, 0, -1, 1.5])), [expected[2], expected[0]]);
      assert.deepEqual(stripRank(await store.getStays([0, 1, 2, 3])), expected);
      assert.deepEqual(await store.getStays([]), []);
    });

    it('resolves a bare id to the service id or any supplier id, possibly several stays', async () => {
      await store.replaceInventory(fixture(), 'v1');
      const [byService, shared, bOnly, unknown] = await store.resolveHotelIds([
        bare('stbbbbbbbbbbbb'), bare('1001'), bare('HB0000004'), bare('nope'),
      ]);
      assert.deepEqual(byService, [1]);
      assert.deepEqual(shared, [0, 1, 2], 'supplier_a, supplier_c and supplier_d all use 1001');
      assert.deepEqual(bOnly, [3]);
      assert.deepEqual(unknown, []);
    });

    it("resolves a prefixed id within that supplier's listings only", async () => {
      await store.replaceInventory(fixture(), 'v1');
      assert.deepEqual(await store.resolveHotelIds([
        prefixed('supplier_a', '1001'),
        prefixed('supplier_c', '1001'),
        prefixed('supplier_d', '1001'),
        prefixed('supplier_b', '1001'),
        prefixed('supplier_b', 'HB0002002'),
        prefixed('supplier_a', 'stbbbbbbbbbbbb'),
      ]), [[0], [1], [2], [], [1], []]);
    });

    it('answers one entry per ref, in the order given, duplicates included', async () => {
      await store.replaceInventory(fixture(), 'v1');
      assert.deepEqual(await store.resolveHotelIds([bare('HB0000004'), bare('HB0000004'), bare('stcccccccccccc')]), [[3], [3], [2]]);
      assert.deepEqual(await store.resolveHotelIds([]), []);
    });

    it('replaces the whole inventory: old stays and ids are gone', async () => {
      await store.replaceInventory(fixture(), 'v1');
      const next = [stay(0, 0, 'steeeeeeeeeeee', [listing('supplier_c', '77', { name: 'Harbour Lodge', type: 'lodge' })], {
        name: 'Harbour Lodge',
        type: 'lodge',
      })];
      await store.replaceInventory(next, 'v2');
      assert.equal(await store.inventoryVersion(), 'v2');
      const { rows } = await allRows(store);
      assert.deepEqual(rows.map((row) => [row.idx, row.searchName, row.type]), [[0, 'harbour lodge', 'lodge']]);
      assert.deepEqual(await store.resolveHotelIds([bare('1001'), bare('stbbbbbbbbbbbb'), bare('77')]), [[], [], [0]]);
      assert.deepEqual(stripRank(await store.getStays([0, 1])), withoutRank(next));
    });

    it('accepts an empty inventory', async () => {
      await store.replaceInventory(fixture(), 'v1');
      await store.replaceInventory([], 'empty');
      assert.equal(await store.inventoryVersion(), 'empty');
      assert.deepEqual((await allRows(store)).rows, []);
    });

    it('rejects idx or rank that are not dense, keeping what it had', async () => {
      await store.replaceInventory(fixture(), 'v1');
      const gap = fixture();
      gap[3] = { ...gap[3], idx: 7 };
      await assert.rejects(store.replaceInventory(gap, 'bad'), /idx/);
      const twice = fixture();
      twice[3] = { ...twice[3], rank: 0 };
      await assert.rejects(store.replaceInventory(twice, 'bad'), /rank/);
      assert.equal(await store.inventoryVersion(), 'v1');
      assert.equal((await allRows(store)).rows.length, 4);
    });
  });
}
