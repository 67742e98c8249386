import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeIndexRows, indexChunksOfRows } from '../store/index-chunk.ts';
import type { IndexChunk, IndexRow } from '../store/store.ts';
import { NO_RATING, NO_STARS, buildStayIndex } from './stay-index.ts';

function row(idx: number, lat: number, lng: number, extra: Partial<IndexRow> = {}): IndexRow {
  return {
    idx,
    rank: idx,
    lat,
    lng,
    h3: '8f1fb46622dc0a1',
    type: 'hotel',
    suppliers: ['supplier_a'],
    stars: 4,
    rating: 8.5,
    reviewCount: 10,
    listingRatings: [{ supplier: 'supplier_a', value: 8.5, hotelStars: 4 }],
    searchName: `stay ${idx}`,
    ...extra,
  };
}

/** The rows as a store hands them to the build: chunks of `size`. */
function batches(rows: IndexRow[], size: number): AsyncIterable<IndexChunk> {
  const sliced: IndexRow[][] = [];
  for (let i = 0; i < rows.length; i += size) sliced.push(rows.slice(i, i + size));
  return indexChunksOfRows(sliced);
}

test('the index keeps every column and answers box queries, across the antimeridian too', async () => {
  const rows = [
    row(0, 48.85, 2.35, {
      rank: 2,
      stars: null,
      suppliers: ['supplier_b', 'supplier_d'],
      listingRatings: [
        { supplier: 'supplier_b', value: 9.4, hotelStars: null },
        { supplier: 'supplier_d', value: null, hotelStars: 2.5 },
      ],
      type: 'villa',
      rating: 9.1,
      searchName: 'hotel lumiere',
    }),
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
  // Per supplier: its own rating and stars; a supplier that does not sell the stay, 0 and no star class.
  assert.deepEqual([...index.listingRating.subarray(0, 4)], [0, 94, 0, NO_RATING]);
  assert.deepEqual([...index.listingStars.subarray(0, 4)], [NO_STARS, NO_STARS, NO_STARS, 5]);
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

test('a chunk whose text columns do not hold its rows is refused, not read askew', async () => {
  const chunk = encodeIndexRows([row(0, 0, 0), row(1, 0, 0)]);
  const refused = (broken: IndexChunk) =>
    buildStayIndex(
      (async function* () {
        yield broken;
      })(),
    );
  await assert.rejects(refused({ ...chunk, names: 'one name only' }), /names do not hold 2 rows/);
  await assert.rejects(refused({ ...chunk, names: 'a\nb\nc' }), /names do not hold 2 rows/);
  await assert.rejects(refused({ ...chunk, h3: chunk.h3.slice(0, 15) }), /cells do not hold 2 rows/);
  await assert.rejects(refused({ ...chunk, h3: chunk.h3.replace('8f', 'zz') }), /is not a res-15 cell/);
});

test('an empty inventory gives an empty index', async () => {
  const index = await buildStayIndex(batches([], 1));
  assert.equal(index.size, 0);
  assert.deepEqual(index.inBox(-90, -180, 90, 180), []);
});

test('countInBox and bestInBox agree with listing the box, on random boxes', async () => {
  let seed = 3;
  const rand = () => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
  const n = 20_000;
  const ranks = Array.from({ length: n }, (_, i) => i).sort(() => rand() - 0.5);
  // Clustered points (like cities) plus a uniform background, ranks shuffled.
  const rows = Array.from({ length: n }, (_, i) => {
    const city = i % 3 === 0;
    return row(i, city ? 48.85 + (rand() - 0.5) * 0.2 : -80 + rand() * 160, city ? 2.35 + (rand() - 0.5) * 0.3 : -179 + rand() * 358, {
      rank: ranks[i],
    });
  });
  const index = await buildStayIndex(batches(rows, 5_000));
  for (let q = 0; q < 300; q++) {
    const small = q % 2 === 0;
    const south = small ? 48.75 + rand() * 0.2 : -85 + rand() * 150;
    const north = south + (small ? rand() * 0.1 : rand() * 60);
    const west = small ? 2.2 + rand() * 0.3 : -180 + rand() * 360;
    const east = q % 7 === 0 ? -180 + rand() * 30 : Math.min(180, west + (small ? rand() * 0.15 : rand() * 90));
    const listed = index.inBox(south, west, north, east);
    assert.equal(index.countInBox(south, west, north, east), listed.length, `box ${q}`);
    const best = [...listed].sort((a, b) => index.rank[a] - index.rank[b]);
    assert.deepEqual(index.bestInBox(south, west, north, east, 3, 10), best.slice(3, 13), `box ${q}`);
  }
});
