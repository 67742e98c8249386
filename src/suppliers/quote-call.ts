// The vocabulary the quote service's wrappers share (quote-service.ts composes them): one call to a
// supplier, any number of ids priced, and why a supplier could not tell.
import type { SupplierId } from '../types.ts';
import { SupplierError, type SupplierErrorKind } from './supplier-error.ts';
import type { Quote, QuoteRequest } from './supplier.ts';

/**
 * One call to the supplier for at most its cap of ids: the signature of `Supplier.quote`, which
 * each per-call wrapper (deadline, breaker, reports, cache writes) takes and gives. It throws a
 * SupplierError for the supplier's failures, a BreakerOpenError when the breaker refused it, and
 * the caller's own abort reason when the caller gave up (`gaveUp`).
 */
export type QuoteCall = (request: QuoteRequest, signal: AbortSignal) => Promise<Map<string, Quote>>;

/**
 * Any number of ids of one stay request priced under `signal`, the search's budget: the signature
 * of the wrappers around the batches (cache, budget, open breaker). Never rejects for supplier
 * trouble; rejects only with the reason of a caller that cancelled.
 */
export type PriceCall = (request: QuoteRequest, signal: AbortSignal) => Promise<PricedIds>;

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

/** What a price call answers for its ids. */
export interface PricedIds {
  /** Every asked id: its quote, or null when the supplier could not tell (failed or breaker open). */
  quotes: Map<string, Quote | null>;
  /** The first failure met (in time, across the batches), or null when every batch was answered. */
  failure: SupplierFailure | null;
  /** true when at least one HTTP call was made to the supplier (false: every id came from the cache, or the breaker refused). */
  asked: boolean;
  /** When failure is 'open': milliseconds until the breaker lets a trial through (0: a trial is running). */
  retryAfterMs?: number;
}

export interface QuoteOutcome extends PricedIds {
  supplier: SupplierId;
}

/**
 * Told what the service did, for operators' metrics (app.ts wires it to prom-client); every
 * method is optional and must not throw.
 */
export interface QuoteObserver {
  /** One HTTP call to the supplier ended after `ms`: answered (failure null) or failed. */
  call?(supplier: SupplierId, ms: number, failure: CallFailure | null): void;
  /** Ids of one quote answered from the cache, and ids that had to be asked (or were refused). */
  cache?(supplier: SupplierId, hits: number, misses: number): void;
  /** Ids refused without a call because the breaker is open. */
  refused?(supplier: SupplierId, ids: number): void;
  /** A call met a 429 and waits `ms` before sending again (then answered or failed: `call` tells). */
  rateLimitWait?(supplier: SupplierId, ms: number): void;
}

/** How a call that went out can fail (`open` and `busy` are calls that never went out). */
export type CallFailure = Exclude<SupplierFailure, 'open' | 'busy'>;

const FAILURE_OF_KIND: Record<SupplierErrorKind, CallFailure> = {
  timeout: 'timeout',
  http: 'error',
  network: 'unreachable',
  malformed: 'malformed',
  auth: 'auth',
  rate_limited: 'rate_limited',
};

/** The failure a call's error stands for: its SupplierError's kind, `error` for anything else (a driver's bug). */
export function failureOf(error: unknown): CallFailure {
  return error instanceof SupplierError ? FAILURE_OF_KIND[error.kind] : 'error';
}

/**
 * Whether a call's error is its caller giving up (the search's budget, or a cancel) rather than
 * the supplier failing: the caller's signal aborted and the call rejected with its reason, as
 * `withDeadline` and the drivers reject then. It says nothing about the supplier.
 */
export function gaveUp(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted && error === signal.reason;
}

/** `ids`, each with a null quote: what a price call answers for ids it could not ask. */
export function unanswered(ids: readonly string[]): Map<string, Quote | null> {
  return new Map(ids.map((id) => [id, null]));
}

/**
 * `call` answering every id it was asked, one the supplier left out as not available: the
 * Supplier contract, held here too so that the layers above (the cache above all) never see a
 * hole, whatever the driver.
 */
export function withEveryIdAnswered(call: QuoteCall): QuoteCall {
  return async (request, signal) => {
    const answer = await call(request, signal);
    return new Map(request.supplierStayIds.map((id) => [id, answer.get(id) ?? { available: false }]));
  };
}
