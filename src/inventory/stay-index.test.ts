import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IndexRow } from '../store/store.ts';
import { NO_STARS, buildStayIndex } from './stay-index.ts';

function row(idx: number, lat: number, lng: number, extra: Partial<IndexRow> = {}): IndexRow {
  return {
    idx, rank: idx, lat, lng, h3: '8f1fb46622dc0a1', type: 'hotel', suppliers: ['supplier_a'],
    stars: 4, rating: 8.5, reviewCount: 10, searchName: `stay ${idx}`, ...extra,
  };
}

async function* batches(rows: IndexRow[], size: number): AsyncIterable<IndexRow[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

test('the index keeps every column and answers box queries, across the antimeridian too', async () => {
  const rows = [
    row(0, 48.85, 2.35, { rank: 2, stars: null, suppliers: ['supplier_b', 'supplier_d'], type: 'villa', rating: 9.1, searchName: 'hotel lumiere' }),
    row(1, 48.86, 2.36, { rank: 0 }),
    row(2, -17.7, 179.9, { rank: 1, stars: 3.5 }),
    row(3, -17.8, -179.9, { rank: 3 }),
  ];
  const index = await buildStayIndex(batches(rows, 3));
  assert.equal(index.size, 4);
  assert.equal(index.stars[0], NO_STARS);
  assert.equal(index.stars[2], 7);
  assert.equal(index.rating[0], 91);
  assert.equal(index.suppliers[0], 0b1010);
  assert.equal(index.h3Hi[0] * 2 ** 32 + index.h3Lo[0], parseInt('8f1fb46622dc0a1', 16));
  assert.deepEqual([...index.byRank], [1, 2, 0, 3]);
  assert.deepEqual(index.inBox(48, 2, 49, 3).sort(), [0, 1]);
  assert.deepEqual(index.inBox(-18, 179, -17, -179).sort(), [2, 3]);
  assert.deepEqual(index.inBox(0, 0, 1, 1), []);
  assert.equal(index.nameHasAll(0, ['lumi', 'hotel']), true);
  assert.equal(index.nameHasAll(0, ['stay']), false, 'a token of the next name must not match');
  assert.equal(index.nameHasAll(1, ['stay', '1']), true);
});

test('the index grows past its initial capacity and rejects rows out of order', async () => {
  const rows = Array.from({ length: 70_000 }, (_, i) => row(i, (i % 180) - 89, (i % 360) - 179));
  const index = await buildStayIndex(batches(rows, 4096));
  assert.equal(index.size, 70_000);
  assert.equal(index.lat[69_999], rows[69_999].lat);
  await assert.rejects(buildStayIndex(batches([row(1, 0, 0)], 1)), /out of order/);
});

test('an empty inventory gives an empty index', async () => {
  const index = await buildStayIndex(batches([], 1));
  assert.equal(index.size, 0);
  assert.deepEqual(index.inBox(-90, -180, 90, 180), []);
});
