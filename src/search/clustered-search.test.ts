// The clustering modes' rules (clustered-search.ts; README, "Clustering"): which queries cluster,
// when `auto` stays flat, `auto` and `true` clusters and sparse results, `precision`'s limit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { latLngToCell } from 'h3-js';
import { ApiError } from '../errors/api-error.ts';
import { boxDiagonalMeters } from '../geo/bounding-box.ts';
import { baseQuery, searchWorld, worldStays, type SearchWorld } from '../test-support/search-world.ts';
import { clusteredSearch, clusterModeOf } from './clustered-search.ts';
import type { SearchQuery } from './search-query.ts';

let world: SearchWorld;
before(async () => {
  world = await searchWorld(worldStays(3_000, 5));
});
after(() => world.close());

const box = (south: number, west: number, north: number, east: number) => ({ kind: 'box' as const, south, west, north, east });
const PARIS = box(48.75, 2.2, 48.95, 2.5);
const inView = (b: ReturnType<typeof box>) =>
  world.stays.filter((s) => s.lat >= b.south && s.lat <= b.north && s.lng >= b.west && s.lng <= b.east);
const run = (fields: Partial<SearchQuery>) => {
  const query = baseQuery(fields);
  return clusteredSearch(world.deps, query, clusterModeOf(query)!, (query.page - 1) * query.pageSize);
};

describe('clustering', () => {
  it('only a bounding box clusters; precision forces top mode whatever cluster says', () => {
    const mode = (fields: Partial<SearchQuery>) => clusterModeOf(baseQuery({ location: PARIS, cluster: 'auto', ...fields }));
    assert.equal(mode({}), 'auto');
    assert.equal(mode({ cluster: 'true' }), 'true');
    assert.equal(mode({ cluster: 'false' }), null);
    assert.equal(mode({ cluster: 'false', precision: 9 }), 'top');
    assert.equal(mode({ precision: 3 }), 'top');
    assert.equal(mode({ location: { kind: 'point', lat: 48.85, lng: 2.35, radius: 5_000 } }), null);
    assert.equal(mode({ location: null, cell: '881fb46625fffff' }), null);
    assert.equal(mode({ hotelIds: [{ raw: 'x', supplier: null, id: 'x' }] }), null);
    assert.equal(mode({ hotelSearch: ['grand'] }), null);
  });

  it('auto and true: dense cells are clusters, the other stays the ranked results; total counts the results only', async () => {
    const stays = inView(PARIS);
    for (const [cluster, minStays] of [
      ['auto', 5],
      ['true', 2],
    ] as const) {
      const first = (await run({ location: PARIS, cluster, pageSize: 5 }))!;
      assert.equal(first.clustering?.mode, cluster);
      assert.ok(first.clusters!.length > 1, `${cluster}: ${first.clusters!.length} clusters`);
      const clustered = first.clusters!.reduce((n, c) => n + c.count, 0);
      assert.equal(first.total + clustered, stays.length, `${cluster}: results and clusters hold every stay of the view`);
      assert.ok(
        first.clusters!.every((c) => c.count >= minStays),
        `${cluster}: every cluster holds at least ${minStays}`,
      );
      const r = first.clustering!.precision;
      const denseCells = new Set(first.clusters!.map((c) => c.id));
      const sparse = stays.filter((s) => !denseCells.has(latLngToCell(s.lat, s.lng, r))).sort((a, b) => a.rank - b.rank);
      assert.deepEqual(
        first.hits.map((h) => h.stay.idx),
        sparse.slice(0, 5).map((s) => s.idx),
      );
      const counts = first.clusters!.map((c) => c.count);
      assert.deepEqual(
        counts,
        [...counts].sort((a, b) => b - a),
        'biggest first',
      );
      const second = (await run({ location: PARIS, cluster, pageSize: 5, page: 2 }))!;
      assert.deepEqual(second.clusters, first.clusters, 'every page carries the same clusters');
      assert.deepEqual(
        second.hits.map((h) => h.stay.idx),
        sparse.slice(5, 10).map((s) => s.idx),
      );
    }
    const auto = (await run({ location: PARIS, cluster: 'auto', pageSize: 5 }))!;
    const forced = (await run({ location: PARIS, cluster: 'true', pageSize: 5 }))!;
    assert.ok(
      forced.clusters!.some((c) => c.count < 5),
      '`true` clusters cells of fewer than 5 stays that `auto` leaves sparse',
    );
    assert.ok(forced.total < auto.total, 'so fewer sparse results');
  });

  it('auto stays flat under a 5 km diagonal, when every stay fits on the page, or when no cell is dense', async () => {
    const small = box(48.84, 2.33, 48.87, 2.37);
    assert.ok(boxDiagonalMeters(small) < 5_000 && inView(small).length > 10, 'a busy box under 5 km');
    assert.equal(await run({ location: small, cluster: 'auto', pageSize: 1 }), null);
    assert.notEqual(await run({ location: small, cluster: 'true', pageSize: 1 }), null, '`true` clusters it anyway');
    const stays = inView(PARIS).length;
    assert.equal(await run({ location: PARIS, cluster: 'auto', pageSize: stays }), null, 'every stay fits');
    assert.notEqual(await run({ location: PARIS, cluster: 'auto', pageSize: stays - 1 }), null, 'one stay more than the page');
    const sparse = box(-40, 60, -10, 100);
    assert.ok(inView(sparse).length > 1, `${inView(sparse).length} scattered stays`);
    assert.equal(await run({ location: sparse, cluster: 'auto', pageSize: 1 }), null, 'no dense cell');
  });

  it('refuses a precision that cuts the view into more than maxPrecisionCells cells, naming the finest it allows', async () => {
    const everything = box(-90, -180, 90, 180);
    await assert.rejects(
      run({ location: everything, precision: 9 }),
      (e) => e instanceof ApiError && e.statusCode === 400 && /precision 9 .* use precision 5 or less/.test(e.message),
    );
    const top = (await run({ location: everything, precision: 5, pageSize: 3 }))!;
    assert.deepEqual(top.clustering, { strategy: 'h3', precision: 5, mode: 'top' });
  });

  it('clamps auto and true to r8 and top to r11 on a tight viewport', async () => {
    const tight = box(48.853, 2.348, 48.856, 2.352);
    assert.equal((await run({ location: tight, cluster: 'true' }))?.clustering?.precision, 8);
    assert.equal((await run({ location: tight, cluster: 'top' }))?.clustering?.precision, 11);
  });
});
