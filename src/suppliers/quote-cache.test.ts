import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createQuoteCache } from './quote-cache.ts';
import type { QuoteRequest } from './supplier.ts';

const REQUEST: QuoteRequest = {
  supplierStayIds: [],
  checkin: '2027-03-01', checkout: '2027-03-04',
  adults: 2, children: 0, childrenAges: null, rooms: 1, currency: 'EUR',
};

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 5_000;
  return { now: () => t, advance: (ms) => { t += ms; } };
}

describe('quote cache', () => {
  it('hits within the TTL and misses after it, by the injected clock', () => {
    const time = clock();
    const cache = createQuoteCache({ ttlMs: 60_000, maxEntries: 100, now: time.now });
    const scope = cache.scope('supplier_a', REQUEST);
    assert.equal(scope.get('1'), undefined);
    scope.set('1', { available: true, total: 100, currency: 'EUR' });
    scope.set('2', { available: false });
    assert.deepEqual(scope.get('1'), { available: true, total: 100, currency: 'EUR' });
    assert.deepEqual(scope.get('2'), { available: false }, 'sold out is an answer too');
    // A new scope for an equal request sees the same entries.
    assert.deepEqual(cache.scope('supplier_a', { ...REQUEST, supplierStayIds: ['9'] }).get('1'), { available: true, total: 100, currency: 'EUR' });
    time.advance(60_000);
    assert.ok(scope.get('1'), 'still fresh at exactly the TTL');
    time.advance(1);
    assert.equal(scope.get('1'), undefined);
    assert.equal(scope.get('2'), undefined);
  });

  it('expires entries stored when the clock read 0 (lru-cache takes a start of 0 for "no TTL")', () => {
    let t = 0;
    const scope = createQuoteCache({ ttlMs: 10, maxEntries: 10, now: () => t }).scope('supplier_b', REQUEST);
    scope.set('1', { available: false });
    t = 11;
    assert.equal(scope.get('1'), undefined);
  });

  it('keeps supplier, stay, dates, occupancy and currency apart', () => {
    const cache = createQuoteCache({ ttlMs: 60_000, maxEntries: 100, now: () => 0 });
    cache.scope('supplier_a', REQUEST).set('1', { available: true, total: 100, currency: 'EUR' });
    const variants: Array<[string, 'supplier_a' | 'supplier_c', QuoteRequest]> = [
      ['supplier', 'supplier_c', REQUEST],
      ['checkin', 'supplier_a', { ...REQUEST, checkin: '2027-03-02' }],
      ['checkout', 'supplier_a', { ...REQUEST, checkout: '2027-03-05' }],
      ['adults', 'supplier_a', { ...REQUEST, adults: 3 }],
      ['children without ages', 'supplier_a', { ...REQUEST, children: 1 }],
      ['children ages', 'supplier_a', { ...REQUEST, children: 1, childrenAges: [4] }],
      ['rooms', 'supplier_a', { ...REQUEST, rooms: 2 }],
      ['currency', 'supplier_a', { ...REQUEST, currency: 'USD' }],
    ];
    for (const [what, supplier, request] of variants) {
      assert.equal(cache.scope(supplier, request).get('1'), undefined, what);
    }
    assert.equal(cache.scope('supplier_a', REQUEST).get('11'), undefined, 'stay id');

    // Ages are a set of children: order does not matter, but the ages do; a count is not ages.
    const withAges = { ...REQUEST, children: 2, childrenAges: [9, 5] };
    cache.scope('supplier_b', withAges).set('HB1', { available: false });
    assert.deepEqual(cache.scope('supplier_b', { ...withAges, childrenAges: [5, 9] }).get('HB1'), { available: false });
    assert.equal(cache.scope('supplier_b', { ...withAges, childrenAges: [5, 10] }).get('HB1'), undefined);
    assert.equal(cache.scope('supplier_b', { ...withAges, childrenAges: null }).get('HB1'), undefined);
  });

  it('holds at most maxEntries, dropping the least recently used', () => {
    const cache = createQuoteCache({ ttlMs: 60_000, maxEntries: 2, now: () => 0 });
    const scope = cache.scope('supplier_d', REQUEST);
    scope.set('1', { available: false });
    scope.set('2', { available: false });
    scope.get('1');
    scope.set('3', { available: false });
    assert.equal(cache.size, 2);
    assert.ok(scope.get('1'), 'scope.get(\'1\')');
    assert.equal(scope.get('2'), undefined);
    assert.ok(scope.get('3'), 'scope.get(\'3\')');
  });

  it('freezes entries, since every search that hits one shares it', () => {
    const cache = createQuoteCache({ now: () => 0 });
    const scope = cache.scope('supplier_a', REQUEST);
    scope.set('1', { available: true, total: 100, currency: 'EUR' });
    assert.ok(Object.isFrozen(scope.get('1')), 'Object.isFrozen(scope.get(\'1\'))');
  });
});
