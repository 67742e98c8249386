import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { latLngToCell } from 'h3-js';
import { SUPPLIER_IDS, type Listing } from '../types.ts';
import { createSqliteStore } from './sqlite-store.ts';
import { runStoreContract } from './store-contract.ts';
import type { RankedStay } from './store.ts';

const dir = mkdtempSync(join(tmpdir(), 'staygate-sqlite-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshPath = (): string => join(dir, `store-${files++}.sqlite`);

runStoreContract('sqlite (file)', async () => createSqliteStore({ path: freshPath() }));
runStoreContract('sqlite (:memory:)', async () => createSqliteStore({ path: ':memory:' }));

function syntheticStays(n: number): RankedStay[] {
  const stays: RankedStay[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const lat = 40 + (i % 1000) / 1000;
    const lng = -75 + Math.floor(i / 1000) / 1000;
    const listings: Listing[] = [];
    for (let s = 0; s < 1 + (i % 3); s++) {
      listings.push({
        supplier: SUPPLIER_IDS[(i + s) % 4],
        supplierStayId: String(100_000 + i),
        name: `Hotel Number ${i}`,
        typeLabel: 'Hotel',
        type: 'hotel',
        address: `${i} Main Street, Springfield, US`,
        lat,
        lng,
        rating: { value: 7 + (i % 30) / 10, hotelStars: i % 6, count: i % 500 },
        capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
        policies: { instantBook: true, freeCancellation: false },
        media: { thumbnail: `https://img/${i}.jpg`, logoSquare: 'https://img/logo.png' },
      });
    }
    stays[i] = {
      idx: i, rank: n - 1 - i, id: `st${i.toString(32).padStart(12, '0')}`,
      name: `Hotel Number ${i}`, type: 'hotel', typeLabel: 'Hotel', address: listings[0].address, lat, lng,
      h3: latLngToCell(lat, lng, 15), capacity: listings[0].capacity, averageRating: listings[0].rating, listings,
    };
  }
  return stays;
}

describe('sqlite store', () => {
  it('keeps the inventory across reopening the file', async () => {
    const path = freshPath();
    const first = createSqliteStore({ path });
    await first.replaceInventory(syntheticStays(10), 'v-persist');
    await first.close();
    await first.close(); // idempotent
    const second = createSqliteStore({ path });
    try {
      assert.equal(await second.inventoryVersion(), 'v-persist');
      const [found] = await second.resolveHotelIds([{ raw: '100003', supplier: null, id: '100003' }]);
      assert.deepEqual(found, [3]);
      assert.equal((await second.getStays([9]))[0].name, 'Hotel Number 9');
    } finally {
      await second.close();
    }
  });

  it('creates missing parent folders', async () => {
    const store = createSqliteStore({ path: join(dir, 'a', 'b', 'store.sqlite') });
    assert.equal(await store.inventoryVersion(), null);
    await store.close();
  });

  it('writes 160k stays and streams their index rows, in order', async (t) => {
    const n = 160_000;
    const stays = syntheticStays(n);
    const store = createSqliteStore({ path: freshPath() });
    try {
      let start = performance.now();
      await store.replaceInventory(stays, 'big');
      const writeMs = performance.now() - start;
      start = performance.now();
      let rows = 0;
      let last = -1;
      for await (const batch of store.indexRows()) {
        for (const row of batch) {
          assert.equal(row.idx, last + 1);
          last = row.idx;
        }
        rows += batch.length;
      }
      const readMs = performance.now() - start;
      t.diagnostic(`replaceInventory ${n}: ${writeMs.toFixed(0)} ms; indexRows: ${readMs.toFixed(0)} ms`);
      assert.equal(rows, n);
      // The times are printed, not asserted: a test holds no wall-clock budget (issue 13).
    } finally {
      await store.close();
    }
  });
});
