import pLimit from 'p-limit';
import { BreakerOpenError } from './with-breaker.ts';
import { failureOf, gaveUp, type PriceCall, type QuoteCall, type SupplierFailure } from './quote-call.ts';
import type { Quote } from './supplier.ts';
import { isTimeoutReason } from './supplier-error.ts';

export interface BatchingOptions {
  /** The supplier's cap on ids per call. */
  maxIds: number;
  /** Calls in flight at once, shared by every search priced through this PriceCall (one per supplier). */
  concurrency: number;
  /** Told how many ids a breaker's refusal left unpriced. */
  onRefused: (ids: number) => void;
}

/**
 * Any number of ids through `call`: distinct ids in batches of at most `maxIds`, each waiting for
 * one of `concurrency` slots shared by every search. Each batch settles at the first of its
 * answer and the caller's abort, so a call queued behind slow ones (or a driver that does not
 * honour the signal) cannot hold the search past its budget. A failed batch leaves its ids null
 * and the outcome's `failure` is the first met in time.
 *
 * When the caller's budget ends a batch: one that had to queue for a slot is `busy` (we were,
 * whether or not it had gone out by then), one that went out at once is a `timeout`. A caller's
 * abort with any other reason rejects with that reason.
 */
export function withBatching(call: QuoteCall, options: BatchingOptions): PriceCall {
  const limit = pLimit(options.concurrency);
  return async (request, signal) => {
    const quotes = new Map<string, Quote | null>(request.supplierStayIds.map((id) => [id, null]));
    let failure: SupplierFailure | null = null;
    let retryAfterMs: number | undefined;
    let asked = false;
    const fail = (kind: SupplierFailure, ids: readonly string[], untilTrialMs?: number): void => {
      if (kind === 'open') options.onRefused(ids.length);
      if (failure === null) {
        failure = kind;
        retryAfterMs = untilTrialMs;
      }
      for (const id of ids) quotes.set(id, null);
    };

    const batches: string[][] = [];
    const distinct = [...quotes.keys()];
    for (let i = 0; i < distinct.length; i += options.maxIds) batches.push(distinct.slice(i, i + options.maxIds));

    // Batches not yet settled, each with how it settles on the caller's abort. One abort listener
    // per search, not per batch: a signal with more than 10 listeners draws Node's leak warning.
    const pending = new Set<(reason: unknown) => void>();
    const onAbort = (): void => {
      for (const abortBatch of [...pending]) abortBatch(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });

    const runBatch = (ids: string[]): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        let settled = false;
        let sent = false;
        const queued = limit.activeCount + limit.pendingCount >= limit.concurrency;
        const settle = (write: () => void): void => {
          if (settled) return;
          settled = true;
          pending.delete(abortBatch);
          write();
          resolve();
        };
        const abortBatch = (reason: unknown): void =>
          settle(() => {
            if (!isTimeoutReason(reason)) return reject(reason);
            if (sent) asked = true;
            fail(queued ? 'busy' : 'timeout', ids);
          });
        pending.add(abortBatch);

        void limit(async () => {
          // Past the budget before a slot came free: the batch has settled, make no call.
          if (settled) return;
          sent = true;
          try {
            const answer = await call({ ...request, supplierStayIds: ids }, signal);
            settle(() => {
              asked = true;
              for (const id of ids) quotes.set(id, answer.get(id) ?? null);
            });
          } catch (error) {
            settle(() => {
              if (error instanceof BreakerOpenError) return fail('open', ids, error.retryAfterMs);
              // The caller gave up: the batch has settled through abortBatch already, unless the
              // driver noticed first.
              if (gaveUp(error, signal)) return reject(error);
              asked = true;
              fail(failureOf(error), ids);
            });
          }
        });
      });

    try {
      await Promise.all(batches.map(runBatch));
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    return { quotes, failure, asked, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  };
}
