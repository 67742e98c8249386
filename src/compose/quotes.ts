// The quote path: the suppliers' drivers, whether each accepts our credentials, and one quote
// service per supplier (cache, breaker, deadline), with the quote cache shared through Redis when
// there is one.
import type { FastifyBaseLogger } from 'fastify';
import { redactRedisUrl } from '../auth/redis-rate-limiter.ts';
import type { Metrics } from '../metrics/create-metrics.ts';
import { createSuppliers } from '../suppliers/create-suppliers.ts';
import { createQuoteService, type QuoteService } from '../suppliers/quote-service.ts';
import { createRedisQuoteCache, type RedisQuoteCache } from '../suppliers/redis-quote-cache.ts';
import type { Supplier } from '../suppliers/supplier.ts';
import { createSupplierAuth, type SupplierAuth } from '../suppliers/supplier-auth.ts';
import type { Settings, SupplierId } from '../types.ts';
import type { SupplierSlot } from './supplier-slots.ts';

export interface QuotePathOptions {
  /** `config.settings`: the drivers', the quote services' and the shared cache's figures. */
  settings: Settings;
  /** The four slots; their drivers are made here unless `drivers` are given (tests: slots without a commission report). */
  slots: readonly SupplierSlot[];
  drivers?: readonly Supplier[];
  /** REDIS_URL: one quote cache for every gateway, this process's memory in front; null = each process its own. */
  redisUrl: string | null;
  /** STAYGATE_REDIS_PREFIX: the shared cache's keys are under `${prefix}quotes:`; null = settings.redisQuoteKeyPrefix. */
  redisKeyPrefix: string | null;
  /** Milliseconds clock of the breakers and the cache (tests move it by hand). */
  clock?: () => number;
  metrics: Metrics;
  log: () => FastifyBaseLogger;
}

export interface QuotePath {
  suppliers: readonly Supplier[];
  /** Whether each supplier accepts our credentials, told by quotes and content pulls alike (/health's `auth`). */
  auth: SupplierAuth;
  quotes: ReadonlyMap<SupplierId, QuoteService>;
  close(): Promise<void>;
}

export function createQuotePath(options: QuotePathOptions): QuotePath {
  const { settings, metrics, log } = options;
  const suppliers = options.drivers ?? createSuppliers(options.slots, settings);
  const auth = createSupplierAuth({ onRefused: (supplier) => metrics.authFailed(supplier) });
  const shared = options.redisUrl === null ? null : sharedQuoteCache(options, suppliers.length);
  const quotes = new Map(
    suppliers.map((supplier) => [
      supplier.id,
      createQuoteService({
        supplier,
        now: options.clock,
        observer: metrics.quotes,
        settings,
        auth,
        ...(shared === null ? {} : { cache: shared }),
        onBreakerTransition: (to, cause) => {
          const line = { supplier: supplier.id, breaker: to, cause };
          if (to === 'open') log().warn(line, `${supplier.id}: circuit breaker open (${cause})`);
          else log().info(line, `${supplier.id}: circuit breaker ${to} (${cause})`);
        },
      }),
    ]),
  );
  return { suppliers, auth, quotes, close: async () => shared?.close() };
}

/** One cache for every gateway on the Redis; a failing Redis only means the supplier is asked (docs/decisions.md 73). */
function sharedQuoteCache(options: QuotePathOptions, suppliers: number): RedisQuoteCache {
  const { settings, log } = options;
  const url = options.redisUrl!;
  const redisName = redactRedisUrl(url);
  return createRedisQuoteCache({
    url,
    prefix: options.redisKeyPrefix === null ? settings.redisQuoteKeyPrefix : `${options.redisKeyPrefix}quotes:`,
    maxEntries: settings.quoteCacheMaxEntries * suppliers,
    ttlMs: settings.quoteCacheTtlMs,
    now: options.clock,
    commandTimeoutMs: settings.redisCommandTimeoutMs,
    retryMs: settings.redisRetryMs,
    onDegraded: (error) =>
      log().error(
        { err: error },
        `the quote cache cannot use Redis at ${redisName}: each gateway caches quotes on its own until it answers`,
      ),
    onRecovered: () => log().info(`Redis at ${redisName} answers again: quotes are shared again`),
  });
}
