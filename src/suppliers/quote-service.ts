import pLimit from 'p-limit';
import { defaults } from '../defaults.ts';
import type { SupplierId } from '../types.ts';
import { observeCalls } from './call-observer.ts';
import { createCircuitBreaker, type BreakerState, type CircuitBreaker } from './circuit-breaker.ts';
import { deadlineSignal } from './deadline-signal.ts';
import { createQuoteCache, type QuoteCache } from './quote-cache.ts';
import type { SupplierAuth } from './supplier-auth.ts';
import { isTimeoutReason, SupplierError, type SupplierErrorKind } from './supplier-error.ts';
import type { Quote, QuoteRequest, Supplier } from './supplier.ts';

/**
 * Why a supplier could not tell. The layers above map them to the spec's errors: timeout and
 * busy -> 504 UPSTREAM_TIMEOUT, error, auth and rate_limited -> 502 UPSTREAM_ERROR, malformed and
 * unreachable -> 502 BAD_GATEWAY, open -> 503 SERVICE_UNAVAILABLE (v1); a null price on v2/v3.
 */
export const SUPPLIER_FAILURES = ['timeout', 'error', 'unreachable', 'malformed', 'open', 'busy', 'auth', 'rate_limited'] as const;
/**
 * error = the supplier answered with an HTTP error; unreachable = no connection (refused, reset);
 * open = the circuit breaker refused the call; busy = the search's budget ran out while its call
 * waited for one of our concurrency slots (a burst): the supplier was never asked; auth = it
 * refused our credentials; rate_limited = its 429 asked for a wait the call's deadline had no room for.
 */
export type SupplierFailure = (typeof SUPPLIER_FAILURES)[number];

export interface QuoteOutcome {
  supplier: SupplierId;
  /** Every asked id: its quote, or null when the supplier could not tell (failed or breaker open). */
  quotes: Map<string, Quote | null>;
  /** The first failure met (in time, across the batches), or null when every batch was answered. */
  failure: SupplierFailure | null;
  /** true when at least one HTTP call was made to the supplier (false: every id came from the cache, or the breaker refused). */
  asked: boolean;
  /** When failure is 'open': milliseconds until the breaker lets a trial through (0: a trial is running). */
  retryAfterMs?: number;
}

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

/**
 * Told what the service did, for operators' metrics (app.ts wires it to prom-client); every
 * method is optional and must not throw.
 */
export interface QuoteObserver {
  /** One HTTP call to the supplier ended after `ms`: answered (failure null) or failed. */
  call?(supplier: SupplierId, ms: number, failure: Exclude<SupplierFailure, 'open'> | null): void;
  /** Ids of one quote answered from the cache, and ids that had to be asked (or were refused). */
  cache?(supplier: SupplierId, hits: number, misses: number): void;
  /** Ids refused without a call because the breaker is open. */
  refused?(supplier: SupplierId, ids: number): void;
  /** A call met a 429 and waits `ms` before sending again (then answered or failed: `call` tells). */
  rateLimitWait?(supplier: SupplierId, ms: number): void;
}

export interface QuoteServiceOptions {
  supplier: Supplier;
  /** Metrics hooks; absent = none. */
  observer?: QuoteObserver;
  /** Milliseconds clock of the breaker and the cache (tests move it by hand; default Date.now). */
  now?: () => number;
  /** Calls in flight at once to this supplier, shared by every search through this service. */
  concurrency?: number;
  /** Deadline of one call, on top of the caller's signal. */
  callTimeoutMs?: number;
  /** The breaker's settings, or a breaker of its own (e.g. to watch it in a test). */
  breaker?: { failureThreshold?: number; openMs?: number } | CircuitBreaker;
  /** The cache's settings, or a cache (one may be shared by several suppliers, and a Redis one by several gateways: keys name the supplier). */
  cache?: { ttlMs?: number; maxEntries?: number } | QuoteCache;
  /** Told of each breaker transition (for the log), unless `breaker` is a breaker of the caller's. */
  onBreakerTransition?: (to: BreakerState, cause: string) => void;
  /** Told whether each call's credentials were accepted (answered) or refused (/health's `auth`). */
  auth?: SupplierAuth;
}

