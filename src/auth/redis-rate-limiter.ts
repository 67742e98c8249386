import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RateDecision, RateLimiter } from './rate-limiter.ts';

/** Lua: `now` in ms from ARGV[1], or from the Redis server's own clock when that is '' (one clock for every gateway). */
const NOW_MS = `
local now = tonumber(ARGV[1])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/**
 * Check-and-count in one script, so that concurrent requests from any number of gateway
 * processes see one limit. The bucket is a sorted set of accepted requests scored by their time.
 * ARGV: now in ms ('' = the Redis server's clock, one clock for every gateway), window ms,
 * limit, the member (unique per request: an instance id and a number). Returns
 * { allowed 0|1, remaining, resetMs }.
 */
const SLIDING_WINDOW_HIT = `${NOW_MS}local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
  if count < limit then return {1, limit - count, 0} end
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {1, 0, tonumber(oldest[2]) + window - now}
end
local freeing = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
return {0, 0, tonumber(freeing[2]) + window - now}
`;

/**
 * Puts back requests accepted while Redis could not count them (or forgot them in a restart):
 * ZADD NX, so a request Redis still holds keeps its own time and is never counted twice.
 * ARGV: now ('' = Redis's clock), window ms, then age-ms/member pairs. Returns how many were added.
 */
const RESTORE_ACCEPTED = `${NOW_MS}local window = tonumber(ARGV[2])
local added = 0
for i = 3, #ARGV, 2 do
  added = added + redis.call('ZADD', KEYS[1], 'NX', now - tonumber(ARGV[i]), ARGV[i + 1])
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('PEXPIRE', KEYS[1], window)
return added
`;

interface SlidingWindowCommands {
  slidingWindowHit(key: string, now: string, windowMs: string, limit: string, member: string): Promise<[number, number, number]>;
  restoreAccepted(key: string, now: string, windowMs: string, ...agesAndMembers: string[]): Promise<number>;
}

/** A request a process accepted, to be put back into Redis: how long ago, and its `id` as given to `hitAs`. */
export interface AcceptedEntry {
  bucket: string;
  ageMs: number;
  id: number;
}

export interface RedisRateLimiterOptions {
  /** redis://[user:password@]host:port[/db] */
  url: string;
  /** Prefix of every key the limiter writes (tests use a unique one and delete it after). */
  prefix: string;
  windowMs: number;
  /** Milliseconds; absent = the Redis server's clock. Tests pass a fake one. */
  clock?: () => number;
  /** A command not answered within this long fails (and the caller falls back). */
  commandTimeoutMs: number;
  /** Connection errors (the client reconnects by itself). */
  onError?: (error: Error) => void;
}

export interface RedisRateLimiter extends RateLimiter {
  /**
   * A hit whose request, when accepted, is stored under `id` (unique within this limiter), so
   * that `restore` can later put it back without counting it twice.
   */
  hitAs(bucket: string, limit: number, id: number): Promise<RateDecision>;
  /** Adds accepted requests Redis does not hold (idempotent per id); returns how many it added. */
  restore(entries: readonly AcceptedEntry[]): Promise<number>;
  /** Resolves once connected (rejects after `timeoutMs`); hits fail fast until then. */
  connected(timeoutMs: number): Promise<void>;
  /** The client, for tests that clean up their keys. */
  readonly client: Redis;
}

/**
 * The shared limiter: one Lua script per request against a sorted set per bucket. While Redis is
 * unreachable a hit fails at once (no offline queue, no retries), so the caller can fall back.
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RedisRateLimiter {
  const client = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: Math.max(1_000, options.commandTimeoutMs * 4),
    // Keep trying to come back, at most every 2 s.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    // On close, a socket that never connected is dropped after this long (default 2 s holds a
    // stopping process open).
    disconnectTimeout: 200,
  });
  client.on('error', (error: Error) => options.onError?.(error));
  client.defineCommand('slidingWindowHit', { numberOfKeys: 1, lua: SLIDING_WINDOW_HIT });
  client.defineCommand('restoreAccepted', { numberOfKeys: 1, lua: RESTORE_ACCEPTED });
  const commands = client as unknown as SlidingWindowCommands;
  const instance = randomBytes(6).toString('base64url');
  let sequence = 0;
  const window = String(options.windowMs);

  async function hitWith(bucket: string, limit: number, member: string): Promise<RateDecision> {
    const now = options.clock === undefined ? '' : String(options.clock());
    const [allowed, remaining, resetMs] = await commands.slidingWindowHit(options.prefix + bucket, now, window, String(limit), member);
    return { allowed: allowed === 1, limit, remaining, resetMs: Math.max(0, resetMs) };
  }

  return {
    client,
    hit: (bucket, limit) => hitWith(bucket, limit, `${instance}:${sequence++}`),
    hitAs: (bucket, limit, id) => hitWith(bucket, limit, `${instance}:j${id}`),
    async restore(entries) {
      const byBucket = new Map<string, string[]>();
      for (const e of entries) {
        let args = byBucket.get(e.bucket);
        if (args === undefined) byBucket.set(e.bucket, (args = []));
        args.push(String(Math.max(0, Math.round(e.ageMs))), `${instance}:j${e.id}`);
      }
      const now = options.clock === undefined ? '' : String(options.clock());
      let added = 0;
      for (const [bucket, args] of byBucket) added += await commands.restoreAccepted(options.prefix + bucket, now, window, ...args);
      return added;
    },
    connected(timeoutMs) {
      if (client.status === 'ready') return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          client.off('ready', onReady);
          reject(new Error(`Redis at ${redactRedisUrl(options.url)} not reachable within ${timeoutMs} ms`));
        }, timeoutMs);
        timer.unref();
        const onReady = () => {
          clearTimeout(timer);
          resolve();
        };
        client.once('ready', onReady);
      });
    },
    async close() {
      client.disconnect();
    },
  };
}

/** A Redis URL fit for a log line: without its password. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable REDIS_URL)';
  }
}
