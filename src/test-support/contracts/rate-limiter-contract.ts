// The behaviour every RateLimiter must have. Each implementation's test file calls
// runRateLimiterContract with a factory for a fresh limiter on a fake clock.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { RateLimiter } from '../../auth/rate-limiter.ts';

export interface LimiterFactoryOptions {
  windowMs: number;
  clock: () => number;
}

export type LimiterFactory = (options: LimiterFactoryOptions) => Promise<RateLimiter>;

const WINDOW = 60_000;
/** Far from zero, like a real clock (a fake clock at 0 hides off-by-a-window mistakes). */
const T0 = 1_800_000_000_000;

export function runRateLimiterContract(name: string, make: LimiterFactory): void {
  describe(`RateLimiter contract: ${name}`, () => {
    let now = T0;
    let limiter: RateLimiter | null = null;
    const start = async (windowMs = WINDOW): Promise<RateLimiter> => {
      now = T0;
      limiter = await make({ windowMs, clock: () => now });
      return limiter;
    };
    afterEach(async () => {
      await limiter?.close();
      limiter = null;
    });

    it('allows up to the limit, counting down, then refuses until the oldest request leaves', async () => {
      const rl = await start();
      const seen = [];
      for (let i = 0; i < 3; i++) {
        seen.push(await rl.hit('b', 3));
        now += 1_000;
      }
      assert.deepEqual(seen, [
        { allowed: true, limit: 3, remaining: 2, resetMs: 0 },
        { allowed: true, limit: 3, remaining: 1, resetMs: 0 },
        // Full now: the next slot frees when the first request (2 s ago) is 60 s old.
        { allowed: true, limit: 3, remaining: 0, resetMs: WINDOW - 2_000 },
      ]);
      assert.deepEqual(await rl.hit('b', 3), { allowed: false, limit: 3, remaining: 0, resetMs: WINDOW - 3_000 });
    });

    it('slides exactly: a request counts for 60 s to the millisecond', async () => {
      const rl = await start();
      await rl.hit('b', 2); // t0
      now = T0 + 30_000;
      await rl.hit('b', 2); // t0 + 30 s
      now = T0 + WINDOW - 1;
      assert.deepEqual(await rl.hit('b', 2), { allowed: false, limit: 2, remaining: 0, resetMs: 1 });
      now = T0 + WINDOW; // the first request leaves the window now
      assert.deepEqual(await rl.hit('b', 2), { allowed: true, limit: 2, remaining: 0, resetMs: 30_000 });
      now = T0 + WINDOW + 29_999;
      assert.equal((await rl.hit('b', 2)).allowed, false);
      now = T0 + 90_000;
      assert.equal((await rl.hit('b', 2)).allowed, true);
    });

    it('does not count refused requests', async () => {
      const rl = await start();
      await rl.hit('b', 1);
      for (let i = 0; i < 10; i++) {
        now += 5_000;
        assert.equal((await rl.hit('b', 1)).allowed, false);
      }
      now = T0 + WINDOW;
      assert.deepEqual(await rl.hit('b', 1), { allowed: true, limit: 1, remaining: 0, resetMs: WINDOW });
    });

    it('keeps buckets apart', async () => {
      const rl = await start();
      assert.equal((await rl.hit('/v3/accommodations|ip:1.2.3.4', 1)).allowed, true);
      assert.equal((await rl.hit('/v3/accommodations|ip:1.2.3.4', 1)).allowed, false);
      assert.equal((await rl.hit('/v2/accommodations|ip:1.2.3.4', 1)).allowed, true, 'another endpoint');
      assert.equal((await rl.hit('/v3/accommodations|ip:1.2.3.5', 1)).allowed, true, 'another client');
      assert.equal((await rl.hit('/v3/accommodations|key:abc', 1)).allowed, true, 'a key');
    });

    it('gives exactly the limit to 200 simultaneous requests against a limit of 60', async () => {
      const rl = await start();
      const decisions = await Promise.all(Array.from({ length: 200 }, () => rl.hit('burst', 60)));
      assert.equal(decisions.filter((d) => d.allowed).length, 60);
      const remaining = decisions
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort((a, b) => a - b);
      assert.deepEqual(
        remaining,
        Array.from({ length: 60 }, (_, i) => i),
        'each accepted request saw its own count',
      );
      assert.ok(
        decisions.filter((d) => !d.allowed).every((d) => d.remaining === 0 && d.resetMs === WINDOW),
        'every refusal: 0 remaining, a whole window to wait',
      );
    });

    it('honours a limit that changes between requests (a key given a new limit)', async () => {
      const rl = await start();
      for (let i = 0; i < 4; i++) {
        assert.equal((await rl.hit('k', 5)).allowed, true);
        now += 1_000;
      }
      // Lowered to 2 with 4 in the window: the third slot frees when 3 have left (the third at t0 + 2 s).
      assert.deepEqual(await rl.hit('k', 2), { allowed: false, limit: 2, remaining: 0, resetMs: WINDOW + 2_000 - 4_000 });
      assert.deepEqual(await rl.hit('k', 10), { allowed: true, limit: 10, remaining: 5, resetMs: 0 });
    });

    it('uses the window it was made with', async () => {
      const rl = await start(1_000);
      assert.equal((await rl.hit('w', 1)).allowed, true);
      now += 999;
      assert.deepEqual(await rl.hit('w', 1), { allowed: false, limit: 1, remaining: 0, resetMs: 1 });
      now += 1;
      assert.equal((await rl.hit('w', 1)).allowed, true);
    });
  });
}
