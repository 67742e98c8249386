import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PriceCall, QuoteCall } from './quote-call.ts';
import { createQuoteCache } from './quote-cache.ts';
import { SupplierError } from './supplier-error.ts';
import type { Quote, QuoteRequest } from './supplier.ts';
import { withCache, withCacheWrites } from './with-cache.ts';

const REQUEST: QuoteRequest = {
  supplierStayIds: [],
  checkin: '2027-03-01',
  checkout: '2027-03-04',
  adults: 2,
  children: 0,
  childrenAges: null,
  rooms: 1,
  currency: 'USD',
};
const open = () => new AbortController().signal;
const price = (id: string): Quote => ({ available: true, total: Number(id), currency: 'USD' });
const cacheOf = () => createQuoteCache({ ttlMs: 60_000, maxEntries: 100, now: () => 0 });

describe('withCache', () => {
  it('serves what the cache holds and prices only the rest, every id once in asked order, telling hits and misses', async () => {
    const cache = cacheOf();
    cache.scope('supplier_a', REQUEST).set([['2', price('2')]]);
    const asked: string[][] = [];
    const priced: PriceCall = async (request) => {
      asked.push(request.supplierStayIds);
      return { quotes: new Map(request.supplierStayIds.map((id) => [id, price(id)])), failure: null, asked: true };
    };
    const lookups: [number, number][] = [];
    const cached = withCache(priced, cache, 'supplier_a', (hits, misses) => lookups.push([hits, misses]));
    const outcome = await cached({ ...REQUEST, supplierStayIds: ['3', '2', '1', '3'] }, open());
    assert.deepEqual(asked, [['3', '1']]);
    assert.deepEqual(
      [...outcome.quotes],
      [
        ['3', price('3')],
        ['2', price('2')],
        ['1', price('1')],
      ],
    );
    assert.equal(outcome.asked, true);
    const held = await cached({ ...REQUEST, supplierStayIds: ['2'] }, open());
    assert.deepEqual(held, { quotes: new Map([['2', price('2')]]), failure: null, asked: false });
    assert.equal(asked.length, 1, 'nothing priced when the cache holds every id');
    assert.deepEqual(lookups, [
      [1, 2],
      [1, 0],
    ]);
  });

  it("keeps the priced call's failure for the ids it could not price", async () => {
    const priced: PriceCall = async (request) => ({
      quotes: new Map(request.supplierStayIds.map((id) => [id, null])),
      failure: 'open',
      asked: false,
      retryAfterMs: 5,
    });
    const outcome = await withCache(priced, cacheOf(), 'supplier_a', () => undefined)({ ...REQUEST, supplierStayIds: ['1'] }, open());
    assert.deepEqual(outcome, { quotes: new Map([['1', null]]), failure: 'open', asked: false, retryAfterMs: 5 });
  });
});

describe('withCacheWrites', () => {
  it('caches every answer, sold out too, under its supplier and stay; never a failure', async () => {
    const cache = cacheOf();
    const answering: QuoteCall = async () =>
      new Map<string, Quote>([
        ['1', price('1')],
        ['2', { available: false }],
      ]);
    await withCacheWrites(answering, cache, 'supplier_a')({ ...REQUEST, supplierStayIds: ['1', '2'] }, open());
    const scope = cache.scope('supplier_a', REQUEST);
    assert.deepEqual([scope.getOne('1'), scope.getOne('2')], [price('1'), { available: false }]);
    assert.equal(cache.scope('supplier_b', REQUEST).getOne('1'), undefined);
    const failing: QuoteCall = async () => {
      throw new SupplierError('supplier_a', 'http', 'HTTP 500');
    };
    await assert.rejects(
      withCacheWrites(failing, cache, 'supplier_a')({ ...REQUEST, checkout: '2027-03-05', supplierStayIds: ['1'] }, open()),
    );
    assert.equal(cache.size, 2);
  });
});
