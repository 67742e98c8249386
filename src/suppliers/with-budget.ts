import { isTimeoutReason } from './supplier-error.ts';
import { unanswered, type PriceCall } from './quote-call.ts';

/**
 * `priced` unless the caller's signal has already aborted: then nobody is asked. A search past its
 * budget (a TimeoutError) gets a `timeout` for every id; a caller that cancelled gets its reason
 * back as the rejection.
 */
export function withinBudget(priced: PriceCall): PriceCall {
  return async (request, signal) => {
    if (!signal.aborted) return priced(request, signal);
    if (!isTimeoutReason(signal.reason)) throw signal.reason;
    return { quotes: unanswered(request.supplierStayIds), failure: 'timeout', asked: false };
  };
}
