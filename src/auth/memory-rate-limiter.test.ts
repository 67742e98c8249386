import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryRateLimiter } from './memory-rate-limiter.ts';
import { runRateLimiterContract } from '../test-support/contracts/rate-limiter-contract.ts';

runRateLimiterContract('memory', async ({ windowMs, clock }) => createMemoryRateLimiter({ windowMs, clock }));

test('memory limiter: buckets of idle clients are swept after a window', async () => {
  let now = 0;
  const limiter = createMemoryRateLimiter({ windowMs: 1_000, clock: () => now });
  for (let i = 0; i < 1_000; i++) await limiter.hit(`client-${i}`, 5);
  now = 5_000;
  assert.equal(limiter.bucketCount, 1_000);
  await limiter.hit('late', 5);
  assert.equal(limiter.bucketCount, 1, 'only the fresh bucket remains');
  assert.deepEqual(await limiter.hit('client-1', 1), { allowed: true, limit: 1, remaining: 0, resetMs: 1_000 });
});

test('memory limiter: a long-running busy bucket keeps an exact count while its log is compacted', async () => {
  let now = 0;
  const limiter = createMemoryRateLimiter({ windowMs: 100, clock: () => now });
  let last = null;
  // One hit a millisecond for 5,000 ms: the window always holds the last 100 hits.
  for (let i = 0; i < 5_000; i++, now++) last = await limiter.hit('busy', 150);
  assert.deepEqual(last, { allowed: true, limit: 150, remaining: 50, resetMs: 0 });
  const full = createMemoryRateLimiter({ windowMs: 100, clock: () => now });
  for (let i = 0; i < 3_000; i++, now++) last = await full.hit('busy', 60);
  // 60 allowed per 100 ms: at the end the window holds exactly 60, the oldest at most 100 ms back.
  assert.equal(last!.remaining, 0);
  assert.ok(last!.resetMs > 0 && last!.resetMs <= 100, `resetMs ${last!.resetMs}`);
});
