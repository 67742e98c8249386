import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { StayIndex } from '../inventory/stay-index.ts';
import { baseQuery } from '../test-support/search-world.ts';
import { syntheticIndex, syntheticPoints } from '../test-support/synthetic-index.ts';
import { facetFilterOf } from './facet-filter.ts';
import type { SearchQuery } from './search-query.ts';
import { staticFilter } from './static-filter.ts';

describe('a filter of one attribute as the pyramid facets answer it', () => {
  let index: StayIndex;
  before(async () => {
    index = await syntheticIndex(syntheticPoints(2_000, 3), { cellOrder: true, varied: true });
  });

  test('keeps exactly the stays the static filter keeps, by its column; whole codes only for whole points', () => {
    const cases: [Partial<SearchQuery>, boolean][] = [
      [{ types: ['hotel'] }, true],
      [{ types: ['palace', 'lodge', 'riad'] }, true],
      [{ providers: ['supplier_b'] }, true],
      [{ providers: ['supplier_a', 'supplier_c', 'supplier_d'] }, true],
      [{ minGuestRating: 7 }, true],
      [{ minGuestRating: 10 }, true],
      [{ minGuestRating: 0.1 }, false],
      [{ minGuestRating: 8.25 }, false],
      [{ minStars: 4 }, true],
      [{ minStars: 2.5 }, false],
    ];
    for (const [fields, whole] of cases) {
      const query = baseQuery(fields);
      const facets = facetFilterOf(index, query)!;
      const keep = staticFilter(index, query, null, null);
      const label = JSON.stringify(fields);
      assert.equal(facets.codes !== null, whole, `${label}: whole codes`);
      let kept = 0;
      for (let idx = 0; idx < index.size; idx++) {
        assert.equal(facets.values[facets.column[idx]] === 1, keep(idx), `${label}: stay ${idx}`);
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
});
