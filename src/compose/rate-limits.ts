// The rate limiter of a gateway: in memory, or shared through Redis with the memory limiter as the
// fallback while Redis is unreachable (README, "Rate limits").
import type { FastifyBaseLogger } from 'fastify';
import { createFallbackRateLimiter } from '../auth/fallback-rate-limiter.ts';
import { createMemoryRateLimiter } from '../auth/memory-rate-limiter.ts';
import type { RateLimiter } from '../auth/rate-limiter.ts';
import { createRedisRateLimiter, redactRedisUrl } from '../auth/redis-rate-limiter.ts';
import type { Settings } from '../types.ts';

export interface RateLimitsOptions {
  settings: Pick<Settings, 'rateWindowMs' | 'redisKeyPrefix' | 'redisCommandTimeoutMs' | 'redisRetryMs'>;
  /** REDIS_URL; null = each process limits in memory. */
  redisUrl: string | null;
  /** STAYGATE_REDIS_PREFIX (tests: a unique one); null = settings.redisKeyPrefix. */
  redisKeyPrefix: string | null;
  /** Milliseconds clock of the windows (tests); absent = monotonic in memory, Redis's own clock with Redis. */
  clock?: () => number;
  /** The gateway's logger, reached when something happens (the HTTP app that owns it is made later). */
  log: () => FastifyBaseLogger;
}

export function createRateLimits(options: RateLimitsOptions): RateLimiter {
  const { settings, redisUrl, clock, log } = options;
  const windowMs = settings.rateWindowMs;
  const memory = createMemoryRateLimiter({ windowMs, clock });
  if (redisUrl === null) return memory;
  const redisName = redactRedisUrl(redisUrl);
  const redis = createRedisRateLimiter({
    url: redisUrl,
    prefix: options.redisKeyPrefix ?? settings.redisKeyPrefix,
    windowMs,
    clock,
    commandTimeoutMs: settings.redisCommandTimeoutMs,
    onError: () => undefined, // reconnect attempts fail every few seconds; the fallback logs the outage once
  });
  void redis.connected(2_000).then(
    () => log().info(`rate limits shared through Redis at ${redisName}`),
    () => undefined, // the first hit tells
  );
  return createFallbackRateLimiter({
    primary: redis,
    fallback: memory,
    retryMs: settings.redisRetryMs,
    onDegraded: (error) =>
      log().error({ err: error }, `Redis at ${redisName} is unreachable: rate limits are enforced per process until it is back`),
    onRecovered: (restored) =>
      log().info(`Redis at ${redisName} answers again: rate limits are shared again (${restored} requests accepted meanwhile put back)`),
  });
}
