import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { distanceMeters } from '../geo/distance.ts';
import { buildStayIndex, NO_RATING } from '../inventory/stay-index.ts';
import { indexChunksOfRows } from '../store/index-chunk.ts';
import type { IndexRow, ListingRating, RankedStay } from '../store/store.ts';
import { baseQuery, searchWorld, worldStays, type SearchWorld } from '../test-support/search-world.ts';
import { STAY_TYPES, SUPPLIER_IDS, type SupplierId } from '../types.ts';
import type { Centre } from './candidates.ts';
import type { SearchQuery } from './search-query.ts';
import { isUnfiltered, staticFilter } from './static-filter.ts';

function row(idx: number, rating: number | null, listingRatings: ListingRating[]): IndexRow {
  return {
    idx,
    rank: idx,
    lat: 48.85,
    lng: 2.35,
    h3: '8f1fb46622dc0a1',
    type: 'hotel',
    suppliers: listingRatings.map((l) => l.supplier),
    stars: null,
    rating,
    reviewCount: rating === null ? 0 : 10,
    listingRatings,
    searchName: `stay ${idx}`,
  };
}

const rated = (supplier: SupplierId, value: number | null): ListingRating => ({ supplier, value, hotelStars: null });

/** The static filters of a query that sets only its rating bounds. */
function query(minGuestRating: number, ratingsOf?: SupplierId): SearchQuery {
  return { providers: null, types: null, hotelSearch: null, minStars: 0, minGuestRating, minRatingCount: 0, ratingsOf } as SearchQuery;
}

test('minguestrating above 0 leaves out stays and listings without a guest rating; 0 keeps them (docs/decisions.md 136)', async () => {
  const index = await buildStayIndex(
    indexChunksOfRows([
      [
        row(0, 8.5, [rated('supplier_a', 8.5)]),
        // Sold only where the API has no guest rating (Hotelbeds).
        row(1, null, [rated('supplier_b', null)]),
        row(2, 9, [rated('supplier_a', 9), rated('supplier_b', null)]),
        row(3, 0.5, [rated('supplier_a', 0.5)]),
      ],
    ]),
  );
  assert.equal(index.rating[1], NO_RATING);
  assert.equal(index.listingRating[2 * 4 + 1], NO_RATING);
  const matching = (q: SearchQuery) => [0, 1, 2, 3].filter(staticFilter(index, q, null, null));
  assert.deepEqual(matching(query(0)), [0, 1, 2, 3], 'no bound: every stay, rated or not');
  assert.deepEqual(matching(query(0.1)), [0, 2, 3], 'the lowest bound still needs a rating');
  assert.deepEqual(matching(query(8.5)), [0, 2]);
  assert.deepEqual(matching(query(10)), []);
  // v1 filters on the searched supplier's own listing.
  assert.deepEqual(matching(query(1, 'supplier_b')), [], "supplier_b's listings have no rating to meet a bound");
  assert.deepEqual(matching(query(0, 'supplier_b')), [0, 1, 2, 3]);
  assert.deepEqual(matching(query(8.5, 'supplier_a')), [0, 2]);
});

describe('each static filter over a world of stays', () => {
  let world: SearchWorld;
  before(async () => {
    world = await searchWorld(worldStays(1_500, 6));
  });
  after(() => world.close());
  /** The idx the filter keeps, and those the stays' own fields say it should. */
  const kept = (fields: Partial<SearchQuery>, centre: Centre | null = null, radius: number | null = null) =>
    world.stays.map((s) => s.idx).filter(staticFilter(world.deps.index, baseQuery(fields), centre, radius));
  const expected = (keep: (s: RankedStay) => boolean) => world.stays.filter(keep).map((s) => s.idx);
  const some = (xs: number[]) => assert.ok(xs.length > 0 && xs.length < 1_500, `${xs.length} of 1500 kept: the case says little`);

  test('providers: a stay sold by any of them', () => {
    const want = expected((s) => s.listings.some((l) => l.supplier === 'supplier_b' || l.supplier === 'supplier_d'));
    some(want);
    assert.deepEqual(kept({ providers: ['supplier_b', 'supplier_d'] }), want);
  });

  test('types: any of them', () => {
    const want = expected((s) => s.type === 'villa' || s.type === 'hostel');
    some(want);
    assert.deepEqual(kept({ types: ['villa', 'hostel'] }), want);
  });

  test('minStars in half stars: 3.5 keeps 3.5 and up, a stay without stars never', () => {
    const want = expected((s) => s.averageRating.hotelStars !== null && s.averageRating.hotelStars >= 3.5);
    some(want);
    assert.ok(
      want.some((idx) => world.stays[idx].averageRating.hotelStars === 3.5),
      'some stay has exactly 3.5 stars',
    );
    assert.deepEqual(kept({ minStars: 3.5 }), want);
  });

  test('minRatingCount: fewer reviews drop out', () => {
    const want = expected((s) => s.averageRating.count >= 300);
    some(want);
    assert.deepEqual(kept({ minRatingCount: 300 }), want);
  });

  test("ratingsOf: the bounds apply to that supplier's own listing; a stay it does not sell meets none", () => {
    const listing = (s: RankedStay) => s.listings.find((l) => l.supplier === 'supplier_c')?.rating;
    const stars = expected((s) => (listing(s)?.hotelStars ?? -1) >= 4);
    some(stars);
    assert.deepEqual(kept({ minStars: 4, ratingsOf: 'supplier_c' }), stars);
    const rating = expected((s) => (listing(s)?.value ?? -1) >= 7.5);
    some(rating);
    assert.deepEqual(kept({ minGuestRating: 7.5, ratingsOf: 'supplier_c' }), rating);
  });

  test('hotelsearch: hotels whose folded name holds every token', () => {
    const want = expected((s) => s.type === 'hotel' && s.name.includes('grand') && s.name.includes('park'));
    some(want);
    assert.deepEqual(kept({ hotelSearch: ['grand', 'park'] }), want);
  });

  test('a radius keeps the stays within it of the centre', () => {
    const centre = { lat: 48.8566, lng: 2.3522 };
    const want = expected((s) => distanceMeters(centre.lat, centre.lng, s.lat, s.lng) <= 2_500);
    some(want);
    assert.deepEqual(kept({}, centre, 2_500), want);
  });

  test('isUnfiltered: only the location filters; every provider or every type is no filter', () => {
    assert.equal(isUnfiltered(baseQuery()), true);
    assert.equal(isUnfiltered(baseQuery({ providers: [...SUPPLIER_IDS] })), true);
    assert.equal(isUnfiltered(baseQuery({ types: [...STAY_TYPES] })), true);
    for (const fields of [
      { providers: ['supplier_a'] },
      { types: ['hotel'] },
      { minStars: 1 },
      { minGuestRating: 1 },
      { minRatingCount: 1 },
      { hotelSearch: ['grand'] },
      { cell: '85283473fffffff' },
      { hotelIds: [] },
    ] as Partial<SearchQuery>[]) {
      assert.equal(isUnfiltered(baseQuery(fields)), false, JSON.stringify(fields));
    }
  });
});
