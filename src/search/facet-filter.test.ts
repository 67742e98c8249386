import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { atLeastDim, entryHolds, FACET_RATING, FACET_STARS, FACET_TYPE } from '../inventory/cell-facets.ts';
import type { StayIndex } from '../inventory/stay-index.ts';
import { baseQuery } from '../test-support/search-world.ts';
import { syntheticIndex, syntheticPoints } from '../test-support/synthetic-index.ts';
import { facetFilterOf, keptCodes } from './facet-filter.ts';
import type { SearchQuery } from './search-query.ts';
import { staticFilter } from './static-filter.ts';

describe('a filter of one attribute as the pyramid facets answer it', () => {
  let index: StayIndex;
  before(async () => {
    index = await syntheticIndex(syntheticPoints(2_000, 3), { cellOrder: true, varied: true });
  });

  test('keeps exactly the stays the static filter keeps, by its column; every one in whole codes', () => {
    const cases: Partial<SearchQuery>[] = [
      { types: ['hotel'] },
      { types: ['palace', 'lodge', 'riad'] },
      { providers: ['supplier_b'] },
      { providers: ['supplier_a', 'supplier_c', 'supplier_d'] },
      { minGuestRating: 7 },
      { minGuestRating: 10 },
      { minGuestRating: 0.1 },
      { minGuestRating: 8.25 },
      { minStars: 4 },
      { minStars: 2.5 },
    ];
    for (const fields of cases) {
      const query = baseQuery(fields);
      const facets = facetFilterOf(index, query)!;
      const keep = staticFilter(index, query, null, null);
      const label = JSON.stringify(fields);
      const keptList = [...facets.codes.keys()].filter((code) => facets.codes[code] === 1);
      const added = atLeastDim(facets.dim) ? keptList.slice(0, 1) : keptList;
      let kept = 0;
      for (let idx = 0; idx < index.size; idx++) {
        assert.equal(facets.values[facets.column[idx]] === 1, keep(idx), `${label}: stay ${idx}`);
        // What the walk adds up: of a minimum, the lowest kept code's entry; else every kept code's.
        // A kept stay is in exactly one of them, a dropped one in none.
        const holding = added.filter((code) => entryHolds(facets.dim, code, facets.column[idx])).length;
        assert.equal(holding, keep(idx) ? 1 : 0, `${label}: stay ${idx}, by the entries added`);
        if (keep(idx)) kept++;
      }
      assert.ok(kept > 0 && kept < index.size, `${label}: the world tells kept from dropped`);
    }
  });

  test("is null when nothing filters or more than one attribute, a review count, names or one supplier's ratings do", () => {
    for (const fields of [
      {},
      { providers: ['supplier_a', 'supplier_b', 'supplier_c', 'supplier_d'] },
      { types: ['hotel'], minStars: 3 },
      { providers: ['supplier_a'], minGuestRating: 8 },
      { minRatingCount: 5 },
      { minGuestRating: 8, ratingsOf: 'supplier_a' },
      { hotelSearch: ['grand'] },
    ] as Partial<SearchQuery>[])
      assert.equal(facetFilterOf(index, baseQuery(fields)), null, JSON.stringify(fields));
  });

  test('a filter made once is the same for the same query, another for another', () => {
    const eight = facetFilterOf(index, baseQuery({ minGuestRating: 8 }));
    assert.equal(facetFilterOf(index, baseQuery({ minGuestRating: 8 })), eight);
    const other = facetFilterOf(index, baseQuery({ minGuestRating: 8.1 }))!;
    assert.notEqual(other, eight);
    assert.deepEqual(
      [...other.codes.keys()].filter((code) => other.codes[code] === 1),
      Array.from({ length: 20 }, (_, i) => 81 + i),
      'ratings 8.1 to 10, in tenths',
    );
  });

  test('ratings and stars answer minimums only: their entries hold a code and every higher one', () => {
    const values = (keep: (v: number) => boolean) => Uint8Array.from({ length: 256 }, (_, v) => (keep(v) ? 1 : 0));
    assert.ok(
      keptCodes(
        FACET_RATING,
        values((v) => v >= 85 && v <= 100),
      ),
      'at least 8.5',
    );
    assert.equal(
      keptCodes(
        FACET_RATING,
        values((v) => v >= 50 && v <= 80),
      ),
      null,
      'at most 8: not a minimum',
    );
    assert.equal(
      keptCodes(
        FACET_STARS,
        values((v) => v >= 6 || v === 255),
      ),
      null,
      'none kept with the minimum',
    );
    assert.ok(
      keptCodes(
        FACET_TYPE,
        values((v) => v === 2 || v === 9),
      ),
      'types: any set',
    );
  });
});
