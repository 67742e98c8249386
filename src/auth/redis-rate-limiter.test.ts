import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createFallbackRateLimiter } from './fallback-rate-limiter.ts';
import { createMemoryRateLimiter } from './memory-rate-limiter.ts';
import { createRedisRateLimiter, redactRedisUrl, type RedisRateLimiter } from './redis-rate-limiter.ts';
import { runRateLimiterContract } from './rate-limiter-contract.ts';
import { closedRedisUrl, deleteRedisKeys, skipWithoutRedis, startRedisRelay, TEST_REDIS_URL, testRedisPrefix } from '../test-support/redis.ts';

// The real Redis server (REDIS_URL, default 127.0.0.1:6379; .ci/run starts it). Without one, the
// Redis suites are skipped with a message rather than failing a machine that has no Redis.
const skip = await skipWithoutRedis();
const available = skip === false;
const prefix = testRedisPrefix();
let made = 0;

async function redisLimiter(windowMs: number, clock?: () => number): Promise<RedisRateLimiter> {
  const limiter = createRedisRateLimiter({ url: TEST_REDIS_URL, prefix: `${prefix}${made++}:`, windowMs, clock, commandTimeoutMs: 2_000 });
  await limiter.connected(5_000);
  return limiter;
}

after(async () => {
  if (available) assert.ok((await deleteRedisKeys(prefix)) >= 0);
});

describe('redis limiter', { skip }, () => {
  runRateLimiterContract('redis', ({ windowMs, clock }) => redisLimiter(windowMs, clock));

  it('shares one limit between limiters (gateway processes) on the same prefix', async () => {
    const shared = `${prefix}shared:`;
    const limiters = await Promise.all([0, 1, 2].map(async () => {
      const l = createRedisRateLimiter({ url: TEST_REDIS_URL, prefix: shared, windowMs: 60_000, commandTimeoutMs: 2_000 });
      await l.connected(5_000);
      return l;
    }));
    try {
      // Redis's own clock (no clock given): one clock for every process.
      const decisions = await Promise.all(Array.from({ length: 90 }, (_, i) => limiters[i % 3].hit('b', 40)));
      assert.equal(decisions.filter((d) => d.allowed).length, 40);
      const refused = decisions.find((d) => !d.allowed)!;
      assert.ok(refused.resetMs > 59_000 && refused.resetMs <= 60_000, `resetMs ${refused.resetMs}`);
    } finally {
      await Promise.all(limiters.map((l) => l.close()));
    }
  });

  it('expires a bucket key once its window has passed', async () => {
    const limiter = await redisLimiter(60_000);
    try {
      await limiter.hit('ttl', 5);
      const ttl = await limiter.client.pttl(`${prefix}${made - 1}:ttl`);
      assert.ok(ttl > 59_000 && ttl <= 60_000, `pttl ${ttl}`);
    } finally {
      await limiter.close();
    }
  });
});

describe('redis unreachable: each process falls back to its own memory limiter', () => {
  it('limits per process, tells once, and never fails a request', async () => {
    const url = await closedRedisUrl();
    const redis = createRedisRateLimiter({ url, prefix, windowMs: 60_000, commandTimeoutMs: 200 });
    const degraded: unknown[] = [];
    const limiter = createFallbackRateLimiter({
      primary: redis,
      fallback: createMemoryRateLimiter({ windowMs: 60_000 }),
      retryMs: 1_000,
      onDegraded: (error) => degraded.push(error),
    });
    try {
      const decisions = await Promise.all(Array.from({ length: 20 }, () => limiter.hit('down', 5)));
      assert.equal(decisions.filter((d) => d.allowed).length, 5);
      assert.equal(degraded.length, 1, 'one message per outage');
      assert.equal(limiter.degraded, true);
    } finally {
      await limiter.close();
    }
  });

  it('goes back to Redis when it answers again', { skip }, async () => {
    const relay = await startRedisRelay();
    let now = 0;
    const events: string[] = [];
    const redis = createRedisRateLimiter({ url: relay.url, prefix: `${prefix}relay:`, windowMs: 60_000, commandTimeoutMs: 300 });
    const limiter = createFallbackRateLimiter({
      primary: redis,
      fallback: createMemoryRateLimiter({ windowMs: 60_000 }),
      retryMs: 1_000,
      clock: () => now,
      onDegraded: () => events.push('degraded'),
      onRecovered: () => events.push('recovered'),
    });
    try {
      await redis.connected(5_000);
      assert.equal((await limiter.hit('r', 3)).remaining, 2);
      await relay.cut();
      assert.equal((await limiter.hit('r', 3)).remaining, 2, 'memory has its own, empty log');
      assert.deepEqual(events, ['degraded']);
      await relay.restore();
      await redis.connected(5_000);
      now += 1_000;
      // Back on Redis, whose log kept the first request.
      assert.equal((await limiter.hit('r', 3)).remaining, 1);
      assert.deepEqual(events, ['degraded', 'recovered']);
    } finally {
      await limiter.close();
      await relay.close();
    }
  });
});

it('redacts the password of a Redis URL for logs', () => {
  assert.equal(redactRedisUrl('redis://user:s3cret@host:6380/2'), 'redis://user:***@host:6380/2');
  assert.equal(redactRedisUrl('redis://127.0.0.1:6379'), 'redis://127.0.0.1:6379');
});
