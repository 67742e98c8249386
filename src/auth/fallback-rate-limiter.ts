import type { RateDecision, RateLimiter } from './rate-limiter.ts';

export interface FallbackRateLimiterOptions {
  /** The shared limiter (Redis). */
  primary: RateLimiter;
  /** The per-process limiter used while the primary fails. */
  fallback: RateLimiter;
  /** While degraded, the primary is tried again at most this often; other hits go straight to the fallback. */
  retryMs: number;
  clock?: () => number;
  /** Told once when the primary starts failing, and once when it answers again. */
  onDegraded?: (error: unknown) => void;
  onRecovered?: () => void;
}

/**
 * The decision for an unreachable Redis (README, "Rate limits"): keep serving, each process
 * enforcing the limits on its own (memory), rather than refuse every request (fail closed) or
 * lift every limit (fail open). A client could then get up to N times its limit across N
 * processes until Redis is back; the log says when that starts and ends.
 */
export function createFallbackRateLimiter(options: FallbackRateLimiterOptions): RateLimiter & { readonly degraded: boolean } {
  const { primary, fallback, retryMs } = options;
  const clock = options.clock ?? (() => performance.now());
  let degraded = false;
  let triedAt = -Infinity;

  return {
    get degraded() {
      return degraded;
    },
    async hit(bucket, limit): Promise<RateDecision> {
      if (degraded && clock() - triedAt < retryMs) return fallback.hit(bucket, limit);
      triedAt = clock();
      try {
        const decision = await primary.hit(bucket, limit);
        if (degraded) {
          degraded = false;
          options.onRecovered?.();
        }
        return decision;
      } catch (error) {
        if (!degraded) {
          degraded = true;
          options.onDegraded?.(error);
        }
        return fallback.hit(bucket, limit);
      }
    },
    async close() {
      await Promise.all([primary.close(), fallback.close()]);
    },
  };
}
