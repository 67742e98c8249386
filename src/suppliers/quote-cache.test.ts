import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createQuoteCache } from './quote-cache.ts';
import { runQuoteCacheContract } from '../test-support/contracts/quote-cache-contract.ts';
import type { QuoteRequest } from './supplier.ts';

const REQUEST: QuoteRequest = {
  supplierStayIds: [],
  checkin: '2027-03-01',
  checkout: '2027-03-04',
  adults: 2,
  children: 0,
  childrenAges: null,
  rooms: 1,
  currency: 'EUR',
};

runQuoteCacheContract('memory', async ({ ttlMs, now }) => createQuoteCache({ ttlMs, maxEntries: 100, now }));

describe('memory quote cache', () => {
  it('holds at most maxEntries, dropping the least recently used', async () => {
    const cache = createQuoteCache({ ttlMs: 60_000, maxEntries: 2, now: () => 0 });
    const scope = cache.scope('supplier_d', REQUEST);
    scope.set([
      ['1', { available: false }],
      ['2', { available: false }],
    ]);
    await scope.get(['1']);
    scope.set([['3', { available: false }]]);
    assert.equal(cache.size, 2);
    assert.deepEqual([...(await scope.get(['1', '2', '3'])).keys()], ['1', '3']);
  });

  it('holds an entry for a shorter TTL when told (what is left of a shared entry), never longer than its own', () => {
    let t = 1_000;
    const scope = createQuoteCache({ ttlMs: 60_000, maxEntries: 10, now: () => t }).scope('supplier_a', REQUEST);
    scope.setOne('short', { available: false }, 10);
    scope.setOne('long', { available: false }, 120_000);
    t += 10;
    assert.ok(scope.getOne('short'), 'fresh at exactly its TTL');
    t += 1;
    assert.equal(scope.getOne('short'), undefined);
    t += 60_000 - 11;
    assert.ok(scope.getOne('long'), 'fresh at exactly the cache TTL');
    t += 1;
    assert.equal(scope.getOne('long'), undefined, 'capped at the cache TTL');
  });
});
