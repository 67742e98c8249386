// A flat list (flat-search.ts): rank order, distance order for hotelsearch, the order asked for hotelids, pages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { distanceMeters } from '../geo/distance.ts';
import { baseQuery, searchWorld, worldStays, type SearchWorld } from '../test-support/search-world.ts';
import { findPage, flatSearch } from './flat-search.ts';
import type { SearchQuery } from './search-query.ts';

let world: SearchWorld;
before(async () => {
  world = await searchWorld(worldStays(2_000, 4), { totalCap: 300 });
});
after(() => world.close());

const PARIS = { kind: 'box' as const, south: 48.7, west: 2.1, north: 49, east: 2.6 };
const byRank = (idxs: number[]) => [...idxs].sort((a, b) => world.stays[a].rank - world.stays[b].rank);
const inBox = (b: typeof PARIS) =>
  world.stays.filter((s) => s.lat >= b.south && s.lat <= b.north && s.lng >= b.west && s.lng <= b.east).map((s) => s.idx);

describe('flat search', () => {
  it('pages an unfiltered box by global rank, whether it walks the ranking (busy box) or sorts the box', async () => {
    const world_ = { kind: 'box' as const, south: -90, west: -180, north: 90, east: 180 };
    for (const location of [PARIS, world_]) {
      const all = byRank(inBox(location));
      for (const [page, pageSize] of [
        [1, 10],
        [3, 7],
        [2, 100],
      ]) {
        const got = await findPage(world.deps, baseQuery({ location, page, pageSize }), (page - 1) * pageSize);
        assert.deepEqual(got.pageIdx, all.slice((page - 1) * pageSize, page * pageSize), `${JSON.stringify(location)} page ${page}`);
        assert.equal(got.matched, all.length);
      }
    }
  });

  it('pages a filtered search by rank too, over the stays that pass', async () => {
    const location = PARIS;
    const want = byRank(inBox(location).filter((idx) => world.stays[idx].type === 'hotel'));
    const got = await findPage(world.deps, baseQuery({ location, types: ['hotel'], pageSize: 5 }), 5);
    assert.deepEqual(got.pageIdx, want.slice(5, 10));
    assert.equal(got.matched, want.length);
  });

  it('orders a hotelsearch by distance from its centre, ties by rank', async () => {
    const centre = { lat: 48.8566, lng: 2.3522 };
    const query = baseQuery({ location: { kind: 'point', ...centre, radius: 20_000 }, hotelSearch: ['grand'], pageSize: 100 });
    const d = (idx: number) => distanceMeters(centre.lat, centre.lng, world.stays[idx].lat, world.stays[idx].lng);
    const want = world.stays
      .filter((s) => s.type === 'hotel' && s.name.includes('grand') && d(s.idx) <= 20_000)
      .map((s) => s.idx)
      .sort((a, b) => d(a) - d(b) || world.stays[a].rank - world.stays[b].rank);
    assert.ok(want.length > 3, `${want.length} matches`);
    assert.deepEqual((await findPage(world.deps, query, 0)).pageIdx, want);
  });

  it('keeps the order hotelids asked, pages it, and measures no distance', async () => {
    const ids = [1_500, 3, 700, 42].map((idx) => ({ raw: world.stays[idx].id, supplier: null, id: world.stays[idx].id }));
    const query: SearchQuery = baseQuery({ hotelIds: ids, pageSize: 2, page: 2 });
    const result = await flatSearch(world.deps, query, 2);
    assert.deepEqual(
      result.hits.map((h) => [h.stay.idx, h.distanceMeters]),
      [
        [700, null],
        [42, null],
      ],
    );
    assert.equal(result.total, 4);
    assert.equal(result.hasMore, false);
  });

  it('answers a static search from the inventory: total capped, distances from the box centre, no prices', async () => {
    const location = { kind: 'box' as const, south: -90, west: -180, north: 90, east: 180 };
    const result = await flatSearch(world.deps, baseQuery({ location }), 0);
    assert.equal(result.total, 300, 'the cap');
    assert.equal(result.hasMore, true);
    assert.equal(result.cache, 'HIT');
    assert.ok(
      result.hits.every((h) => h.offers === null && h.distanceMeters === Math.round(distanceMeters(0, 0, h.stay.lat, h.stay.lng))),
      'no offers, distances from (0, 0)',
    );
  });
});
