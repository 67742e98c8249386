import { deadlineSignal } from './deadline-signal.ts';
import type { QuoteCall } from './quote-call.ts';

/**
 * `call` with a deadline of its own, `ms` from when it goes out (not from when the search began),
 * on top of the caller's signal. When the caller's signal ends the call first (the search's
 * budget, or a cancel), the call rejects with the caller's reason whatever the driver made of it
 * (a driver reads a budget's TimeoutError as a `timeout` SupplierError): the supplier is not to
 * blame (`gaveUp`). When the call's own deadline ends it, the driver's `timeout` stands: a
 * supplier that cannot answer in time is down for us.
 */
export function withDeadline(call: QuoteCall, ms: number): QuoteCall {
  if (!(ms > 0)) throw new RangeError(`quoteCallTimeoutMs must be > 0, got ${ms}`);
  return async (request, signal) => {
    const deadline = deadlineSignal(ms, signal);
    try {
      return await call(request, deadline.signal);
    } catch (error) {
      if (signal.aborted && !deadline.timedOut) throw signal.reason;
      throw error;
    } finally {
      deadline.clear();
    }
  };
}
