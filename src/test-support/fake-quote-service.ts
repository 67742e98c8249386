// Test support: a quote service of our own interface (suppliers/quote-service.ts) whose answers a
// test decides, for the pricing rules of the search core without suppliers, HTTP or caches.
import type { QuoteOutcome, QuoteService, SupplierFailure } from '../suppliers/quote-service.ts';
import type { Quote, QuoteRequest } from '../suppliers/supplier.ts';
import type { SupplierId } from '../types.ts';

export interface FakeQuoteService extends QuoteService {
  /** Every request it was asked, in order. */
  readonly requests: QuoteRequest[];
}

export interface FakeQuoteOptions {
  /** The supplier fails: every id gets a null quote and the outcome this failure. */
  failure?: SupplierFailure;
  retryAfterMs?: number;
  /** What `asked` says (default: true, false for an open breaker): false is an answer from the quote cache. */
  asked?: boolean;
}

/** A supplier answering `answer(id, request)` for each id asked (null: it could not tell that one). */
export function fakeQuoteService(
  supplier: SupplierId,
  answer: (supplierStayId: string, request: QuoteRequest) => Quote | null,
  options: FakeQuoteOptions = {},
): FakeQuoteService {
  const requests: QuoteRequest[] = [];
  const failure = options.failure ?? null;
  return {
    supplier,
    requests,
    async quote(request): Promise<QuoteOutcome> {
      requests.push(request);
      const quotes = new Map<string, Quote | null>();
      for (const id of request.supplierStayIds) quotes.set(id, failure === null ? answer(id, request) : null);
      const outcome: QuoteOutcome = { supplier, quotes, failure, asked: options.asked ?? failure !== 'open' };
      if (options.retryAfterMs !== undefined) outcome.retryAfterMs = options.retryAfterMs;
      return outcome;
    },
    breakerState: () => (failure === 'open' ? 'open' : 'closed'),
  };
}

/**
 * The differential test's suppliers: a fixed answer per (supplier, id, nights), sold out about
 * one time in six, priced in USD, EUR, JPY or (rarely) a currency without a rate.
 */
export function worldQuote(supplier: SupplierId, supplierStayId: string, nights: number): Quote {
  let h = 2_166_136_261;
  for (const c of `${supplier}:${supplierStayId}`) h = Math.imul(h ^ c.charCodeAt(0), 16_777_619) >>> 0;
  if (h % 6 === 0) return { available: false };
  const currency = ['USD', 'USD', 'EUR', 'JPY', 'USD', 'EUR', 'USD', 'XTS'][(h >>> 3) % 8];
  const perNightUsd = 40 + ((h >>> 6) % 460);
  const rate = currency === 'EUR' ? 0.862 : currency === 'JPY' ? 153.2 : 1;
  return { available: true, total: Math.round(perNightUsd * nights * rate * 100) / 100, currency };
}
