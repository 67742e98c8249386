import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildStayIndex, NO_RATING } from '../inventory/stay-index.ts';
import type { IndexRow, ListingRating } from '../store/store.ts';
import type { SupplierId } from '../types.ts';
import type { SearchQuery } from './search-query.ts';
import { staticFilter } from './static-filter.ts';

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
    (async function* () {
      yield [
        row(0, 8.5, [rated('supplier_a', 8.5)]),
        // Sold only where the API has no guest rating (Hotelbeds).
        row(1, null, [rated('supplier_b', null)]),
        row(2, 9, [rated('supplier_a', 9), rated('supplier_b', null)]),
        row(3, 0.5, [rated('supplier_a', 0.5)]),
      ];
    })(),
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
