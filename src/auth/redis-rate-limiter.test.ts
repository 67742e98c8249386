import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createFallbackRateLimiter } from './fallback-rate-limiter.ts';
import { createMemoryRateLimiter } from './memory-rate-limiter.ts';
import { createRedisRateLimiter, redactRedisUrl, type RedisRateLimiter } from './redis-rate-limiter.ts';
import { runRateLimiterContract } from '../test-support/contracts/rate-limiter-contract.ts';
import {
  closedRedisUrl,
  deleteRedisKeys,
  skipWithoutRedis,
  startRedisRelay,
  TEST_REDIS_URL,
  testRedisPrefix,
} from '../test-support/redis.ts';

// The real Redis server (REDIS_URL, default 127.0.0.1:6379; .ci/run starts it). Without one, the
// Redis suites are skipped with a message rather than failing a machine that has no Redis.
const skip = await skipWithoutRedis();
const available = skip === false;
const prefix = testRedisPrefix();
let made = 0;
/**
 * The command timeout of the limiters on the real Redis: it only bounds a Redis that hangs, which
 * no test here simulates (an outage is a closed connection: commands fail at once), so it must
 * never decide an outcome, even on a machine loaded by test files running concurrently.
 */
const COMMAND_TIMEOUT_MS = 5_000;

async function redisLimiter(windowMs: number, clock?: () => number): Promise<RedisRateLimiter> {
  const limiter = createRedisRateLimiter({
    url: TEST_REDIS_URL,
    prefix: `${prefix}${made++}:`,
    windowMs,
    clock,
    commandTimeoutMs: COMMAND_TIMEOUT_MS,
  });
  await limiter.connected(5_000);
  return limiter;
}

after(async () => {
  if (available) assert.ok((await deleteRedisKeys(prefix)) >= 0, 'test keys deleted');
});

describe('redis limiter', { skip }, () => {
  runRateLimiterContract('redis', ({ windowMs, clock }) => redisLimiter(windowMs, clock));

  it('shares one limit between limiters (gateway processes) on the same prefix', async () => {
    const shared = `${prefix}shared:`;
    const limiters = await Promise.all(
      [0, 1, 2].map(async () => {
        const l = createRedisRateLimiter({ url: TEST_REDIS_URL, prefix: shared, windowMs: 60_000, commandTimeoutMs: COMMAND_TIMEOUT_MS });
        await l.connected(5_000);
        return l;
      }),
    );
    try {
      // Redis's own clock (no clock given): one clock for every process.
      const started = performance.now();
      const decisions = await Promise.all(Array.from({ length: 90 }, (_, i) => limiters[i % 3].hit('b', 40)));
      // The window of the first accepted request, less what passed since (however slow the machine).
      const elapsed = Math.ceil(performance.now() - started) + 1;
      assert.equal(decisions.filter((d) => d.allowed).length, 40);
      const refused = decisions.find((d) => !d.allowed)!;
      assert.ok(refused.resetMs >= 60_000 - elapsed && refused.resetMs <= 60_000, `resetMs ${refused.resetMs} after ${elapsed} ms`);
    } finally {
      await Promise.all(limiters.map((l) => l.close()));
    }
  });

  it('expires a bucket key once its window has passed', async () => {
    const limiter = await redisLimiter(60_000);
    try {
      const started = performance.now();
      await limiter.hit('ttl', 5);
      const ttl = await limiter.client.pttl(`${prefix}${made - 1}:ttl`);
      // The window, less what passed between the hit and the question (however slow the machine).
      const elapsed = Math.ceil(performance.now() - started) + 1;
      assert.ok(ttl >= 60_000 - elapsed && ttl <= 60_000, `pttl ${ttl} after ${elapsed} ms`);
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

  /**
   * Two gateway processes on one Redis (through a relay the test can cut), a limit of 6 a window,
   * one fake clock for Redis and both processes.
   */
  async function twoProcesses(name: string) {
    const relay = await startRedisRelay();
    let now = 1_000_000;
    const clock = () => now;
    const events: string[] = [];
    const processes = [0, 1].map(() => {
      const redis = createRedisRateLimiter({
        url: relay.url,
        prefix: `${prefix}${name}:`,
        windowMs: 60_000,
        clock,
        commandTimeoutMs: COMMAND_TIMEOUT_MS,
      });
      const limiter = createFallbackRateLimiter({
        primary: redis,
        fallback: createMemoryRateLimiter({ windowMs: 60_000, clock }),
        retryMs: 1_000,
        clock,
        onDegraded: () => events.push('degraded'),
        onRecovered: (restored) => events.push(`recovered ${restored}`),
      });
      return { redis, limiter };
    });
    await Promise.all(processes.map((p) => p.redis.connected(5_000)));
    const allowed = async (p: number, n: number) => {
      let count = 0;
      for (let i = 0; i < n; i++) if ((await processes[p].limiter.hit('b', 6)).allowed) count++;
      return count;
    };
    return {
      relay,
      events,
      allowed,
      advance: (ms: number) => {
        now += ms;
      },
      reconnect: () => Promise.all(processes.map((p) => p.redis.connected(5_000))),
      held: () => processes[0].redis.client.zcard(`${prefix}${name}:b`),
      close: async () => {
        await Promise.all(processes.map((p) => p.limiter.close()));
        await relay.close();
      },
    };
  }

  it('goes on from what each process accepted, and puts the outage back when Redis answers again', { skip }, async () => {
    const t = await twoProcesses('stopped');
    try {
      assert.equal(await t.allowed(0, 2), 2);
      assert.equal(await t.allowed(1, 2), 2);
      await t.relay.cut();
      t.advance(10);
      // Each process knows its own 2: it lets 4 more through, never more than the limit itself.
      assert.equal(await t.allowed(0, 10), 4);
      assert.equal(await t.allowed(1, 10), 4);
      assert.deepEqual(t.events, ['degraded', 'degraded']);
      await t.relay.restore();
      await t.reconnect();
      t.advance(1_000);
      // Back on Redis, which now holds the 4 it saw and the 8 of the outage: nothing more this window.
      assert.equal(await t.allowed(0, 3), 0);
      assert.equal(await t.allowed(1, 3), 0);
      assert.equal(await t.held(), 12);
      assert.deepEqual(t.events.slice(2).sort(), ['recovered 4', 'recovered 4'], 'what Redis held is not counted twice');
      t.advance(60_000);
      assert.equal(await t.allowed(0, 10), 6, 'a new window');
    } finally {
      await t.close();
    }
  });

  it('puts back what Redis forgot when it comes back empty (a restart)', { skip }, async () => {
    const t = await twoProcesses('restarted');
    try {
      assert.equal(await t.allowed(0, 3), 3);
      assert.equal(await t.allowed(1, 3), 3);
      await t.relay.cut();
      assert.equal(await deleteRedisKeys(`${prefix}restarted:`), 1);
      t.advance(10);
      assert.equal(await t.allowed(0, 5), 3);
      assert.equal(await t.allowed(1, 5), 3);
      await t.relay.restore();
      await t.reconnect();
      t.advance(1_000);
      assert.equal(await t.allowed(0, 3), 0);
      assert.equal(await t.allowed(1, 3), 0);
      assert.equal(await t.held(), 12);
    } finally {
      await t.close();
    }
  });
});

it('redacts the password of a Redis URL for logs', () => {
  assert.equal(redactRedisUrl('redis://user:s3cret@host:6380/2'), 'redis://user:***@host:6380/2');
  assert.equal(redactRedisUrl('redis://127.0.0.1:6379'), 'redis://127.0.0.1:6379');
});
