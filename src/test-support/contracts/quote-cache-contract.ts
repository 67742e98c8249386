// The behaviour every QuoteCache must have. Each implementation's test file calls
// runQuoteCacheContract with a factory for a fresh, empty cache on a clock the test moves.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { QuoteCache } from '../../suppliers/quote-cache.ts';
import type { Quote, QuoteRequest } from '../../suppliers/supplier.ts';

export interface QuoteCacheFactoryOptions {
  ttlMs: number;
  now: () => number;
}

export type QuoteCacheFactory = (options: QuoteCacheFactoryOptions) => Promise<QuoteCache>;

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

const PRICE: Quote = { available: true, total: 100, currency: 'EUR' };
const SOLD_OUT: Quote = { available: false };

export function runQuoteCacheContract(name: string, make: QuoteCacheFactory): void {
  describe(`QuoteCache contract: ${name}`, () => {
    let t = 5_000;
    let cache: QuoteCache | null = null;
    const start = async (ttlMs = 60_000, t0 = 5_000): Promise<QuoteCache> => {
      t = t0;
      cache = await make({ ttlMs, now: () => t });
      return cache;
    };
    afterEach(async () => {
      await cache?.close();
      cache = null;
    });

    it('hits within the TTL and misses after it, by the injected clock; sold out is an answer too', async () => {
      const c = await start();
      const scope = c.scope('supplier_a', REQUEST);
      assert.deepEqual(await scope.get(['1']), new Map());
      scope.set([
        ['1', PRICE],
        ['2', SOLD_OUT],
      ]);
      await c.flush();
      assert.deepEqual(
        await scope.get(['1', '2', '3']),
        new Map([
          ['1', PRICE],
          ['2', SOLD_OUT],
        ]),
      );
      // A new scope for an equal request (other ids) sees the same entries.
      assert.deepEqual(await c.scope('supplier_a', { ...REQUEST, supplierStayIds: ['9'] }).get(['1']), new Map([['1', PRICE]]));
      t += 60_000;
      assert.equal((await scope.get(['1'])).size, 1, 'still fresh at exactly the TTL');
      t += 1;
      assert.deepEqual(await scope.get(['1', '2']), new Map(), 'both gone one millisecond later');
    });

    it('expires entries stored when the clock read 0', async () => {
      const c = await start(10, 0);
      const scope = c.scope('supplier_b', REQUEST);
      scope.set([['1', SOLD_OUT]]);
      await c.flush();
      t = 11;
      assert.deepEqual(await scope.get(['1']), new Map());
    });

    it('keeps supplier, stay, dates, occupancy and currency apart; child ages are a set', async () => {
      const c = await start();
      c.scope('supplier_a', REQUEST).set([['1', PRICE]]);
      const withAges = { ...REQUEST, children: 2, childrenAges: [9, 5] };
      c.scope('supplier_b', withAges).set([['HB1', SOLD_OUT]]);
      await c.flush();
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
        assert.deepEqual(await c.scope(supplier, request).get(['1']), new Map(), what);
      }
      assert.deepEqual(await c.scope('supplier_a', REQUEST).get(['11']), new Map(), 'stay id');
      assert.equal((await c.scope('supplier_a', REQUEST).get(['1'])).size, 1, 'the entry itself');
      // Ages are a set of children: order does not matter, but the ages do; a count is not ages.
      assert.deepEqual(await c.scope('supplier_b', { ...withAges, childrenAges: [5, 9] }).get(['HB1']), new Map([['HB1', SOLD_OUT]]));
      assert.deepEqual(await c.scope('supplier_b', { ...withAges, childrenAges: [5, 10] }).get(['HB1']), new Map());
      assert.deepEqual(await c.scope('supplier_b', { ...withAges, childrenAges: null }).get(['HB1']), new Map());
    });

    it('freezes entries, since every search that hits one shares it', async () => {
      const c = await start();
      const scope = c.scope('supplier_a', REQUEST);
      scope.set([['1', { ...PRICE }]]);
      await c.flush();
      assert.ok(Object.isFrozen((await scope.get(['1'])).get('1')), 'a held entry is frozen');
    });

    it('a later answer replaces an earlier one, with a TTL of its own', async () => {
      const c = await start();
      const scope = c.scope('supplier_d', REQUEST);
      scope.set([['1', PRICE]]);
      await c.flush();
      t += 30_000;
      scope.set([['1', SOLD_OUT]]);
      await c.flush();
      t += 59_000;
      assert.deepEqual(await scope.get(['1']), new Map([['1', SOLD_OUT]]));
    });

    it('flush and close settle with nothing written', async () => {
      const c = await start();
      await c.flush();
      c.scope('supplier_a', REQUEST).set([]);
      await c.flush();
      assert.deepEqual(await c.scope('supplier_a', REQUEST).get([]), new Map());
    });
  });
}
