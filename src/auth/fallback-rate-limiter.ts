import type { MemoryRateLimiter } from './memory-rate-limiter.ts';
import type { RateDecision, RateLimiter } from './rate-limiter.ts';
import type { RedisRateLimiter } from './redis-rate-limiter.ts';

export interface FallbackRateLimiterOptions {
  /** The shared limiter (Redis). */
  primary: Pick<RedisRateLimiter, 'hitAs' | 'restore' | 'close'>;
  /** This process's own limiter: it counts what the process accepts, and decides while the primary fails. */
  fallback: MemoryRateLimiter;
  /** While degraded, the primary is tried again at most this often; other hits go straight to the fallback. */
  retryMs: number;
  clock?: () => number;
  /** Told once when the primary starts failing, and once when it answers again (with how many requests were put back). */
  onDegraded?: (error: unknown) => void;
  onRecovered?: (restored: number) => void;
}

/**
 * The decision for an unreachable Redis (README, "Rate limits"): keep serving, each process
 * enforcing the limits on its own, rather than refuse every request (fail closed) or lift every
 * limit (fail open). So that an outage does not reset anyone's allowance:
 * - while Redis is healthy, every request it accepts is also counted in this process's memory
 *   (with an id), so the memory limiter takes over from what the process really let through:
 *   during an outage one process never exceeds a limit, and N processes at most N times it;
 * - when Redis answers again, everything this process accepted within the window is put back
 *   (ZADD NX by id: what Redis still holds is not counted twice, what it lost in a restart, or
 *   never saw during the outage, is), so the outage's requests still count after it.
 */
export function createFallbackRateLimiter(options: FallbackRateLimiterOptions): RateLimiter & { readonly degraded: boolean } {
  const { primary, fallback, retryMs } = options;
  const clock = options.clock ?? (() => performance.now());
  let degraded = false;
  let triedAt = -Infinity;
  let nextId = 1;

  /** Puts this process's accepted requests of the window back into Redis. */
  function restore(): Promise<number> {
    const now = fallback.now();
    return primary.restore(fallback.acceptedInWindow().map((hit) => ({ bucket: hit.bucket, id: hit.id, ageMs: now - hit.at })));
  }

  return {
    get degraded() {
      return degraded;
    },
    async hit(bucket, limit): Promise<RateDecision> {
      const id = nextId++;
      if (degraded && clock() - triedAt < retryMs) return fallback.hit(bucket, limit, id);
      triedAt = clock();
      let decision: RateDecision;
      try {
        if (degraded) {
          // Back: first put the outage's requests in, so that this one is judged with them.
          // (Should Redis fail again meanwhile, the next recovery puts them back: ZADD NX.)
          const restored = await restore();
          degraded = false;
          options.onRecovered?.(restored);
        }
        decision = await primary.hitAs(bucket, limit, id);
      } catch (error) {
        if (!degraded) {
          degraded = true;
          options.onDegraded?.(error);
        }
        return fallback.hit(bucket, limit, id);
      }
      if (decision.allowed) fallback.record(bucket, id);
      return decision;
    },
    async close() {
      await Promise.all([primary.close(), fallback.close()]);
    },
  };
}
