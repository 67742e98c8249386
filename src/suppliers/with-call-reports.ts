import type { SupplierId } from '../types.ts';
import { observeCalls } from './call-observer.ts';
import { failureOf, gaveUp, type QuoteCall, type QuoteObserver } from './quote-call.ts';
import type { SupplierAuth } from './supplier-auth.ts';
import { SupplierError } from './supplier-error.ts';

/**
 * `call` telling what it met: `observer.call` how long it took and how it ended, `auth` whether
 * the supplier accepted the credentials (answered) or refused them (/health's `auth`), and, from
 * the `observeCalls` context it runs in, `observer.rateLimitWait` each 429 it waited out. A call
 * its caller gave up says nothing of the supplier and is not told.
 */
export function withCallReports(
  call: QuoteCall,
  supplier: SupplierId,
  reports: { observer?: QuoteObserver; auth?: SupplierAuth },
): QuoteCall {
  const { observer, auth } = reports;
  const callObserver = { rateLimitWait: (id: SupplierId, ms: number) => observer?.rateLimitWait?.(id, ms) };
  return async (request, signal) => {
    const started = performance.now();
    try {
      const answer = await observeCalls(callObserver, () => call(request, signal));
      observer?.call?.(supplier, performance.now() - started, null);
      auth?.answered(supplier);
      return answer;
    } catch (error) {
      if (!gaveUp(error, signal)) {
        observer?.call?.(supplier, performance.now() - started, failureOf(error));
        if (error instanceof SupplierError && error.kind === 'auth') auth?.refused(supplier, error.detail);
      }
      throw error;
    }
  };
}
