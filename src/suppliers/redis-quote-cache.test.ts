import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { closedRedisUrl, deleteRedisKeys, skipWithoutRedis, TEST_REDIS_URL, testRedisPrefix } from '../test-support/redis.ts';
import { quoteKeyPrefix } from './quote-cache.ts';
import { runQuoteCacheContract } from '../test-support/contracts/quote-cache-contract.ts';
import { defaults } from '../defaults.ts';
import { createRedisQuoteCache, type RedisQuoteCache, type RedisQuoteCacheOptions } from './redis-quote-cache.ts';
import type { QuoteRequest } from './supplier.ts';

// The real Redis server (REDIS_URL, default 127.0.0.1:6379), a unique key prefix per run, deleted after.
const skip = await skipWithoutRedis();
const available = skip === false;
const prefix = testRedisPrefix();
let made = 0;

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
const PRICE = { available: true, total: 100, currency: 'EUR' } as const;

/** A cache on the test server, connected; `ownPrefix` false = the run's shared prefix (two gateways). */
async function redisCache(
  options: Partial<RedisQuoteCacheOptions> & { now: () => number },
  keyPrefix = `${prefix}${made++}:`,
): Promise<RedisQuoteCache> {
  const cache = createRedisQuoteCache({
    url: TEST_REDIS_URL,
    prefix: keyPrefix,
    ttlMs: defaults.quoteCacheTtlMs,
    maxEntries: defaults.quoteCacheMaxEntries,
    commandTimeoutMs: 2_000,
    retryMs: 1_000,
    ...options,
  });
  if (cache.client.status !== 'ready') await new Promise((resolve) => cache.client.once('ready', resolve));
  return cache;
}

after(async () => {
  if (available) assert.ok((await deleteRedisKeys(prefix)) >= 0, 'test keys deleted');
});

describe('redis quote cache', { skip }, () => {
  // With the memory in front, the contract would pass on memory alone: it runs on a cache with a
  // memory of one entry too, so that entries must come back from Redis.
  runQuoteCacheContract('redis', ({ ttlMs, now }) => redisCache({ ttlMs, now }));
  runQuoteCacheContract('redis, memory of 1 entry', ({ ttlMs, now }) => redisCache({ ttlMs, now, maxEntries: 1 }));

  it('shares entries between caches (gateways) on one prefix, each holding them only for what is left of the TTL', async () => {
    let t = 1_000;
    const shared = `${prefix}shared:`;
    const [a, b] = await Promise.all([
      redisCache({ ttlMs: 60_000, now: () => t }, shared),
      redisCache({ ttlMs: 60_000, now: () => t }, shared),
    ]);
    try {
      a.scope('supplier_a', REQUEST).set([['1', PRICE]]);
      await a.flush();
      const key = shared + quoteKeyPrefix('supplier_a', REQUEST) + '1';
      const pttl = await a.client.pttl(key);
      assert.ok(pttl > 55_000 && pttl <= 60_000, `Redis drops the entry after the TTL (pttl ${pttl})`);

      t += 50_000;
      assert.deepEqual(await b.scope('supplier_a', REQUEST).get(['1']), new Map([['1', PRICE]]), 'b sees what a asked');
      // From now on b answers from its memory: without the Redis entry, up to the writer's expiry and no longer.
      await a.client.del(key);
      t += 10_000;
      assert.deepEqual(await b.scope('supplier_a', REQUEST).get(['1']), new Map([['1', PRICE]]), 'held at exactly the TTL');
      t += 1;
      assert.deepEqual(await b.scope('supplier_a', REQUEST).get(['1']), new Map(), 'not held past it');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('takes what it cannot read back (another writer, another version) for a miss', async () => {
    const keyPrefix = `${prefix}${made++}:`;
    const cache = await redisCache({ now: () => 0 }, keyPrefix);
    try {
      const base = keyPrefix + quoteKeyPrefix('supplier_c', REQUEST);
      await cache.client.mset(
        base + '1',
        'not json',
        base + '2',
        '{"q":{"available":true,"total":"12"},"exp":99}',
        base + '3',
        '{"q":{"available":false},"exp":99}',
      );
      assert.deepEqual(await cache.scope('supplier_c', REQUEST).get(['1', '2', '3']), new Map([['3', { available: false }]]));
    } finally {
      await cache.close();
    }
  });
});

describe('redis quote cache, Redis unreachable', () => {
  it("never rejects nor throws: this process's memory serves, and the outage is told once", async () => {
    const degraded: unknown[] = [];
    let told!: () => void;
    const outage = new Promise<void>((resolve) => {
      told = resolve;
    });
    const cache = createRedisQuoteCache({
      url: await closedRedisUrl(),
      prefix,
      ttlMs: defaults.quoteCacheTtlMs,
      maxEntries: defaults.quoteCacheMaxEntries,
      commandTimeoutMs: 200,
      retryMs: 1_000,
      now: () => 0,
      onDegraded: (e) => {
        degraded.push(e);
        told();
      },
    });
    try {
      const scope = cache.scope('supplier_a', REQUEST);
      assert.deepEqual(await scope.get(['1']), new Map());
      scope.set([['1', PRICE]]);
      await cache.flush();
      assert.deepEqual(await scope.get(['1', '2']), new Map([['1', PRICE]]));
      await outage;
      assert.equal(cache.degraded, true);
      // Two more failed reconnection attempts: still one message.
      for (let i = 0; i < 2; i++) await new Promise((resolve) => cache.client.once('error', resolve));
      assert.equal(degraded.length, 1, 'one message per outage');
      assert.deepEqual(await scope.get(['1', '2']), new Map([['1', PRICE]]));
    } finally {
      await cache.close();
    }
  });
});