const FAILURE_OF_KIND: Record<SupplierErrorKind, Exclude<SupplierFailure, 'open'>> = {
  timeout: 'timeout',
  http: 'error',
  network: 'unreachable',
  malformed: 'malformed',
  auth: 'auth',
  rate_limited: 'rate_limited',
};

/**
 * Failures that say nothing of whether the supplier is up: a refused credential (it answered, and
 * will answer the same to every call: opening the breaker would only hide the cause behind
 * `open`) and a rate limit (it answered, and asked for a pause the deadline had no room for).
 */
const NOT_AN_OUTAGE: ReadonlySet<SupplierErrorKind> = new Set(['auth', 'rate_limited']);

/**
 * The resilience around one supplier's adapter: cache, batching to the supplier's cap, bounded
 * concurrency, a deadline per call and the circuit breaker. One per supplier for the life of the
 * process, so that the concurrency bound and the breaker see every search.
 */
export function createQuoteService(options: QuoteServiceOptions): QuoteService {
  const { supplier } = options;
  const now = options.now ?? Date.now;
  const observer = options.observer;
  const callObserver = { rateLimitWait: (id: SupplierId, ms: number) => observer?.rateLimitWait?.(id, ms) };
  const callTimeoutMs = options.callTimeoutMs ?? defaults.quoteCallTimeoutMs;
  const limit = pLimit(options.concurrency ?? defaults.quoteConcurrency);
  const breaker =
    options.breaker !== undefined && 'tryAcquire' in options.breaker
      ? options.breaker
      : createCircuitBreaker({ ...options.breaker, now, onTransition: options.onBreakerTransition });
  const cache =
    options.cache !== undefined && 'scope' in options.cache ? options.cache : createQuoteCache({ ...options.cache, now: options.now });
  if (!(callTimeoutMs > 0)) throw new RangeError(`callTimeoutMs must be > 0, got ${callTimeoutMs}`);

  async function quote(request: QuoteRequest, signal: AbortSignal): Promise<QuoteOutcome> {
    const scope = cache.scope(supplier.id, request);
    // Every asked id in asked order, null until answered; Map.set on a present key keeps its place.
    const quotes = new Map<string, Quote | null>();
    for (const id of request.supplierStayIds) quotes.set(id, null);
    // One lookup for every id (a shared cache: one round trip); it never rejects. Memory answers
    // at once, without an await: what follows (queueing the batches) happens in this same turn.
    const lookup = scope.get([...quotes.keys()]);
    const held = lookup instanceof Map ? lookup : await lookup;
    const missing: string[] = [];
    for (const id of quotes.keys()) {
      const cached = held.get(id);
      if (cached === undefined) missing.push(id);
      else quotes.set(id, cached);
    }

    let failure: SupplierFailure | null = null;
    let retryAfterMs: number | undefined;
    let asked = false;
    const fail = (kind: SupplierFailure, ids: readonly string[]): void => {
      if (kind === 'open') observer?.refused?.(supplier.id, ids.length);
      if (failure === null) {
        failure = kind;
        if (kind === 'open') retryAfterMs = breaker.retryAfterMs();
      }
      for (const id of ids) quotes.set(id, null);
    };
    const outcome = (): QuoteOutcome => ({
      supplier: supplier.id,
      quotes,
      failure,
      asked,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });

    observer?.cache?.(supplier.id, quotes.size - missing.length, missing.length);
    if (missing.length === 0) return outcome();
    if (signal.aborted) {
      if (!isTimeoutReason(signal.reason)) throw signal.reason;
      fail('timeout', missing);
      return outcome();
    }
    // An open breaker refuses at once, without queueing behind other searches' calls.
    if (breaker.state() === 'open') {
      fail('open', missing);
      return outcome();
    }

    const batches: string[][] = [];
    for (let i = 0; i < missing.length; i += supplier.maxIdsPerQuote) batches.push(missing.slice(i, i + supplier.maxIdsPerQuote));

    /**
     * Batches not yet settled, each with how it settles on the caller's abort. A batch settles at
     * the first of its answer or the abort, so a call queued behind slow ones (or an adapter that
     * does not honour the signal) cannot hold the search past its budget. One abort listener per
     * search, not per batch: a signal with more than 10 listeners draws Node's leak warning.
     */
    const pending = new Set<(reason: unknown) => void>();
    const onAbort = (): void => {
      for (const abortBatch of [...pending]) abortBatch(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });

    /**
     * One batch: waits for a slot, asks the breaker, calls. Only the supplier's own failures
     * count against its breaker (an error, no connection, a malformed answer, or no answer within
     * the call's own deadline, counted from when the call went out). When the search's budget
     * ends first, the supplier is not to blame and the breaker hears nothing: a batch that had to
     * queue for a slot is `busy` (we were, whether or not it had gone out by then), one that went
     * out at once and did not answer within the budget is a `timeout`.
     */
    const runBatch = (ids: string[]): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        let settled = false;
        const queued = limit.activeCount + limit.pendingCount >= limit.concurrency;
        const settle = (write: () => void): void => {
          if (settled) return;
          settled = true;
          pending.delete(abortBatch);
          write();
        };
        const abortBatch = (reason: unknown): void =>
          settle(() => {
            if (!isTimeoutReason(reason)) {
              reject(reason);
              return;
            }
            fail(queued ? 'busy' : 'timeout', ids);
            resolve();
          });
        pending.add(abortBatch);

        void limit(async () => {
          // Past the budget before a slot came free: the batch has settled, make no call.
          if (settled) return;
          if (!breaker.tryAcquire()) {
            settle(() => {
              fail('open', ids);
              resolve();
            });
            return;
          }
          asked = true;
          let answer: Map<string, Quote>;
          const deadline = deadlineSignal(callTimeoutMs, signal);
          const started = performance.now();
          try {
            answer = await observeCalls(callObserver, () => supplier.quote({ ...request, supplierStayIds: ids }, deadline.signal));
          } catch (error) {
            if (signal.aborted && !deadline.timedOut) {
              // The caller gave up (its budget, or a cancel) before the call's own deadline: that
              // says nothing about the supplier. The batch has settled through abortBatch already.
              breaker.cancel();
              settle(() => reject(error));
              return;
            }
            // Its own deadline passed: a supplier that cannot answer in time is down for us.
            const kind = error instanceof SupplierError ? FAILURE_OF_KIND[error.kind] : 'error';
            if (error instanceof SupplierError && NOT_AN_OUTAGE.has(error.kind)) {
              // Neither a failure nor a success: a half-open breaker's trial slot is freed.
              breaker.cancel();
              if (error.kind === 'auth') options.auth?.refused(supplier.id, error.detail);
            } else breaker.failure(error instanceof Error ? error.message : kind);
            observer?.call?.(supplier.id, performance.now() - started, kind);
            settle(() => {
              fail(kind, ids);
              resolve();
            });
            return;
          } finally {
            deadline.clear();
          }
          observer?.call?.(supplier.id, performance.now() - started, null);
          breaker.success();
          options.auth?.answered(supplier.id);
          const answered = ids.map((id) => [id, answer.get(id) ?? { available: false }] as const);
          // Cached even when the batch already settled on the deadline: the answer is still good.
          scope.set(answered);
          settle(() => {
            for (const [id, quote] of answered) quotes.set(id, quote);
            resolve();
          });
        });
      });

    try {
      await Promise.all(batches.map(runBatch));
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    return outcome();
  }

  return {
    supplier: supplier.id,
    quote,
    breakerState: () => breaker.state(),
  };
}
