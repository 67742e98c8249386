import type { RateDecision, RateLimiter } from './rate-limiter.ts';

export interface MemoryRateLimiterOptions {
  windowMs: number;
  /** Milliseconds; monotonic by default, so a wall-clock step cannot stretch or shrink a window. */
  clock?: () => number;
}

/**
 * The per-process limiter: a sorted log of accepted times per bucket. JavaScript runs one hit at
 * a time, so check-and-count is atomic. A log holds at most `limit` entries, and buckets whose
 * log has emptied are swept once per window, so idle clients cost nothing for long.
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): RateLimiter & { readonly bucketCount: number } {
  const { windowMs } = options;
  const clock = options.clock ?? (() => performance.now());
  const buckets = new Map<string, number[]>();
  let sweptAt = clock();

  function prune(log: number[], now: number): void {
    let stale = 0;
    while (stale < log.length && log[stale] <= now - windowMs) stale++;
    if (stale > 0) log.splice(0, stale);
  }

  function sweep(now: number): void {
    sweptAt = now;
    for (const [bucket, log] of buckets) {
      prune(log, now);
      if (log.length === 0) buckets.delete(bucket);
    }
  }

  return {
    /** Buckets held (for tests of the sweep). */
    get bucketCount() {
      return buckets.size;
    },
    async hit(bucket, limit): Promise<RateDecision> {
      const now = clock();
      if (now - sweptAt >= windowMs) sweep(now);
      let log = buckets.get(bucket);
      if (log === undefined) buckets.set(bucket, (log = []));
      prune(log, now);
      if (log.length < limit) {
        log.push(now);
        const remaining = limit - log.length;
        return { allowed: true, limit, remaining, resetMs: remaining > 0 ? 0 : log[0] + windowMs - now };
      }
      // A lowered limit can leave more entries than it allows: the next slot frees when enough leave.
      return { allowed: false, limit, remaining: 0, resetMs: log[log.length - limit] + windowMs - now };
    },
    async close() {
      buckets.clear();
    },
  };
}
