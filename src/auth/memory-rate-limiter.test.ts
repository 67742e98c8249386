import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryRateLimiter } from './memory-rate-limiter.ts';
import { runRateLimiterContract } from './rate-limiter-contract.ts';

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
