import type { Settings, SupplierId } from '../types.ts';
import { createCircuitBreaker, type BreakerState, type CircuitBreaker } from './circuit-breaker.ts';
import { withEveryIdAnswered, type QuoteCall, type QuoteObserver, type QuoteOutcome } from './quote-call.ts';
import { createQuoteCache, type QuoteCache } from './quote-cache.ts';
import type { SupplierAuth } from './supplier-auth.ts';
import type { QuoteRequest, Supplier } from './supplier.ts';
import { withBatching } from './with-batching.ts';
import { refuseWhileOpen, withBreaker } from './with-breaker.ts';
import { withinBudget } from './with-budget.ts';
import { withCache, withCacheWrites } from './with-cache.ts';
import { withCallReports } from './with-call-reports.ts';
import { withDeadline } from './with-deadline.ts';

export { SUPPLIER_FAILURES, type QuoteObserver, type QuoteOutcome, type SupplierFailure } from './quote-call.ts';

export interface QuoteService {
  readonly supplier: SupplierId;
  /**
   * Quotes for any number of ids of one stay request, under `signal`, the search's overall
   * budget. Never rejects for supplier trouble: failures are null quotes and `failure`. Rejects
   * only when `signal` aborts with a reason other than a timeout (the caller cancelled), with that
   * reason. A deadline must therefore abort with a TimeoutError (as AbortSignal.timeout() does).
   */
  quote(request: QuoteRequest, signal: AbortSignal): Promise<QuoteOutcome>;
  breakerState(): BreakerState;
}

/** The figures of a quote service: one call's deadline, calls in flight, the breaker's and the cache's. */
export type QuoteSettings = Pick<
  Settings,
  'quoteCallTimeoutMs' | 'quoteConcurrency' | 'breakerFailureThreshold' | 'breakerOpenMs' | 'quoteCacheTtlMs' | 'quoteCacheMaxEntries'
>;

export interface QuoteServiceOptions {
  supplier: Supplier;
  settings: QuoteSettings;
  /** Metrics hooks; absent = none. */
  observer?: QuoteObserver;
  /** Milliseconds clock of the breaker and the cache (tests move it by hand; default Date.now). */
  now?: () => number;
  /** A breaker of the caller's (e.g. to watch it in a test); absent = one from `settings`. */
  breaker?: CircuitBreaker;
  /** A cache of the caller's (one may be shared by several suppliers, and a Redis one by several gateways: keys name the supplier); absent = one from `settings`. */
  cache?: QuoteCache;
  /** Told of each breaker transition (for the log), unless `breaker` is a breaker of the caller's. */
  onBreakerTransition?: (to: BreakerState, cause: string) => void;
  /** Told whether each call's credentials were accepted (answered) or refused (/health's `auth`). */
  auth?: SupplierAuth;
}

/**
 * The resilience around one supplier's driver, one wrapper per rule over the same call: a
 * deadline per call, the circuit breaker, the metrics and credentials' state, the cache, batching
 * to the supplier's cap with bounded concurrency. One per supplier for the life of the process,
 * so that the concurrency bound and the breaker see every search.
 */
export function createQuoteService(options: QuoteServiceOptions): QuoteService {
  const { supplier, settings, observer } = options;
  const now = options.now ?? Date.now;
  const breaker =
    options.breaker ??
    createCircuitBreaker({
      failureThreshold: settings.breakerFailureThreshold,
      openMs: settings.breakerOpenMs,
      now,
      onTransition: options.onBreakerTransition,
    });
  const cache =
    options.cache ?? createQuoteCache({ ttlMs: settings.quoteCacheTtlMs, maxEntries: settings.quoteCacheMaxEntries, now: options.now });
  const refused = (ids: number): void => observer?.refused?.(supplier.id, ids);

  // One call, from the driver out: every id answered, its own deadline, what it met told, the
  // breaker's verdict, the answer cached.
  let call: QuoteCall = withEveryIdAnswered((request, signal) => supplier.quote(request, signal));
  call = withDeadline(call, settings.quoteCallTimeoutMs);
  call = withCallReports(call, supplier.id, { observer, auth: options.auth });
  call = withBreaker(call, breaker);
  call = withCacheWrites(call, cache, supplier.id);
  // A search's ids: what the cache holds, nothing asked past the budget or while the breaker is
  // open, the rest in batches.
  const priced = withCache(
    withinBudget(
      refuseWhileOpen(
        withBatching(call, { maxIds: supplier.maxIdsPerQuote, concurrency: settings.quoteConcurrency, onRefused: refused }),
        breaker,
        refused,
      ),
    ),
    cache,
    supplier.id,
    (hits, misses) => observer?.cache?.(supplier.id, hits, misses),
  );

  return {
    supplier: supplier.id,
    quote: async (request, signal) => ({ supplier: supplier.id, ...(await priced(request, signal)) }),
    breakerState: () => breaker.state(),
  };
}
