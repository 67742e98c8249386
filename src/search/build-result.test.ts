// The rules every mode's answer shares (build-result.ts): total, hasMore, currency, cache status, failures, hits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distanceMeters } from '../geo/distance.ts';
import { baseQuery, worldStays } from '../test-support/search-world.ts';
import { buildResult, hitsOf } from './build-result.ts';
import type { PricingOutcome } from './price-stays.ts';

const pricing = (asked: boolean, failures: PricingOutcome['failures'] = {}): PricingOutcome => ({ priced: [], asked, failures });

test('a static total saturates at the cap; a dated one counts every survivor', () => {
  const query = baseQuery();
  assert.equal(buildResult(query, { hits: [], matched: 150, offset: 0, pricing: null }, 100).total, 100);
  assert.equal(buildResult(query, { hits: [], matched: 150, offset: 0, pricing: pricing(true) }, 100).total, 150);
});

test('hasMore: something lies past this page, counted before the cap', () => {
  const query = baseQuery({ pageSize: 10 });
  const more = (matched: number, offset: number) => buildResult(query, { hits: [], matched, offset, pricing: null }, 5).hasMore;
  assert.equal(more(20, 0), true);
  assert.equal(more(20, 10), false, 'the last page');
  assert.equal(more(21, 10), true);
  assert.equal(more(0, 0), false);
});

test('the currency is the one asked when we hold its rate, else USD', () => {
  const parts = { hits: [], matched: 0, offset: 0, pricing: null };
  assert.equal(buildResult(baseQuery({ currency: 'EUR' }), parts, 10).currency, 'EUR');
  assert.equal(buildResult(baseQuery({ currency: 'XTS' }), parts, 10).currency, 'USD');
});

test('a static answer is a cache HIT without failures; a dated one says what pricing did', () => {
  const query = baseQuery();
  const result = (p: PricingOutcome | null) => buildResult(query, { hits: [], matched: 0, offset: 0, pricing: p }, 10);
  assert.equal(result(null).cache, 'HIT');
  assert.deepEqual(result(null).failures, {});
  assert.equal(result(pricing(false)).cache, 'HIT');
  assert.equal(result(pricing(true)).cache, 'MISS');
  const failed = result(pricing(false, { supplier_c: { failure: 'timeout' } }));
  assert.equal(failed.cache, 'MISS');
  assert.deepEqual(failed.failures, { supplier_c: { failure: 'timeout' } });
  assert.equal(result(null).clusters, null);
  assert.equal(result(null).clustering, null);
});

test('hits carry whole-metre distances from the centre (none for ID lookups), offers and, in top mode, the cell', () => {
  const stays = worldStays(3, 2);
  const centre = { lat: stays[0].lat + 0.01, lng: stays[0].lng };
  const offers = new Map([['supplier_a' as const, 99]]);
  const hits = hitsOf(
    stays,
    centre,
    (_s, i) => (i === 1 ? offers : null),
    (s) => `cell-${s.idx}`,
  );
  assert.deepEqual(
    hits.map((h) => h.distanceMeters),
    stays.map((s) => Math.round(distanceMeters(centre.lat, centre.lng, s.lat, s.lng))),
  );
  assert.deepEqual(
    hits.map((h) => [h.stay.idx, h.offers, h.cellId]),
    [
      [0, null, 'cell-0'],
      [1, offers, 'cell-1'],
      [2, null, 'cell-2'],
    ],
  );
  const lookup = hitsOf(stays, null, () => null);
  assert.deepEqual(
    lookup.map((h) => [h.distanceMeters, 'cellId' in h]),
    [
      [null, false],
      [null, false],
      [null, false],
    ],
  );
});
