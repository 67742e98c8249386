import type { CircuitBreaker } from './circuit-breaker.ts';
import { gaveUp, unanswered, type PriceCall, type QuoteCall } from './quote-call.ts';
import { SupplierError, type SupplierErrorKind } from './supplier-error.ts';
import type { Quote } from './supplier.ts';

/** A call the breaker refused: it never went out. `retryAfterMs`: until a trial may go. */
export class BreakerOpenError extends Error {
  readonly retryAfterMs: number;
  constructor(retryAfterMs: number) {
    super('the circuit breaker is open');
    this.name = 'BreakerOpenError';
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * Failures that say nothing of whether the supplier is up: a refused credential (it answered, and
 * will answer the same to every call: opening the breaker would only hide the cause behind
 * `open`) and a rate limit (it answered, and asked for a pause the deadline had no room for).
 */
const NOT_AN_OUTAGE: ReadonlySet<SupplierErrorKind> = new Set(['auth', 'rate_limited']);

/**
 * `call` behind the supplier's circuit breaker: asked before each call (a refusal is a
 * BreakerOpenError, no call), told each call's verdict. Only the supplier's own failures count
 * (an error, no connection, a malformed answer, no answer within the call's own deadline). A
 * caller that gave up, a refused credential and a rate limit are neither failure nor success
 * (`cancel()`: a half-open breaker's trial slot is freed).
 */
export function withBreaker(call: QuoteCall, breaker: CircuitBreaker): QuoteCall {
  return async (request, signal) => {
    if (!breaker.tryAcquire()) throw new BreakerOpenError(breaker.retryAfterMs());
    let answer: Map<string, Quote>;
    try {
      answer = await call(request, signal);
    } catch (error) {
      if (gaveUp(error, signal) || (error instanceof SupplierError && NOT_AN_OUTAGE.has(error.kind))) breaker.cancel();
      else breaker.failure(error instanceof Error ? error.message : 'error');
      throw error;
    }
    breaker.success();
    return answer;
  };
}

/**
 * `priced` unless the breaker is open: then every id is refused at once, without queueing behind
 * other searches' calls (`onRefused` tells how many), with the time until a trial may go.
 */
export function refuseWhileOpen(priced: PriceCall, breaker: CircuitBreaker, onRefused: (ids: number) => void): PriceCall {
  return async (request, signal) => {
    if (breaker.state() !== 'open') return priced(request, signal);
    onRefused(request.supplierStayIds.length);
    return { quotes: unanswered(request.supplierStayIds), failure: 'open', asked: false, retryAfterMs: breaker.retryAfterMs() };
  };
}
