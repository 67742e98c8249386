import { Redis } from 'ioredis';
import { createQuoteCache, quoteKeyPrefix, type MemoryQuoteScope, type QuoteCache, type QuoteCacheScope } from './quote-cache.ts';
import type { Quote } from './supplier.ts';

export interface RedisQuoteCacheOptions {
  /** redis://[user:password@]host:port[/db] */
  url: string;
  /** Prefix of every key the cache writes (tests use a unique one and delete it after). */
  prefix: string;
  /** How long a quote is reused, wherever it was asked (`settings.quoteCacheTtlMs`). */
  ttlMs: number;
  /** Most quotes this process holds in memory in front of Redis. */
  maxEntries: number;
  /**
   * Milliseconds clock of the entries' expiry. Expiry times travel between gateways inside the
   * entries, so the default is the wall clock (Date.now), which every machine keeps in step.
   */
  now?: () => number;
  /** A Redis call not answered within this is given up: the quotes it would have found are asked of the supplier. */
  commandTimeoutMs: number;
  /** After a failed call, Redis is left alone this long (this process's memory serves meanwhile). */
  retryMs: number;
  /** Milliseconds clock of `retryMs` (tests); default performance.now. */
  retryClock?: () => number;
  /** Told once when Redis starts failing and once when it answers again. */
  onDegraded?: (error: unknown) => void;
  onRecovered?: () => void;
  /** Connection errors (the client reconnects by itself). */
  onError?: (error: Error) => void;
}

export interface RedisQuoteCache extends QuoteCache {
  /** The client, for tests that look at or clean up its keys. */
  readonly client: Redis;
  readonly degraded: boolean;
}

/** What Redis holds per quote: the answer and when it stops being fresh (by `now`). */
interface StoredQuote {
  q: Quote;
  exp: number;
}

/**
 * The quote cache shared by every gateway on one Redis (docs/decisions.md 73), with this
 * process's memory cache in front: a quote one gateway asked a supplier for is reused by the
 * others within its TTL, and the hits a process has already seen cost no round trip.
 * - An entry is `SET key {q, exp} PX ttl`: `exp` keeps the TTL exact when the entry is copied
 *   into another gateway's memory (it is held there only for what is left of it), and PX lets
 *   Redis drop it.
 * - A lookup is one MGET for the ids memory does not hold; writes are one pipeline, in the
 *   background, after the supplier answered. Failures are never cached (quote-service.ts).
 * - Redis failing never fails a search: a lookup that errs or times out finds nothing (the
 *   supplier is asked, as without a cache), a write that errs is dropped. Without a connection
 *   Redis is not called at all; with one that fails calls (a frozen server), it is tried once per
 *   `retryMs`, so an outage costs at most one `commandTimeoutMs` per `retryMs`.
 */
export function createRedisQuoteCache(options: RedisQuoteCacheOptions): RedisQuoteCache {
  const ttl = options.ttlMs;
  const now = options.now ?? Date.now;
  const near = createQuoteCache({ ttlMs: ttl, maxEntries: options.maxEntries, now });
  const client = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: Math.max(1_000, options.commandTimeoutMs * 4),
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    disconnectTimeout: 200,
  });
  const health = redisHealth(client, options);
  const writes = new Set<Promise<void>>();
  return {
    client,
    get degraded() {
      return health.degraded;
    },
    scope: (supplier, request) =>
      redisScope({
        client,
        health,
        writes,
        ttl,
        now,
        keyPrefix: options.prefix + quoteKeyPrefix(supplier, request),
        local: near.scope(supplier, request),
      }),
    async flush() {
      await Promise.all([...writes]);
    },
    async close() {
      await Promise.all([...writes]);
      client.disconnect();
    },
  };
}

/** Whether Redis answers, as its calls and connection tell; told once when it starts failing and once when it is back. */
interface RedisHealth {
  readonly degraded: boolean;
  /**
   * Whether to ask Redis now: only over a ready connection (while it connects, a call would only
   * fail: memory serves, at no cost), and while calls fail, once per retryMs.
   */
  usable(): boolean;
  failed(error: unknown): void;
  answered(): void;
}

function redisHealth(
  client: Redis,
  options: Pick<RedisQuoteCacheOptions, 'retryMs' | 'retryClock' | 'onDegraded' | 'onRecovered' | 'onError'>,
): RedisHealth {
  const retryClock = options.retryClock ?? (() => performance.now());
  let degraded = false;
  let failedAt = -Infinity;
  const health: RedisHealth = {
    get degraded() {
      return degraded;
    },
    usable: () => client.status === 'ready' && (!degraded || retryClock() - failedAt >= options.retryMs),
    failed(error) {
      failedAt = retryClock();
      if (degraded) return;
      degraded = true;
      options.onDegraded?.(error);
    },
    answered() {
      if (!degraded) return;
      degraded = false;
      options.onRecovered?.();
    },
  };
  client.on('error', (error: Error) => {
    options.onError?.(error);
    health.failed(error);
  });
  // Connected (again): calls go to Redis at once; one that fails marks it degraded again.
  client.on('ready', () => health.answered());
  return health;
}

interface RedisScopeParts {
  client: Redis;
  health: RedisHealth;
  /** Writes under way, for `flush`. */
  writes: Set<Promise<void>>;
  ttl: number;
  now: () => number;
  /** The Redis key of a stay id is this followed by the id. */
  keyPrefix: string;
  /** This process's memory for the same supplier and stay request. */
  local: MemoryQuoteScope;
}

/** One supplier's entries for one stay request: memory first, then Redis for the rest. */
function redisScope({ client, health, writes, ttl, now, keyPrefix, local }: RedisScopeParts): QuoteCacheScope {
  /** The ids memory does not hold, from Redis in one MGET; copied into memory for what is left of their TTL. */
  async function readFar(far: readonly string[], found: Map<string, Quote>): Promise<Map<string, Quote>> {
    let values: (string | null)[];
    try {
      values = await client.mget(far.map((id) => keyPrefix + id));
      health.answered();
    } catch (error) {
      health.failed(error);
      return found;
    }
    const t = now();
    far.forEach((id, i) => {
      const stored = decode(values[i]);
      // Fresh up to and including `exp`, as in memory.
      if (stored === null || stored.exp < t) return;
      const quote = Object.freeze(stored.q);
      // Held here only for what is left of it (a clock ahead of the writer's cannot stretch it).
      const left = Math.min(stored.exp - t, ttl);
      if (left >= 1) local.setOne(id, quote, left);
      found.set(id, quote);
    });
    return found;
  }

  return {
    get(ids) {
      const found = new Map<string, Quote>();
      const far: string[] = [];
      for (const id of ids) {
        const quote = local.getOne(id);
        if (quote === undefined) far.push(id);
        else found.set(id, quote);
      }
      // What memory answers needs no round trip (and no promise).
      if (far.length === 0 || !health.usable()) return found;
      return readFar(far, found);
    },
    set(entries) {
      if (entries.length === 0) return;
      for (const [id, quote] of entries) local.setOne(id, quote);
      if (!health.usable()) return;
      const exp = now() + ttl;
      const pipeline = client.pipeline();
      for (const [id, quote] of entries) pipeline.set(keyPrefix + id, JSON.stringify({ q: quote, exp } satisfies StoredQuote), 'PX', ttl);
      const write = pipeline
        .exec()
        .then((results) => {
          const error = results?.find(([e]) => e !== null)?.[0];
          if (error) health.failed(error);
          else health.answered();
        }, health.failed)
        .finally(() => writes.delete(write));
      writes.add(write);
    },
  };
}

/** An entry as read back, or null when it is not one (written by something else): a miss, not an error. */
function decode(value: string | null): StoredQuote | null {
  if (value === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { q, exp } = parsed as Partial<StoredQuote>;
  if (typeof exp !== 'number' || typeof q !== 'object' || q === null) return null;
  if (q.available === false) return { q: { available: false }, exp };
  if (q.available === true && typeof q.total === 'number' && Number.isFinite(q.total) && typeof q.currency === 'string') {
    return { q: { available: true, total: q.total, currency: q.currency }, exp };
  }
  return null;
}
